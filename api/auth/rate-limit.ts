/**
 * The rules of the anonymous and secret-checking auth steps, on the one limiter (api/lib/rate-limit.ts).
 * The use-cases (login, totp, register, user-tokens, users' changePassword) call these, so the API and
 * the web forms are limited alike.
 *
 * Sign-in: failures lock the pair (e-mail, IP) and the IP, never the e-mail alone: whoever knows an
 * address could otherwise lock its owner out from everywhere. Failures for an e-mail from all IPs
 * only slow its next attempts down (a growing wait, capped at LOGIN_SLOWDOWN_MAX_MS).
 */
import { env } from "../lib/env";
import { count, current, hit, peek, reset, type Rule } from "../lib/rate-limit";

const ip = (value: string | null | undefined) => value ?? "unknown";
const pair = (email: string, address: string | null | undefined) => `${email}|${ip(address)}`;

function rules() {
  const e = env();
  const auth = e.AUTH_REQUEST_WINDOW_SECONDS;
  return {
    loginPair: { name: "login-pair", limit: e.LOGIN_MAX_FAILS_PER_EMAIL, windowSeconds: e.LOGIN_FAIL_WINDOW_SECONDS },
    loginIp: { name: "login-ip", limit: e.LOGIN_MAX_FAILS_PER_IP, windowSeconds: e.LOGIN_FAIL_WINDOW_SECONDS },
    loginEmail: { name: "login-email", limit: e.LOGIN_MAX_FAILS_PER_EMAIL, windowSeconds: e.LOGIN_FAIL_WINDOW_SECONDS },
    passwordCheck: { name: "password-check", limit: e.PASSWORD_CHECK_MAX_PER_USER, windowSeconds: e.PASSWORD_CHECK_WINDOW_SECONDS },
    registerIp: { name: "register-ip", limit: e.REGISTER_MAX_PER_IP, windowSeconds: auth },
    resetEmail: { name: "reset-email", limit: e.RESET_MAX_PER_EMAIL, windowSeconds: auth },
    resetIp: { name: "reset-ip", limit: e.RESET_MAX_PER_IP, windowSeconds: auth },
    resetSubmitIp: { name: "reset-submit-ip", limit: e.RESET_SUBMIT_MAX_PER_IP, windowSeconds: auth },
    resendEmail: { name: "resend-verification-email", limit: e.RESEND_VERIFICATION_MAX_PER_EMAIL, windowSeconds: auth },
    resendIp: { name: "resend-verification-ip", limit: e.RESEND_VERIFICATION_MAX_PER_IP, windowSeconds: auth },
  } satisfies Record<string, Rule>;
}

/**
 * Before a sign-in secret (password, 2FA code) is checked: refuses a locked IP, counts the attempt
 * for the pair atomically (so parallel guesses cannot all slip under the limit) and refuses past
 * it, then waits when the e-mail has collected failures from anywhere.
 */
export async function assertLoginAllowed(email: string, address: string | null | undefined) {
  const r = rules();
  await peek(r.loginIp, ip(address));
  await hit(r.loginPair, pair(email, address));
  const wait = slowdownMs(await current(r.loginEmail, email), r.loginEmail.limit, env().LOGIN_SLOWDOWN_MAX_MS);
  if (wait > 0) await new Promise((done) => setTimeout(done, wait));
}

/** 0 below the limit, then 500 ms doubling with each further failure, capped. */
export function slowdownMs(fails: number, limit: number, capMs: number) {
  return fails < limit ? 0 : Math.min(capMs, 500 * 2 ** Math.min(fails - limit, 10));
}

export async function recordLoginFailure(email: string, address: string | null | undefined) {
  const r = rules();
  await Promise.all([count(r.loginIp, ip(address)), count(r.loginEmail, email)]);
}

/** A correct secret: the pair starts afresh, and so does the e-mail's slow-down. */
export async function clearLoginFailures(email: string, address: string | null | undefined) {
  const r = rules();
  await Promise.all([reset(r.loginPair, pair(email, address)), reset(r.loginEmail, email)]);
}

/**
 * Before checking a signed-in person's current password (password change, turning 2FA off):
 * counted per person, so a stolen session cannot guess the password; a right one starts afresh.
 */
export async function assertPasswordCheckAllowed(userId: string) {
  await hit(rules().passwordCheck, userId);
}

export async function clearPasswordChecks(userId: string) {
  await reset(rules().passwordCheck, userId);
}

export const registerAttempt = (address: string | null | undefined) => hit(rules().registerIp, ip(address));

/**
 * Whether a sign-up with an address that has a user may still e-mail its owner: as many notices per
 * window as reset links (RESET_MAX_PER_EMAIL), silently, so sign-ups from many IPs cannot mail-bomb it.
 */
export async function mayNoticeExisting(email: string) {
  const r = rules();
  return (await count({ ...r.resetEmail, name: "register-existing-email" }, email)) <= r.resetEmail.limit;
}

/** A reset link: per address asked for (mail bombing one inbox) and per IP (walking many addresses). */
export async function resetRequestAttempt(email: string, address: string | null | undefined) {
  const r = rules();
  await hit(r.resetIp, ip(address));
  await hit(r.resetEmail, email);
}

export const resetSubmitAttempt = (address: string | null | undefined) => hit(rules().resetSubmitIp, ip(address));

export async function resendVerificationAttempt(email: string, address: string | null | undefined) {
  const r = rules();
  await hit(r.resendIp, ip(address));
  await hit(r.resendEmail, email);
}
