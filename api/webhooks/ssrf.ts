/**
 * SSRF guard for customer webhook URLs: in production we never POST to loopback, private,
 * link-local (cloud metadata 169.254.169.254), CGNAT, multicast or unspecified addresses. The
 * host is resolved right before each attempt and every address it resolves to must be public;
 * redirects are not followed (a 3xx is a failed attempt). Allowed outside production when
 * WEBHOOK_ALLOW_PRIVATE_URLS is not "false" (tests POST to a receiver on 127.0.0.1).
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { env } from "../lib/env";

export function privateUrlsAllowed(): boolean {
  const e = env();
  if (e.NODE_ENV === "production") return false;
  return e.WEBHOOK_ALLOW_PRIVATE_URLS !== "false";
}

function v4(address: string): number[] | null {
  const parts = address.split(".").map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts : null;
}

/** True for any address that is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) {
    const [a, b] = v4(address)!;
    return (
      a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)) || a >= 224
    );
  }
  if (kind === 6) {
    const x = address.toLowerCase();
    const mapped = x.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    if (mapped) return isPrivateAddress(mapped[1]);
    return x === "::" || x === "::1" || /^f[cd]/.test(x) || /^fe[89ab]/.test(x) || x.startsWith("ff") || x.startsWith("64:ff9b:") || x.startsWith("2001:db8");
  }
  return true; // not an address at all
}

/** Resolves the URL's host; throws with a plain reason when it must not be called. */
export async function assertPublicUrl(raw: string): Promise<void> {
  const url = new URL(raw);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("only http and https URLs are called");
  if (privateUrlsAllowed()) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  if (addresses.length === 0) throw new Error(`${host} does not resolve`);
  const blocked = addresses.find(isPrivateAddress);
  if (blocked) throw new Error(`${host} resolves to a private address (${blocked}); not called`);
}
