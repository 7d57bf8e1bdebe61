/**
 * People of an account: list, invite, accept an invitation, edit, remove. Only owner and admin
 * manage users; every query is scoped by the actor's account.
 */
import { Op, Sequelize, type Transaction } from "sequelize";
import { Account, AuditLog, Department, Invitation, Membership, User, sequelize, type Role } from "../../models";
import { recordAudit } from "../audit/record";
import { notify } from "../notifications/services";
import { hashPassword } from "../auth/passwords";
import { acceptInvitationSchema } from "../auth/schemas";
import type { Ctx, SignedInCtx } from "../lib/context";
import { hashToken, randomToken } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { decodeCursor, keyset } from "../lib/page";
import { validate } from "../lib/validate";
import { enqueueMail } from "../mail/enqueue";
import { can, canWrite } from "../policy/policy";
import { inviteSchema, listQuerySchema, profileSchema, updateUserSchema, localeSchema } from "./schemas";
import { changePasswordSchema } from "../auth/schemas";
import { verifyPassword } from "../auth/passwords";
import { assertPasswordCheckAllowed, clearPasswordChecks } from "../auth/rate-limit";
import { revokeMembershipConnections, revokeUserSessions } from "../auth/revocation";
import { startAgentSeat } from "../seats/seats";

export const PAGE_SIZE = 20;
const INVITATION_TTL_MS = 7 * 86_400_000;

function assertManager(ctx: SignedInCtx) {
  if (!canWrite(ctx.actor, "users")) throw new AppError("NO_PERMISSION_EDIT_USERS");
}

/** Departments apply when the account's plan has them (omni + department permission). */
export function usesDepartments(ctx: SignedInCtx) {
  return can(ctx.actor, "/departments");
}

/**
 * Owners of the account, their rows locked until the transaction ends: two concurrent demotions
 * or removals cannot both see "another owner is left" and leave the account without one.
 */
async function lockedOwnerCount(accountId: string, transaction: Transaction) {
  const owners = await Membership.findAll({ where: { accountId, role: "owner" }, attributes: ["id"], transaction, lock: transaction.LOCK.UPDATE });
  return owners.length;
}

/** A LIKE pattern that matches `q` literally (%, _ and \ escaped). */
function contains(q: string) {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type UserRow = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  mobile: string | null;
  role: Role;
  isAgent: boolean;
  departmentId: string | null;
  twoFactor: boolean;
  lastLoginAt: Date | null;
  createdAt: Date;
};

/** Seeing the people of an account follows the /users screen's rule of the policy. */
function assertCanSeeUsers(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/users")) throw new AppError("FORBIDDEN");
}

/**
 * People of the account by first name (then membership id), `limit` a page: by keyset after
 * `cursor` (the `next_cursor` of the previous page), or — the screen's pager, deprecated in the
 * API — by 1-based `page`. Also the total matching `q` and the open invitations.
 */
export async function listUsers(ctx: SignedInCtx, query: unknown) {
  assertCanSeeUsers(ctx);
  const { page, q, cursor, limit } = validate(listQuerySchema, query ?? {});
  const after = decodeCursor(cursor, ["string", "string"]);
  // Matches the e-mail or the full name ("Ana Souza"), case-insensitively.
  const userWhere = q
    ? {
        [Op.or]: [
          { email: { [Op.iLike]: contains(q) } },
          Sequelize.where(Sequelize.fn("concat_ws", " ", Sequelize.col("user.first_name"), Sequelize.col("user.last_name")), { [Op.iLike]: contains(q) }),
        ],
      }
    : undefined;
  const where = { accountId: ctx.actor.accountId };
  // (first_name, membership id) > the cursor's: the same order as the ORDER BY, so no row is seen twice.
  const keyWhere = after
    ? {
        ...where,
        [Op.or]: [
          Sequelize.where(Sequelize.col("user.first_name"), Op.gt, after[0]),
          { [Op.and]: [Sequelize.where(Sequelize.col("user.first_name"), Op.eq, after[0]), { id: { [Op.gt]: after[1] } }] },
        ],
      }
    : where;
  const [rows, count] = await Promise.all([
    Membership.findAll({
      where: keyWhere,
      include: [{ model: User, as: "user", where: userWhere, required: true }],
      order: [
        [{ model: User, as: "user" }, "firstName", "ASC"],
        ["id", "ASC"],
      ],
      limit: limit + 1,
      offset: after ? 0 : (page - 1) * limit,
    }),
    Membership.count({ where, include: [{ model: User, as: "user", where: userWhere, required: true }] }),
  ]);
  const pending = await Invitation.findAll({
    where: { accountId: ctx.actor.accountId, acceptedAt: null, expiresAt: { [Op.gt]: new Date() } },
    order: [["createdAt", "DESC"]],
    limit: 50,
  });
  const { data, next_cursor } = keyset(rows, limit, (m) => [m.user!.firstName, m.id], toRow);
  return {
    data,
    next_cursor,
    page: after ? null : page,
    lastPage: Math.max(1, Math.ceil(count / limit)),
    total: count,
    invitations: pending.map((i) => ({ id: i.id, email: i.email, role: i.role, expiresAt: i.expiresAt, createdAt: i.createdAt })),
  };
}

