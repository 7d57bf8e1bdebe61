/**
 * The ids an e-mail carries out and gets back (ADR 036, "Envelope and ids").
 *
 * - The envelope sender (return path) is VERP, signed: `b-{message id, 32 hex}-{tag}@bounces.{domain}`,
 *   where the tag is the first 8 hex of an HMAC-SHA256 of the message id and the domain under a key
 *   of its own (derived from SESSION_SECRET with its own label, like crypto.ts's secretKey). DSNs and
 *   most complaints are sent to this address, so the address alone names the message; the inbound
 *   listener (./inbound-smtp.ts) refuses at RCPT any address whose tag is wrong, so nobody can bounce
 *   another's message by guessing its id, nor move a message to another domain. The tag is 32 bits:
 *   a guesser needs billions of RCPT commands per message.
 * - `Message-ID: <{message id}@{domain}>`: not signed (it is visible to every recipient); only a hint,
 *   e.g. the original message's id quoted in a complaint sent to an address of ours that is not a
 *   return path.
 *
 * Addresses are read case-insensitively (a relay may change their case) and answered in lower case.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { env } from "../lib/env";

/** The key of the return path tags: derived from the session secret, used for nothing else. */
let cachedKey: { secret: string; key: Buffer } | undefined;
function returnPathKey(): Buffer {
  const secret = env().SESSION_SECRET;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: createHash("sha256").update(`email-return-path:${secret}`).digest() };
  return cachedKey.key;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A host name of two labels or more (letters, digits, hyphens; punycode for the others). */
const DOMAIN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;
const RETURN_PATH = /^b-([0-9a-f]{32})-([0-9a-f]{8})@bounces\.(.+)$/;
const BOUNCES_PREFIX = "bounces.";

/** A message id (uuid) in its canonical form, or null. */
function canonicalId(messageId: string): string | null {
  const id = messageId.trim().toLowerCase();
  return UUID.test(id) ? id : null;
}

/** A sending domain in its canonical form (lower case, no trailing dot), or null. */
function canonicalDomain(domain: string): string | null {
  const d = domain.trim().toLowerCase().replace(/\.$/, "");
  return d.length <= 253 - BOUNCES_PREFIX.length && DOMAIN.test(d) ? d : null;
}

/** The tag of a message id (32 hex, no dashes) on a domain: 8 hex of the HMAC of both. */
function tag(hex: string, domain: string): string {
  return createHmac("sha256", returnPathKey()).update(`${hex}@${domain}`).digest("hex").slice(0, 8);
}

/** The signed VERP envelope sender of a message sent from `domain`. Throws on an id or domain that is not one. */
export function returnPath(messageId: string, domain: string): string {
  const id = canonicalId(messageId);
  const d = canonicalDomain(domain);
  if (!id) throw new Error(`returnPath: "${messageId}" is not a message id`);
  if (!d) throw new Error(`returnPath: "${domain}" is not a domain`);
  const hex = id.replaceAll("-", "");
  return `b-${hex}-${tag(hex, d)}@${BOUNCES_PREFIX}${d}`;
}

/**
 * The message and domain a return path names, or null when the address is not one of ours: not of
 * the shape, or its tag is wrong (compared in constant time). Accepts `<…>` around the address.
 */
export function messageOfReturnPath(address: string): { messageId: string; domain: string } | null {
  if (typeof address !== "string" || address.length > 320) return null;
  const m = RETURN_PATH.exec(
    address
      .trim()
      .replace(/^<(.*)>$/, "$1")
      .toLowerCase(),
  );
  if (!m) return null;
  const [, hex, given, rawDomain] = m;
  const domain = canonicalDomain(rawDomain);
  if (!domain) return null;
  if (!timingSafeEqual(Buffer.from(tag(hex, domain)), Buffer.from(given))) return null;
  const messageId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { messageId, domain };
}

/** The Message-ID header value of a message sent from `domain`: `<{message id}@{domain}>`. */
export function messageIdHeader(messageId: string, domain: string): string {
  const id = canonicalId(messageId);
  const d = canonicalDomain(domain);
  if (!id) throw new Error(`messageIdHeader: "${messageId}" is not a message id`);
  if (!d) throw new Error(`messageIdHeader: "${domain}" is not a domain`);
  return `<${id}@${d}>`;
}

/**
 * The message id in a Message-ID header value we wrote (`<{uuid}@{domain}>`, any domain, any case,
 * with or without the angle brackets), or null. Not signed: a hint, never proof.
 */
export function messageOfMessageIdHeader(value: string | null | undefined): string | null {
  if (typeof value !== "string" || value.length > 1000) return null;
  const m = /^<?\s*([0-9a-f-]{36})@([^<>@\s]+?)\s*>?$/i.exec(value.trim());
  if (!m || !canonicalDomain(m[2])) return null;
  return canonicalId(m[1]);
}
