/**
 * The one check for a redirect target a caller gives us (login's ?redirectTo, the 2FA step that
 * carries it, /locale's redirectTo and Referer): only a path on our own origin comes back.
 *
 * Browsers are lenient where a naive "starts with /" check is not: they strip tabs and newlines
 * before parsing (`/\t/evil.example`, `/%09/…` once decoded), read `\` as `/` (`/\evil.example`)
 * and treat `//host` as another origin. So the raw value (and its percent-decoded form, for
 * anything that decodes it again downstream) must be a single "/" followed by neither "/" nor "\",
 * with no control character or backslash anywhere; then the WHATWG URL parser, resolving it
 * against our origin, must land on our origin. The answer is the parsed path, query and hash.
 */
const UNSAFE = /[\u0000-\u001f\u007f\\]/;
const SINGLE_SLASH_PATH = /^\/(?![/\\])/;

function looksLocal(value: string) {
  return SINGLE_SLASH_PATH.test(value) && !UNSAFE.test(value);
}

function decoded(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

export function safeRedirectPath(raw: unknown, origin: string, fallback = "/"): string {
  if (typeof raw !== "string" || raw.length > 2048 || !looksLocal(raw)) return fallback;
  const plain = decoded(raw);
  if (plain === null || !looksLocal(plain)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(origin).origin) return fallback;
  return url.pathname + url.search + url.hash;
}
