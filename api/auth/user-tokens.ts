import { Op } from "sequelize";
import { User, UserToken, sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { Ctx } from "../lib/context";
import { hashToken, randomToken } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { enqueueMail } from "../mail/enqueue";
import { hashPassword } from "./passwords";
import { resendVerificationAttempt, resetRequestAttempt, resetSubmitAttempt } from "./rate-limit";
import { revokeUserSessions } from "./revocation";
import { emailOnlySchema, resetPasswordSchema } from "./schemas";

const TTL = { email_verify: 48 * 3600_000, password_reset: 3600_000 } as const;

/** One-time link token; only its hash is stored. Earlier unused tokens of the same purpose die. */
export async function issueUserToken(ctx: Ctx, userId: string, purpose: keyof typeof TTL) {
  const token = randomToken();
  await UserToken.update({ usedAt: new Date() }, { where: { userId, purpose, usedAt: null }, transaction: ctx.transaction });
  await UserToken.create({ userId, purpose, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + TTL[purpose]) }, { transaction: ctx.transaction });
  return token;
}

async function findValid(token: string, purpose: keyof typeof TTL, transaction?: Ctx["transaction"]) {
  const row = await UserToken.findOne({
    where: { tokenHash: hashToken(token), purpose, usedAt: null, expiresAt: { [Op.gt]: new Date() } },
    transaction,
    lock: transaction ? transaction.LOCK.UPDATE : undefined,
  });
  if (!row) throw new AppError("INVALID_TOKEN");
  return row;
}

export async function verifyEmail(ctx: Ctx, token: string) {
  return sequelize().transaction(async (transaction) => {
    const row = await findValid(token, "email_verify", transaction);
    await row.update({ usedAt: new Date() }, { transaction });
    const user = await User.findByPk(row.userId, { transaction });
    if (!user) throw new AppError("INVALID_TOKEN");
    await user.update({ emailVerifiedAt: user.emailVerifiedAt ?? new Date() }, { transaction });
    await recordAudit({ ...ctx, transaction }, "auth.email_verified", { userId: user.id, accountId: user.currentAccountId });
    return user;
  });
}

/** Neutral: answers the same whether or not the e-mail belongs to an unverified account. Limited per e-mail and per IP. */
export async function resendVerification(ctx: Ctx, input: unknown) {
  const { email } = validate(emailOnlySchema, input);
  await resendVerificationAttempt(email, ctx.ip);
  await sequelize().transaction(async (transaction) => {
    const user = await User.findOne({ where: { email }, transaction });
    if (!user || user.emailVerifiedAt) return;
    const token = await issueUserToken({ ...ctx, transaction }, user.id, "email_verify");
    await enqueueMail({ ...ctx, transaction }, user.email, user.locale, "verifyEmail", { name: user.firstName, path: `/email-verify/${token}` });
  });
}

/** Neutral: the answer never says whether the account exists. Limited per e-mail and per IP. */
export async function requestPasswordReset(ctx: Ctx, input: unknown) {
  const { email } = validate(emailOnlySchema, input);
  await resetRequestAttempt(email, ctx.ip);
  await sequelize().transaction(async (transaction) => {
    const user = await User.findOne({ where: { email }, transaction });
    if (!user) return;
    const token = await issueUserToken({ ...ctx, transaction }, user.id, "password_reset");
    await enqueueMail({ ...ctx, transaction }, user.email, user.locale, "resetPassword", { name: user.firstName, path: `/reset-verification/${token}` });
    await recordAudit({ ...ctx, transaction }, "auth.password_reset_requested", { userId: user.id, accountId: user.currentAccountId });
  });
}

/** GET auth/reset/{token}: is this reset link still usable? */
export async function checkResetToken(token: string) {
  const row = await findValid(token, "password_reset");
  return { valid: true, expiresAt: row.expiresAt };
}

/** Set a new password with a reset link; submissions are limited per IP (guessing tokens, burning hashes). */
export async function resetPassword(ctx: Ctx, input: unknown) {
  const data = validate(resetPasswordSchema, input);
  await resetSubmitAttempt(ctx.ip);
  const user = await sequelize().transaction(async (transaction) => {
    const row = await findValid(data.token, "password_reset", transaction);
    await row.update({ usedAt: new Date() }, { transaction });
    const user = await User.findByPk(row.userId, { transaction });
    if (!user) throw new AppError("INVALID_TOKEN");
    // A working reset link proves the mailbox, so it also verifies the e-mail.
    await user.update({ passwordHash: await hashPassword(data.password), emailVerifiedAt: user.emailVerifiedAt ?? new Date() }, { transaction });
    await recordAudit({ ...ctx, transaction }, "auth.password_reset", { userId: user.id, accountId: user.currentAccountId });
    return user;
  });
  // A reset says the old password may be known to someone else: every session and token ends.
  await revokeUserSessions(user.id, { reason: "password_reset" });
  return user;
}
