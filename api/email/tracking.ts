/**
 * E-mail open and click tracking (issue 17, ADR 039).
 *
 * - Settings: per account, open tracking and click tracking, both on unless the account turned them
 *   off (`email_tracking_settings`; GET/PUT /api/email/subscription-tracking-settings). Read at send
 *   time: a message sent while tracking is off carries no pixel and its links are its own (privacy).
 * - At send (`trackedHtml`, called by the adapter api/channels/email/adapter.ts): the HTML part gets a
 *   1x1 pixel `<EMAIL_TRACK_URL>/e/o/<token>` before `</body>` (or at its end), and every http(s)
 *   `<a href>` becomes `<EMAIL_TRACK_URL>/e/c/<token>`. The text part is left as it is.
 * - Tokens: `o.<message id, 32 hex>.<mac>` and `c.<message id, 32 hex>.<link, base64url>.<mac>`, the mac
 *   22 base64url characters (128 bits) of an HMAC-SHA256 of the kind, message id and link under a key
 *   of its own (derived from SESSION_SECRET with its own label, like the return path's). A changed
 *   link or message id fails the mac: the redirect cannot be pointed anywhere else (no open redirect),
 *   and a click cannot be recorded on another message. Stateless: no row is written per link at send.
 * - Recording (`recordEngagement`, served by ./tracking-routes.ts): one INSERT … SELECT from the
 *   message (account, campaign, recipient's domain; its current status returned); only when the
 *   status would move (opened ranks with read, clicked above: api/messages/status.ts) the receipt path
 *   (api/messages/receipts.ts) applies it, deduplicated per message and status, with its
 *   message_events row and the customer webhooks' announcement. Every open and click is a row.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { SignedInCtx } from "../lib/context";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { row } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { applyProviderReceipt } from "../messages/receipts";
import { type MessageStatus, nextStatus } from "../messages/status";
import { can, canWrite } from "../policy/policy";
import { EMAIL_PROVIDER } from "./provider";

export type TrackingSettings = { open_tracking: boolean; click_tracking: boolean };
export type EngagementKind = "open" | "click";

/** Longest link rewritten (longer ones are left as they are): the stored link's limit. */
export const MAX_TRACKED_URL = 2048;

// ---------------------------------------------------------------------------------------------
// Settings

const DEFAULTS: TrackingSettings = { open_tracking: true, click_tracking: true };

/** An account's tracking settings (both on when it never chose). */
export async function trackingSettingsOf(accountId: string): Promise<TrackingSettings> {
  const found = await row<TrackingSettings>(`SELECT open_tracking, click_tracking FROM email_tracking_settings WHERE account_id = $1`, [accountId]);
  return found ?? { ...DEFAULTS };
}

/** Who reads the settings: whoever reaches the insights or sends e-mail. */
function assertReads(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/mail/insights") && !can(ctx.actor, "/mail/send")) throw new AppError("FORBIDDEN");
}

/** Who changes them: an account setting, the owners and admins of the account (WRITE_ROLES.account). */
export function canChangeTracking(ctx: SignedInCtx): boolean {
  return (can(ctx.actor, "/mail/insights") || can(ctx.actor, "/mail/send")) && canWrite(ctx.actor, "account");
}

export async function getTrackingSettings(ctx: SignedInCtx): Promise<{ data: TrackingSettings }> {
  assertReads(ctx);
  return { data: await trackingSettingsOf(ctx.actor.accountId) };
}

/** A form's checkbox ("on", "true") or a JSON boolean; absent is false in a form, kept in JSON (see `partial`). */
const flag = z.union([z.boolean(), z.enum(["true", "false", "on", "off", "1", "0"]).transform((v) => v === "true" || v === "on" || v === "1")], {
  message: "validation.invalid",
});
export const trackingSettingsSchema = z.object({ open_tracking: flag.optional(), click_tracking: flag.optional() });