function toRow(m: Membership): UserRow {
  const u = m.user!;
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    mobile: u.mobile,
    role: m.role,
    isAgent: m.isAgent,
    departmentId: m.departmentId,
    twoFactor: Boolean(u.totpEnabledAt),
    lastLoginAt: u.lastLoginAt,
    createdAt: m.createdAt,
  };
}

export async function getUser(ctx: SignedInCtx, userId: string) {
  assertCanSeeUsers(ctx);
  assertId(userId);
  const m = await Membership.findOne({ where: { accountId: ctx.actor.accountId, userId }, include: [{ model: User, as: "user" }] });
  if (!m?.user) throw new AppError("NOT_FOUND");
  return toRow(m);
}

export async function inviteUser(ctx: SignedInCtx, input: unknown) {
  assertManager(ctx);
  const data = validate(inviteSchema, input);
  return sequelize().transaction((transaction) => inviteInto({ ...ctx, transaction }, ctx.actor.accountId, data));
}

/**
 * The invitation itself, into `accountId` (the actor's own account, or a customer the staff or its
 * reseller manages: api/customers/admin.ts attachUser, which checks who may): the e-mail with the
 * link, an audit entry. The caller checks the role; ALREADY_MEMBER when the person is in already.
 */
export async function inviteInto(tctx: SignedInCtx & { transaction: Transaction }, accountId: string, data: { email: string; role: Role }) {
  const { transaction } = tctx;
  const existing = await User.findOne({ where: { email: data.email }, transaction });
  if (existing && (await Membership.findOne({ where: { accountId, userId: existing.id }, transaction }))) {
    throw new AppError("ALREADY_MEMBER", { fields: { email: ["errors.ALREADY_MEMBER"] } });
  }
  // A new invitation replaces an open one for the same address.
  await Invitation.destroy({ where: { accountId, email: data.email, acceptedAt: null }, transaction });
  const token = randomToken();
  const invitation = await Invitation.create(
    {
      accountId,
      email: data.email,
      role: data.role,
      tokenHash: hashToken(token),
      invitedBy: tctx.actor.userId,
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    },
    { transaction },
  );
  const account = await Account.findByPk(accountId, { transaction });
  const inviter = await User.findByPk(tctx.actor.userId, { transaction });
  await enqueueMail(tctx, data.email, existing?.locale ?? inviter?.locale ?? "pt-BR", "invitation", {
    name: existing?.firstName,
    account: account?.name,
    path: `/invitation/${token}`,
  });
  await recordAudit(tctx, "users.invited", { accountId, meta: { email: data.email, role: data.role } });
  return { invitation, token };
}

export async function revokeInvitation(ctx: SignedInCtx, invitationId: string) {
  assertManager(ctx);
  assertId(invitationId);
  const n = await Invitation.destroy({ where: { id: invitationId, accountId: ctx.actor.accountId, acceptedAt: null } });
  if (!n) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "users.invitation_revoked", { meta: { invitationId } });
}

