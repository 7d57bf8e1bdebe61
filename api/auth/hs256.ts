/**
 * Verifying our access tokens (JWS compact, HS256) with node:crypto's HMAC, synchronously.
 * WebCrypto's verify (what jose uses) runs on a worker thread in Bun: every authenticated request
 * paid a hop to the thread pool and back for a 2 µs HMAC (issue 14). The checks are jose's for
 * our tokens, and no fewer: three base64url parts; a header that is a JSON object with
 * `alg: "HS256"` (never `none`, never another algorithm) and no `crit`; the signature compared in
 * constant time; a payload that is a JSON object with a numeric `exp` in the future, `nbf` (if
 * any) not in the future and `iat` (if any) a number. Tokens are still issued by
 * @elysiajs/jwt (jose); tests check both agree.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const PART = /^[A-Za-z0-9_-]+$/;

function json(part: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** The payload of a valid HS256 token signed with `secret`, else null. `now`: seconds since the epoch. */
export function verifyHs256(token: string, secret: string, now = Math.floor(Date.now() / 1000)): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((p) => PART.test(p))) return null;
  const [h, p, s] = parts;
  const header = json(h);
  if (!header || header.alg !== "HS256" || "crit" in header || header.b64 === false) return null;
  const expected = createHmac("sha256", secret).update(`${h}.${p}`).digest();
  const given = Buffer.from(s, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const payload = json(p);
  if (!payload) return null;
  if (typeof payload.exp !== "number" || !Number.isFinite(payload.exp) || payload.exp <= now) return null;
  if (payload.nbf !== undefined && (typeof payload.nbf !== "number" || payload.nbf > now)) return null;
  if (payload.iat !== undefined && typeof payload.iat !== "number") return null;
  return payload;
}
