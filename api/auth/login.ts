import { User } from "../../models";
import { recordAudit } from "../audit/record";
import type { Ctx } from "../lib/context";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { verifyPassword } from "./passwords";
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from "./rate-limit";
import { loginSchema } from "./schemas";

/**
 * E-mail + password sign-in, shared by the web form and POST /api/auth/login. Rate-limited per
 * (e-mail, IP) and per IP, slowed down per e-mail (./rate-limit); every outcome audited. Answers whether the second factor is still owed.
 */
export async function login(ctx: Ctx, input: unknown) {
  const { email, password } = validate(loginSchema, input);
  await assertLoginAllowed(email, ctx.ip);
  const user = await User.findOne({ where: { email } });
  if (!(await verifyPassword(password, user?.passwordHash))) {
    await recordLoginFailure(email, ctx.ip);
    await recordAudit(ctx, "auth.login_failed", { userId: user?.id ?? null, accountId: user?.currentAccountId ?? null, meta: { email } });
    throw new AppError("INVALID_CREDENTIALS");
  }
  // The password was right: this pair starts afresh, even if the e-mail still needs verifying.
  await clearLoginFailures(email, ctx.ip);
  if (!user!.emailVerifiedAt) {
    throw new AppError("EMAIL_NOT_VERIFIED", { params: { email } });
  }
  await user!.update({ lastLoginAt: new Date() });
  const twoFactorRequired = Boolean(user!.totpEnabledAt);
  await recordAudit(ctx, twoFactorRequired ? "auth.login_password_ok" : "auth.login", { userId: user!.id, accountId: user!.currentAccountId });
  return { user: user!, twoFactorRequired };
}
