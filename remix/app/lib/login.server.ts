import { redirect } from "@remix-run/node";
import type { User } from "../../../models";
import { commitSession, getSession, rotateSession } from "./session.server";
import { localeCookie } from "./i18n.server";
import { safeRedirectPath } from "./safe-redirect";

/** Where a finished sign-in goes: a path on our origin (never back to /login), else "/". */
export function afterSignInPath(request: Request, value: unknown) {
  const path = safeRedirectPath(value, new URL(request.url).origin);
  return path.startsWith("/login") ? "/" : path;
}

/**
 * Start a session for a person whose password (or provider) was accepted: always a new
 * session id; with 2FA on, the session is "pending" and only /2fa is reachable.
 */
export async function startSession(request: Request, user: User, opts: { twoFactorRequired: boolean; redirectTo?: string }) {
  const old = await getSession(request);
  const session = await rotateSession(old, {
    userId: user.id,
    accountId: user.currentAccountId ?? undefined,
    tfa: opts.twoFactorRequired ? "pending" : "ok",
    redirectTo: opts.twoFactorRequired ? opts.redirectTo : undefined,
  });
  const headers = new Headers();
  headers.append("Set-Cookie", await commitSession(session));
  headers.append("Set-Cookie", await localeCookie.serialize(user.locale));
  return redirect(opts.twoFactorRequired ? "/2fa" : afterSignInPath(request, opts.redirectTo), { headers });
}