export async function updateTrackingSettings(ctx: SignedInCtx, input: unknown): Promise<{ data: TrackingSettings }> {
  assertReads(ctx);
  if (!canChangeTracking(ctx)) throw new AppError("FORBIDDEN");
  const given = validate(trackingSettingsSchema, input ?? {});
  const saved = await row<TrackingSettings>(
    `INSERT INTO email_tracking_settings (account_id, open_tracking, click_tracking) VALUES ($1, coalesce($2, true), coalesce($3, true))
     ON CONFLICT (account_id) DO UPDATE SET open_tracking = coalesce($2, email_tracking_settings.open_tracking),
       click_tracking = coalesce($3, email_tracking_settings.click_tracking), updated_at = now()
     RETURNING open_tracking, click_tracking`,
    [ctx.actor.accountId, given.open_tracking ?? null, given.click_tracking ?? null],
  );
  return { data: saved! };
}

// ---------------------------------------------------------------------------------------------
// Tokens

let cachedKey: { secret: string; key: Buffer } | undefined;
function trackingKey(): Buffer {
  const secret = env().SESSION_SECRET;
  if (cachedKey?.secret !== secret) cachedKey = { secret, key: createHash("sha256").update(`email-tracking:${secret}`).digest() };
  return cachedKey.key;
}

const mac = (kind: "o" | "c", hex: string, link = "") => createHmac("sha256", trackingKey()).update(`${kind}\n${hex}\n${link}`).digest().subarray(0, 16).toString("base64url");
const HEX_ID = /^[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const toHex = (id: string) => id.toLowerCase().replaceAll("-", "");
const toUuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

export function openToken(messageId: string): string {
  if (!UUID.test(messageId.toLowerCase())) throw new Error(`openToken: "${messageId}" is not a message id`);
  const hex = toHex(messageId);
  return `o.${hex}.${mac("o", hex)}`;
}

export function clickToken(messageId: string, link: string): string {
  if (!UUID.test(messageId.toLowerCase())) throw new Error(`clickToken: "${messageId}" is not a message id`);
  const hex = toHex(messageId);
  return `c.${hex}.${Buffer.from(link, "utf8").toString("base64url")}.${mac("c", hex, link)}`;
}

function macOk(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The message an open token names, or null (not of the shape, or its mac is wrong). */
export function readOpenToken(token: string): { messageId: string } | null {
  if (typeof token !== "string" || token.length > 100) return null;
  const m = /^o\.([0-9a-f]{32})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!m || !macOk(m[2], mac("o", m[1]))) return null;
  return { messageId: toUuid(m[1]) };
}

/** The message and link a click token names, or null (not of the shape, or its mac is wrong: a changed link or id). */
export function readClickToken(token: string): { messageId: string; url: string } | null {
  if (typeof token !== "string" || token.length > 4 * MAX_TRACKED_URL) return null;
  const m = /^c\.([0-9a-f]{32})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!m || !HEX_ID.test(m[1])) return null;
  const url = Buffer.from(m[2], "base64url").toString("utf8");
  if (!macOk(m[3], mac("c", m[1], url)) || !isTrackable(url)) return null;
  return { messageId: toUuid(m[1]), url };
}

// ---------------------------------------------------------------------------------------------
// The HTML part at send

const trackBase = () => (env().EMAIL_TRACK_URL ?? env().APP_URL).replace(/\/+$/, "");

/** An absolute http(s) link of a sane length: the only links rewritten (mailto:, tel:, anchors, relative links stay). */
function isTrackable(url: string): boolean {
  if (url.length > MAX_TRACKED_URL || !/^https?:\/\//i.test(url)) return false;
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:") && Boolean(u.hostname);
  } catch {
    return false;
  }
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'", "#x27": "'" };
/** An attribute value as the browser reads it (the entities links carry: &amp; and numeric ones). */
function decodeAttr(v: string): string {
  return v.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (all, name: string) => {
    const lower = name.toLowerCase();
    if (ENTITIES[lower] !== undefined) return ENTITIES[lower];
    if (lower.startsWith("#x")) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith("#")) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return all;
  });
}
const encodeAttr = (v: string) => v.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** Hosts whose links are never rewritten: our own tracking and unsubscribe hosts (an unsubscribe link must work without us). */
function ownHosts(): Set<string> {
  const hosts = new Set<string>([new URL(trackBase()).hostname.toLowerCase(), env().UNSUBSCRIBE_HOST.toLowerCase()]);
  return hosts;
}

