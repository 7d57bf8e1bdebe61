/**
 * CSRF for every cookie-authenticated POST: a per-browser random token in an httpOnly SameSite
 * cookie (set by remix/server.ts before Remix sees the request), echoed by a hidden form field.
 * Cross-site posts are refused outright when the browser says so (Sec-Fetch-Site).
 */
import { AppError } from "../../../api/lib/errors";
import { hmac, randomToken, safeEqual } from "../../../api/lib/crypto";

export const CSRF_COOKIE = "__csrf";
export const CSRF_FIELD = "csrf";

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(/;\s*/)) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i) === name) return decodeURIComponent(part.slice(i + 1));
  }
  return null;
}

/** The cookie value is `token.signature`; the form carries the same string. */
export function newCsrfCookieValue() {
  const token = randomToken(18);
  return `${token}.${hmac("csrf:" + token)}`;
}

export function csrfToken(request: Request): string {
  const value = readCookie(request, CSRF_COOKIE);
  return value && isSigned(value) ? value : "";
}

function isSigned(value: string) {
  const [token, sig] = value.split(".");
  return Boolean(token && sig && safeEqual(sig, hmac("csrf:" + token)));
}

export async function requireCsrf(request: Request, form: FormData) {
  if (request.headers.get("Sec-Fetch-Site") === "cross-site") throw new AppError("CSRF");
  const cookie = readCookie(request, CSRF_COOKIE);
  const field = form.get(CSRF_FIELD);
  if (!cookie || typeof field !== "string" || !isSigned(cookie) || !safeEqual(cookie, field)) throw new AppError("CSRF");
}
