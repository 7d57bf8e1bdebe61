/** Second factor: TOTP (RFC 6238, SHA-1, 6 digits, 30 s) with the seed sealed at rest. */
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import { User } from "../../models";
import { recordAudit } from "../audit/record";
import type { Ctx } from "../lib/context";
import { seal, unseal } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";
import { validate } from "../lib/validate";
import { verifyPassword } from "./passwords";
import { assertLoginAllowed, assertPasswordCheckAllowed, clearLoginFailures, clearPasswordChecks, recordLoginFailure } from "./rate-limit";
import { revokeUserSessions } from "./revocation";
import { totpCodeSchema } from "./schemas";

const ISSUER = "Mensageria";

function totp(secret: string, label: string) {
  return new OTPAuth.TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
}

/** Accept a code once: the same time step cannot be replayed. */
async function check(userId: string, secret: string, label: string, code: string) {
  const t = totp(secret, label);
  const delta = t.validate({ token: code, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(Date.now() / 30_000) + delta;
  const fresh = await redis().set(keys.totpUsed(userId, step), "1", "EX", 120, "NX");
  return fresh === "OK";
}

/** Start enrolment: a new secret (not yet active) plus its otpauth URL and QR code. */
export async function beginTotpEnrolment(userId: string) {
  // Replacing an active second factor would need only a session: turning it off needs the password.
  if ((await User.findByPk(userId))?.totpEnabledAt) throw new AppError("TOTP_ALREADY_ENABLED");
  return totpEnrolmentView(userId, new OTPAuth.Secret({ size: 20 }).base32);
}

/**
 * The otpauth URL and QR code of a pending (not yet confirmed) secret, so a screen can show an
 * enrolment again (e.g. the web keeps the secret in the session between requests).
 */
export async function totpEnrolmentView(userId: string, secret: string) {
  const user = await User.findByPk(userId);
  if (!user) throw new AppError("UNAUTHENTICATED");
  if (!/^[A-Z2-7]{16,}$/.test(secret)) throw new AppError("VALIDATION");
  const uri = totp(secret, user.email).toString();
  const qr = await QRCode.toDataURL(uri, { margin: 1, width: 220 });
  return { secret, uri, qr };
}

/** Confirm enrolment with a first code from the app; only then is 2FA switched on. */
export async function confirmTotpEnrolment(ctx: Ctx, userId: string, secret: string, input: unknown) {
  const { code } = validate(totpCodeSchema, input);
  const user = await User.findByPk(userId);
  if (!user) throw new AppError("UNAUTHENTICATED");
  if (user.totpEnabledAt) throw new AppError("TOTP_ALREADY_ENABLED");
  if (!/^[A-Z2-7]{16,}$/.test(secret) || !(await check(userId, secret, user.email, code))) {
    throw new AppError("INVALID_TOTP", { fields: { code: ["errors.INVALID_TOTP"] } });
  }
  await user.update({ totpSecret: seal(secret), totpEnabledAt: new Date() });
  await recordAudit(ctx, "auth.2fa_enabled", { userId });
  // Sessions signed in without the second factor end; the one that enrolled stays.
  await revokeUserSessions(userId, { except: ctx.sessionId, reason: "2fa_enabled" });
}

/** Verify a sign-in's second factor. Failures count toward the sign-in rate limit. */
export async function verifyTotp(ctx: Ctx, userId: string, input: unknown) {
  const { code } = validate(totpCodeSchema, input);
  const user = await User.findByPk(userId);
  if (!user?.totpSecret) throw new AppError("UNAUTHENTICATED");
  await assertLoginAllowed(user.email, ctx.ip);
  if (!(await check(userId, unseal(user.totpSecret), user.email, code))) {
    await recordLoginFailure(user.email, ctx.ip);
    await recordAudit(ctx, "auth.2fa_failed", { userId, accountId: user.currentAccountId });
    throw new AppError("INVALID_TOTP", { fields: { code: ["errors.INVALID_TOTP"] } });
  }
  await clearLoginFailures(user.email, ctx.ip);
  await recordAudit(ctx, "auth.login", { userId, accountId: user.currentAccountId, meta: { second_factor: "totp" } });
  return user;
}

/** Turn 2FA off: needs the current password (wrong ones are limited per person). */
export async function disableTotp(ctx: Ctx, userId: string, password: string) {
  const user = await User.findByPk(userId);
  if (!user) throw new AppError("UNAUTHENTICATED");
  await assertPasswordCheckAllowed(user.id);
  if (!(await verifyPassword(password, user.passwordHash))) {
    throw new AppError("INVALID_PASSWORD", { fields: { currentPassword: ["errors.INVALID_PASSWORD"] } });
  }
  await clearPasswordChecks(user.id);
  await user.update({ totpSecret: null, totpEnabledAt: null });
  await recordAudit(ctx, "auth.2fa_disabled", { userId });
  await revokeUserSessions(userId, { except: ctx.sessionId, reason: "2fa_disabled" });
}

export async function preferredTfa(userId: string) {
  const user = await User.findByPk(userId);
  return { preferred_tfa: user?.totpEnabledAt ? "totp" : null };
}