const A_TAG = /<a\b[^>]*>/gi;
const HREF = /(\shref\s*=\s*)("([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/** The HTML with every trackable <a href> pointing at its signed click redirect. */
export function rewriteLinks(html: string, messageId: string): string {
  const base = trackBase();
  const skip = ownHosts();
  return html.replace(A_TAG, (tag) =>
    tag.replace(HREF, (all, lead: string, _v: string, dq?: string, sq?: string, bare?: string) => {
      const url = decodeAttr((dq ?? sq ?? bare ?? "").trim());
      if (!isTrackable(url) || skip.has(new URL(url).hostname.toLowerCase())) return all;
      return `${lead}"${encodeAttr(`${base}/e/c/${clickToken(messageId, url)}`)}"`;
    }),
  );
}

/** The 1x1 pixel of a message, before `</body>` when there is one, else at the end. */
export function addPixel(html: string, messageId: string): string {
  const img = `<img src="${trackBase()}/e/o/${openToken(messageId)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0" />`;
  const end = html.search(/<\/body\s*>/i);
  return end >= 0 ? `${html.slice(0, end)}${img}${html.slice(end)}` : `${html}${img}`;
}

/** The HTML part as sent: tracked as the account's settings `s` say (unchanged when both are off). */
export function trackedHtml(messageId: string, html: string, s: TrackingSettings): string {
  let out = html;
  if (s.click_tracking) out = rewriteLinks(out, messageId);
  if (s.open_tracking) out = addPixel(out, messageId);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Recording

const STATUS_OF: Record<EngagementKind, MessageStatus> = { open: "opened", click: "clicked" };

/**
 * Records one open or click of a message (already authenticated by its token): one INSERT that reads
 * the message (its account, campaign, recipient's domain) and answers its status; the status moves
 * through the receipt path only when it would. Answers false when no e-mail has that id (erased).
 */
export async function recordEngagement(messageId: string, kind: EngagementKind, url: string | null = null): Promise<boolean> {
  const found = await row<{ status: MessageStatus }>(
    `WITH m AS (
       SELECT id, created_at, account_id, campaign_id, status, split_part(recipient, '@', 2) AS domain FROM messages
        WHERE id = $1 AND channel = 'email' AND direction = 'outbound' LIMIT 1
     ), i AS (
       INSERT INTO email_engagements (account_id, message_id, message_created_at, campaign_id, kind, url, recipient_domain)
       SELECT account_id, id, created_at, campaign_id, $2, $3, left(domain, 253) FROM m
     )
     SELECT status FROM m`,
    [messageId, kind, url],
  );
  if (!found) return false;
  const status = STATUS_OF[kind];
  if (nextStatus(found.status, status).apply) {
    await applyProviderReceipt({ provider: EMAIL_PROVIDER, providerMessageId: messageId, messageId, status, occurredAt: new Date(), eventId: `${messageId}:${status}` });
  }
  return true;
}

/** How many opens and clicks a message had (every one, beyond the first). */
export async function engagementCounts(messageId: string, accountId: string): Promise<{ opens: number; clicks: number }> {
  const found = await row<{ opens: string; clicks: string }>(
    `SELECT count(*) FILTER (WHERE kind = 'open') AS opens, count(*) FILTER (WHERE kind = 'click') AS clicks
       FROM email_engagements WHERE message_id = $1 AND account_id = $2`,
    [messageId, accountId],
  );
  return { opens: Number(found?.opens ?? 0), clicks: Number(found?.clicks ?? 0) };
}
