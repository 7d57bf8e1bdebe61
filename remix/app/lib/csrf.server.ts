/**
 * CSRF for every cookie-authenticated POST. Each browser gets a random token in an httpOnly
 * SameSite cookie (set by remix/web-server.ts before Remix sees the request); forms carry an HMAC of
 * that token AND of the session cookie (the signed session id, none before sign-in). So a token is
 * good only for the session it was rendered for: one taken from another session, or planted
 * together with a chosen __csrf cookie, is refused, and signing in, the 2FA step or signing out
 * (each a new session id) retire the tokens of the pages before. Cross-site posts are refused
 * outright when the browser says so (Sec-Fetch-Site).
 */
import { AppError } from "~api/lib/errors";
import { hmac, randomToken, safeEqual } from "~api/lib/crypto";

export const CSRF_COOKIE = "__csrf";
export const CSRF_FIELD = "csrf";
/** The session cookie (session.server.ts) the token is bound to. */
export const SESSION_COOKIE = "__session";

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(/;\s*/)) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i) === name) return decodeURIComponent(part.slice(i + 1));
  }
  return null;
}

export function newCsrfCookieValue() {
  return randomToken(18);
}

/**
 * The form token of a browser cookie and a session cookie (both as the browser sends them;
 * tests compute it the same way, passing the secret). Empty without a browser cookie: nothing
 * can match it.
 */
export function csrfTokenFor(browserToken: string | null, sessionCookie: string | null, secret?: string): string {
  return browserToken ? hmac(`csrf:${browserToken}:${sessionCookie ?? ""}`, secret) : "";
}

export function csrfToken(request: Request): string {
  return csrfTokenFor(readCookie(request, CSRF_COOKIE), readCookie(request, SESSION_COOKIE));
}

export async function requireCsrf(request: Request, form: FormData) {
  if (request.headers.get("Sec-Fetch-Site") === "cross-site") throw new AppError("CSRF");
  const expected = csrfToken(request);
  const field = form.get(CSRF_FIELD);
  if (!expected || typeof field !== "string" || !safeEqual(expected, field)) throw new AppError("CSRF");
}
