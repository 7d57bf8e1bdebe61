/**
 * Unsubscribe from an account's campaign e-mail (issue 17, RFC 8058; ADR 038).
 *
 * Every campaign message carries
 *   List-Unsubscribe: <https://{UNSUBSCRIBE_HOST}/?t={token}>, <mailto:unsubscribe@{EMAIL_HOST}?subject=unsubscribe%20{token}>
 *   List-Unsubscribe-Post: List-Unsubscribe=One-Click
 * both covered by the DKIM signature (RFC 8058 section 4). The token names the account and the
 * address — `{payload}.{tag}`, payload the base64url of {"a": account id, "e": address, "c": campaign
 * id}, tag 128 bits of an HMAC-SHA256 of the payload under a key of its own derived from
 * SESSION_SECRET — so the link works without a session or a CSRF cookie (a mail client's one-click
 * POST has neither): the signature is the proof. A token that does not verify names nobody.
 *
 * unsubscribe(): records the opt-out (channel email, source `unsubscribe`) idempotently, and drops
 * the messages to that address still waiting to be sent (queued / scheduled / pending: `dropped`,
 * refunded), so a running campaign does not send it one more. The next accept of that address is
 * `optout` at price 0 (accept reads the opt-outs).
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { failUnsent } from "../dispatch/dispatcher";
import { env } from "../lib/env";
import { row, rows } from "../lib/sql";

export type UnsubscribeToken = { accountId: string; email: string; campaignId: string | null };

let cachedKey: { secret: string; key: Buffer } | undefined;
function tokenKey(): Buffer {
  const secret = env().SESSION_SECRET;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: createHash("sha256").update(`email-unsubscribe:${secret}`).digest() };
  return cachedKey.key;
}
const tag = (payload: string) => createHmac("sha256", tokenKey()).update(payload).digest().subarray(0, 16);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function unsubscribeToken(t: UnsubscribeToken): string {
  const payload = Buffer.from(JSON.stringify({ a: t.accountId, e: t.email, ...(t.campaignId ? { c: t.campaignId } : {}) })).toString("base64url");
  return `${payload}.${tag(payload).toString("base64url")}`;
}

/** The token's account and address, or null when it is malformed or its tag is wrong (forged, altered). */
export function readUnsubscribeToken(token: string | null | undefined): UnsubscribeToken | null {
  if (typeof token !== "string" || token.length > 1000) return null;
  const m = /^([A-Za-z0-9_-]{10,900})\.([A-Za-z0-9_-]{22})$/.exec(token.trim());
  if (!m) return null;
  const given = Buffer.from(m[2], "base64url");
  if (given.length !== 16 || !timingSafeEqual(given, tag(m[1]))) return null;
  try {
    const p = JSON.parse(Buffer.from(m[1], "base64url").toString("utf8")) as { a?: unknown; e?: unknown; c?: unknown };
    if (typeof p.a !== "string" || !UUID.test(p.a) || typeof p.e !== "string" || !p.e.includes("@") || p.e.length > 254) return null;
    return { accountId: p.a, email: p.e.toLowerCase(), campaignId: typeof p.c === "string" && UUID.test(p.c) ? p.c : null };
  } catch {
    return null;
  }
}

/** The https link of List-Unsubscribe (the unsubscribe host's page, which also takes the one-click POST). */
export function unsubscribeUrl(token: string): string {
  return `https://${env().UNSUBSCRIBE_HOST}/?t=${token}`;
}

/** The headers of a campaign message to `email` (nodemailer `headers`), and the DKIM header list that covers them. */
export function unsubscribeHeaders(t: UnsubscribeToken): Record<string, string> {
  const token = unsubscribeToken(t);
  return {
    "List-Unsubscribe": `<${unsubscribeUrl(token)}>, <mailto:unsubscribe@${env().EMAIL_HOST}?subject=unsubscribe%20${token}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/**
 * The fields every message's DKIM signature covers when present (./dkim.ts): nodemailer's default
 * list plus List-Unsubscribe-Post (RFC 8058: both List-Unsubscribe fields signed).
 */
export const DKIM_HEADER_FIELDS =
  "From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:Content-ID:" +
  "Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:In-Reply-To:References:" +
  "List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive";

/** Who the page names: the address and the account's name (null when the account is gone). */
export async function unsubscribeView(t: UnsubscribeToken): Promise<{ email: string; account: string; done: boolean } | null> {
  const found = await row<{ name: string; done: boolean }>(
    `SELECT a.name, EXISTS (SELECT 1 FROM optouts o WHERE o.account_id = a.id AND o.channel = 'email' AND o.recipient = $2) AS done FROM accounts a WHERE a.id = $1`,
    [t.accountId, t.email],
  );
  return found ? { email: t.email, account: found.name, done: found.done } : null;
}

/** Records the opt-out (idempotent) and drops the address's messages not yet sent. False when the account is gone. */
export async function unsubscribe(t: UnsubscribeToken): Promise<boolean> {
  const account = await row<{ id: string }>(`SELECT id FROM accounts WHERE id = $1`, [t.accountId]);
  if (!account) return false;
  await rows(`INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'email', $2, 'unsubscribe') ON CONFLICT (account_id, channel, recipient) DO NOTHING`, [
    t.accountId,
    t.email,
  ]);
  const waiting = await rows<{ id: string }>(
    `SELECT id FROM messages WHERE account_id = $1 AND channel = 'email' AND direction = 'outbound' AND recipient = $2 AND status IN ('queued','scheduled','pending')
      ORDER BY created_at DESC LIMIT 1000`,
    [t.accountId, t.email],
  );
  for (const m of waiting) await failUnsent(m.id, "optout", "errors.RECIPIENT_OPTED_OUT", { accountId: t.accountId, from: ["queued", "scheduled", "pending"], status: "dropped" });
  return true;
}