/** Look up an open invitation by its link token (the /invitation/{token} screen). */
export async function findInvitation(token: string) {
  const inv = await Invitation.findOne({
    where: { tokenHash: hashToken(token), acceptedAt: null, expiresAt: { [Op.gt]: new Date() } },
    include: [{ model: Account, as: "account" }],
  });
  if (!inv) throw new AppError("INVITATION_INVALID");
  const user = await User.findOne({ where: { email: inv.email } });
  return { id: inv.id, email: inv.email, role: inv.role, accountName: inv.account?.name ?? "", accountId: inv.accountId, existingUser: Boolean(user) };
}

/**
 * Accept: a new person sets their name and password (their e-mail is proven by the link);
 * someone who already has a login joins with it (`signedInUserId` must own the invited e-mail).
 * Invited as agent, the person is a chat agent: the account pays the seat's rest of the month
 * (ADR 047), or the acceptance is refused (402) and nothing is kept.
 */
export async function acceptInvitation(ctx: Ctx, input: unknown, signedInUserId?: string, now = new Date()) {
  const token = typeof input === "object" && input && "token" in input ? String((input as { token: unknown }).token) : "";
  return sequelize().transaction(async (transaction) => {
    const inv = await Invitation.findOne({
      where: { tokenHash: hashToken(token), acceptedAt: null, expiresAt: { [Op.gt]: new Date() } },
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!inv) throw new AppError("INVITATION_INVALID");
    let user = await User.findOne({ where: { email: inv.email }, transaction });
    if (user) {
      if (user.id !== signedInUserId) throw new AppError("UNAUTHENTICATED");
    } else {
      const data = validate(acceptInvitationSchema, input);
      user = await User.create(
        { email: inv.email, firstName: data.firstName, lastName: data.lastName, passwordHash: await hashPassword(data.password), emailVerifiedAt: new Date() },
        { transaction },
      );
    }
    const membership = await Membership.create({ accountId: inv.accountId, userId: user.id, role: inv.role, isAgent: inv.role === "agent" }, { transaction });
    if (membership.isAgent) await startAgentSeat(inv.accountId, membership.id, user.id, now, transaction, { field: "", key: "seats.errors.invitation" });
    await inv.update({ acceptedAt: new Date() }, { transaction });
    await user.update({ currentAccountId: inv.accountId }, { transaction });
    await recordAudit({ ...ctx, transaction }, "users.invitation_accepted", { userId: user.id, accountId: inv.accountId, meta: { role: inv.role } });
    // Everyone in the account sees who joined (live, through the account's notification stream).
    await notify({ ...ctx, transaction }, { accountId: inv.accountId, kind: "invitation_accepted", params: { name: `${user.firstName} ${user.lastName}`.trim() }, link: "/users" });
    return user;
  });
}

/**
 * Edits a person of the account. Turning the chat agent flag on pays the seat's rest of the month
 * (ADR 047) in the same transaction: not covered, 402 on isAgent and nothing changes; off returns nothing.
 */
export async function updateUser(ctx: SignedInCtx, userId: string, input: unknown, now = new Date()) {
  assertManager(ctx);
  assertId(userId);
  const data = validate(updateUserSchema, input);
  const { row, roleChanged } = await sequelize().transaction(async (transaction) => {
    const m = await Membership.findOne({ where: { accountId: ctx.actor.accountId, userId }, include: [{ model: User, as: "user" }], transaction });
    if (!m?.user) throw new AppError("NOT_FOUND");
    if (data.role && data.role !== m.role) {
      if (m.role === "owner" && !canWrite(ctx.actor, "owners")) throw new AppError("NO_PERMISSION_EDIT_USERS");
      if (data.role === "owner" && !canWrite(ctx.actor, "owners")) throw new AppError("NO_PERMISSION_EDIT_USERS");
      if (m.role === "owner" && (await lockedOwnerCount(ctx.actor.accountId, transaction)) <= 1) {
        throw new AppError("LAST_OWNER");
      }
    }
    // Without departments in the plan the field is not offered: keep what is there.
    let departmentId = m.departmentId;
    if (usesDepartments(ctx)) {
      departmentId = data.departmentId ?? null;
      if (departmentId && !(await Department.count({ where: { id: departmentId, accountId: ctx.actor.accountId }, transaction }))) {
        throw new AppError("VALIDATION", { fields: { departmentId: ["validation.invalid"] } });
      }
    }
    const previousRole = m.role;
    const wasAgent = m.isAgent;
    if (data.isAgent && !wasAgent) await startAgentSeat(ctx.actor.accountId, m.id, ctx.actor.userId, now, transaction);
    await m.user.update({ firstName: data.firstName, lastName: data.lastName, mobile: data.mobile }, { transaction });
    await m.update({ role: data.role ?? m.role, isAgent: data.isAgent, departmentId }, { transaction });
    await recordAudit({ ...ctx, transaction }, "users.updated", { meta: { userId, role: m.role, previousRole } });
    return { row: toRow(m), roleChanged: m.role !== previousRole || m.isAgent !== wasAgent };
  });
  // Requests re-read the role each time; open realtime connections chose their streams by the
  // old role (and agent flag): they close and reconnect under the new one.
  if (roleChanged) await revokeMembershipConnections(userId, ctx.actor.accountId, "role_changed");
  return row;
}

export async function removeUser(ctx: SignedInCtx, userId: string) {
  assertManager(ctx);
  assertId(userId);
  await sequelize().transaction(async (transaction) => {
    const m = await Membership.findOne({ where: { accountId: ctx.actor.accountId, userId }, transaction });
    if (!m) throw new AppError("NOT_FOUND");
    if (m.role === "owner" && !canWrite(ctx.actor, "owners")) throw new AppError("NO_PERMISSION_EDIT_USERS");
    if (m.role === "owner" && (await lockedOwnerCount(ctx.actor.accountId, transaction)) <= 1) {
      throw new AppError("LAST_OWNER");
    }
    await m.destroy({ transaction });
    await User.update({ currentAccountId: null }, { where: { id: userId, currentAccountId: ctx.actor.accountId }, transaction });
    await recordAudit({ ...ctx, transaction }, "users.removed", { meta: { userId } });
  });
  // Removed: signed out everywhere (sessions, tokens, open streams), not only in this account.
  await revokeUserSessions(userId, { reason: "removed" });
}

/** The signed-in person's own profile. */
export async function getProfile(userId: string) {
  const u = await User.findByPk(userId);
  if (!u) throw new AppError("UNAUTHENTICATED");
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    mobile: u.mobile,
    gender: u.gender,
    birthDate: u.birthDate,
    locale: u.locale,
    twoFactor: Boolean(u.totpEnabledAt),
    hasPassword: Boolean(u.passwordHash),
  };
}

