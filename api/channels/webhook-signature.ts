/**
 * Webhook signing in the Standard Webhooks style (https://www.standardwebhooks.com), used for
 * provider receipts we receive and, later, for the webhooks we send to customers.
 *
 *   webhook-id:        unique id of the message (the same on every retry)
 *   webhook-timestamp: unix seconds when it was signed
 *   webhook-signature: "v1,<base64 HMAC-SHA256 of `${id}.${timestamp}.${rawBody}`>", several
 *                      separated by spaces (key rotation) — any one matching is enough.
 *
 * A secret written "whsec_<base64>" is used as those decoded bytes (the standard's format); any
 * other secret is used as its UTF-8 bytes. Only node:crypto: safe to import from tests.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export type WebhookHeaders = { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };

function secretBytes(secret: string): Buffer {
  return secret.startsWith("whsec_") ? Buffer.from(secret.slice("whsec_".length), "base64") : Buffer.from(secret, "utf8");
}

/** The bare base64 signature (without the "v1," prefix). */
export function computeSignature(secret: string, id: string, timestamp: number | string, rawBody: string): string {
  return createHmac("sha256", secretBytes(secret)).update(`${id}.${timestamp}.${rawBody}`, "utf8").digest("base64");
}

/**
 * The three headers for a body signed now (or at `timestamp`, unix seconds). Several secrets (a
 * rotation's overlap) give one "v1,…" signature each, space-separated, in the order given.
 */
export function signWebhook(secret: string | readonly string[], id: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): WebhookHeaders {
  const secrets = typeof secret === "string" ? [secret] : secret;
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => `v1,${computeSignature(s, id, timestamp, rawBody)}`).join(" "),
  };
}

export type VerifyResult = { ok: true; id: string; timestamp: number } | { ok: false; reason: "missing_headers" | "bad_timestamp" | "expired" | "bad_signature" };

type HeaderSource = Headers | Record<string, string | null | undefined>;
function header(h: HeaderSource, name: string): string | null {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name);
  const r = h as Record<string, string | null | undefined>;
  return r[name] ?? r[name.toLowerCase()] ?? null;
}

/**
 * Verifies the headers against the raw body with any of `secrets`. Rejects a timestamp more than
 * `toleranceSeconds` away from `now` (either side), so a captured request cannot be replayed later.
 */
export function verifyWebhook(secrets: string | string[], headers: HeaderSource, rawBody: string, opts: { now?: number; toleranceSeconds?: number } = {}): VerifyResult {
  const id = header(headers, "webhook-id");
  const ts = header(headers, "webhook-timestamp");
  const sig = header(headers, "webhook-signature");
  if (!id || !ts || !sig) return { ok: false, reason: "missing_headers" };
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: "bad_timestamp" };
  const timestamp = Number(ts);
  const now = Math.floor((opts.now ?? Date.now()) / 1000);
  if (Math.abs(now - timestamp) > (opts.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) return { ok: false, reason: "expired" };

  const offered = sig
    .split(" ")
    .map((s) => s.trim())
    .filter((s) => s.startsWith("v1,"))
    .map((s) => Buffer.from(s.slice(3), "base64"));
  for (const secret of Array.isArray(secrets) ? secrets : [secrets]) {
    if (!secret) continue;
    const expected = Buffer.from(computeSignature(secret, id, ts, rawBody), "base64");
    for (const candidate of offered) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) return { ok: true, id, timestamp };
    }
  }
  return { ok: false, reason: "bad_signature" };
}
