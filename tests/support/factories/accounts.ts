/** Accounts: a bare account row (without an owner) and changes to an existing one (balance, type, status). */
import { type Query, insertRow, runDb, sql, updateRows, given } from "./sql";

export type AccountFields = {
  name?: string;
  type?: "customer" | "reseller" | "platform";
  status?: "active" | "inactive" | "suspended";
  currency?: string;
  /** In the currency's smallest unit, as the accounts table stores it. */
  balance?: number;
  creditLimit?: number;
};

/**
 * An account with no one in it (a widget's or a sender's tenant). Tests that need a person in
 * the account register one through the API instead (registerPerson in tests/support/api.ts).
 */
export async function makeAccount(fields: AccountFields = {}, q: Query = runDb): Promise<string> {
  const name = fields.name ?? `Conta ${Math.random().toString(36).slice(2, 8)}`;
  const row = await insertRow("accounts", { ...given(fields), name, authToken: sql("md5(random()::text)") }, "id", q);
  return row.id;
}

/** Sets columns of an account, e.g. setAccount(id, { balance: 100_000 }). */
export async function setAccount(accountId: string, fields: AccountFields, q: Query = runDb): Promise<void> {
  await updateRows("accounts", { id: accountId }, fields, "id", q);
}

/** A whitelabel (a reseller's brand on its own host), optionally owned by an account. */
export async function makeWhitelabel(fields: { name: string; host: string; color?: string; accountId?: string }, q: Query = runDb): Promise<string> {
  return (await insertRow("whitelabels", { color: "#000000", ...given(fields) }, "id", q)).id;
}
