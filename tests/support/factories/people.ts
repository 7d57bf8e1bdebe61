/** Users and their memberships: people added to an account directly, and changes to an existing person. */
import type { Role } from "../../../models/constants";
import { uniqueEmail } from "../db";
import { type Query, insertRow, runDb, sql, updateRows, given } from "./sql";

export type UserFields = {
  email?: string;
  firstName?: string;
  lastName?: string;
  /** A bcrypt hash (copy one from a seeded user to let the person sign in with its password). */
  passwordHash?: string;
  /** Whether the e-mail address counts as confirmed (email_verified_at = now()). */
  verified?: boolean;
  locale?: "pt-BR" | "en" | "es" | "zh";
  currentAccountId?: string;
  /** The sealed TOTP secret (seal() of api/lib/crypto), as the 2FA set-up stores it. */
  totpSecret?: string;
  /** Whether two-factor sign-in is on (totp_enabled_at = now()). */
  totpEnabled?: boolean;
  lastLoginAt?: Date | string;
};

/** A flag as a moment: true is now(), false is none, undefined leaves the column alone. */
const since = (flag: boolean | undefined) => (flag === undefined ? undefined : flag ? sql("now()") : null);

function columns({ verified, totpEnabled, ...fields }: UserFields) {
  return { ...fields, emailVerifiedAt: since(verified), totpEnabledAt: since(totpEnabled) };
}

/** A user row (no membership: add one with addMember). Default: unique e-mail, first name "Teste", not verified. */
export async function makeUser(fields: UserFields = {}, q: Query = runDb): Promise<string> {
  const row = await insertRow("users", { firstName: "Teste", ...given(columns(fields)), email: fields.email ?? uniqueEmail("factory") }, "id", q);
  return row.id;
}

/** Sets columns of a user, e.g. setUser(id, { verified: true }) or setUser(id, { locale: "es" }). */
export async function setUser(userId: string, fields: UserFields, q: Query = runDb): Promise<void> {
  await updateRows("users", { id: userId }, columns(fields), "id", q);
}

/** Same as setUser, for a person known by e-mail; answers the user's id and current account. */
export async function setUserByEmail(email: string, fields: UserFields, q: Query = runDb) {
  const [user] = await updateRows<{ id: string; current_account_id: string }>("users", { email }, columns(fields), "id, current_account_id", q);
  if (!user) throw new Error(`no user ${email}`);
  return user;
}

export type MemberFields = { role?: Role; isAgent?: boolean; departmentId?: string | null };

/** Puts a user in an account (default: an agent who does not attend live chat). */
export async function addMember(accountId: string, userId: string, fields: MemberFields = {}, q: Query = runDb): Promise<void> {
  await insertRow("memberships", { accountId, userId, role: "agent", ...given(fields) }, "id", q);
}

/** Changes a member's role, department or agent flag in one account. */
export async function setMember(accountId: string, userId: string, fields: MemberFields, q: Query = runDb): Promise<void> {
  await updateRows("memberships", { accountId, userId }, fields, "id", q);
}

/**
 * A live chat agent of `accountId`: the user (registered elsewhere) becomes an attending member
 * and the account becomes their current one, as if they had switched to it.
 */
export async function addLiveAgent(accountId: string, userId: string, fields: MemberFields & { firstName?: string } = {}, q: Query = runDb): Promise<void> {
  const { firstName, ...member } = fields;
  await addMember(accountId, userId, { isAgent: true, ...given(member) }, q);
  await setUser(userId, { currentAccountId: accountId, firstName }, q);
}

/** The accounts a user (by e-mail) is a member of, e.g. a seeded demo user's. */
export async function accountsOf(email: string, q: Query = runDb): Promise<string[]> {
  const rows = await q<{ account_id: string }>("SELECT m.account_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1", [email]);
  return rows.map((r) => r.account_id);
}