export async function updateProfile(ctx: SignedInCtx, input: unknown) {
  const data = validate(profileSchema, input);
  await User.update(
    { firstName: data.firstName, lastName: data.lastName, mobile: data.mobile, gender: data.gender ?? null, birthDate: data.birthDate ?? null },
    { where: { id: ctx.actor.userId } },
  );
  await recordAudit(ctx, "profile.updated");
}

export async function setLocale(userId: string, input: unknown) {
  const { locale } = validate(localeSchema, input);
  await User.update({ locale }, { where: { id: userId } });
  return locale;
}

export async function changePassword(ctx: SignedInCtx, input: unknown) {
  const data = validate(changePasswordSchema, input);
  const user = await User.findByPk(ctx.actor.userId);
  await assertPasswordCheckAllowed(ctx.actor.userId);
  if (!user || !(await verifyPassword(data.currentPassword, user.passwordHash))) {
    throw new AppError("INVALID_PASSWORD", { fields: { currentPassword: ["errors.INVALID_PASSWORD"] } });
  }
  await clearPasswordChecks(user.id);
  await user.update({ passwordHash: await hashPassword(data.password) });
  await recordAudit(ctx, "profile.password_changed");
  // Whoever else holds a session or token may hold it because of the old password.
  await revokeUserSessions(user.id, { except: ctx.sessionId, reason: "password_changed" });
}

export const SIGN_IN_EVENTS = 20;

/** users/sessions: the acting person's latest sign-in events (successes, failures, 2FA changes). */
export async function listSignInEvents(ctx: SignedInCtx) {
  const rows = await AuditLog.findAll({
    where: { userId: ctx.actor.userId, action: { [Op.startsWith]: "auth." } },
    order: [
      ["createdAt", "DESC"],
      ["id", "DESC"],
    ],
    limit: SIGN_IN_EVENTS,
  });
  return rows.map((r) => ({ id: r.id, action: r.action, ip: r.ip, userAgent: r.userAgent, createdAt: r.createdAt }));
}
