/**
 * The account's e-mail messages (issue 17; spec section 7 GET /email/messages, /email/messages/{id};
 * the E-mail message entity: id, created_at, to, subject, status, opens, clicks, error_code,
 * error_message):
 * - listEmailMessages: a range of São Paulo days (at most 31, default today) filtered by id, status,
 *   from and to (addresses, exact), newest first (`order=asc` oldest first), a keyset page
 *   {data, next_cursor} — the SMS history's day and paging rules (api/sms/history.ts), the
 *   addresses checked here. A lag-tolerant read (ADR 030).
 * - getEmailMessage: one message with its events in order (queued, sent, deferred, delivered,
 *   opened, clicked, or bounced / blocked / dropped with the code and reason) and its counts of
 *   opens and clicks. 404 for another account's.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError, type FieldErrors, isAppError } from "../lib/errors";
import { keyset } from "../lib/page";
import { replicaRows, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { saoPauloToday, smsHistorySchema } from "../sms/history";
import { historyPageSql } from "../messages/history-query";
import { renderEmail } from "./campaign-content";
import { engagementCounts } from "./tracking";

export type EmailMessage = {
  id: string;
  from: string;
  to: string;
  subject: string;
  status: string;
  price: number;
  currency: string;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  scheduled_at: Date | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  failed_at: Date | null;
};
export type EmailEvent = { status: string; source: "provider" | "system"; created_at: Date; error_code: string | null; error_message: string | null };
export type EmailMessageDetail = EmailMessage & { text: string; html: string | null; opens: number; clicks: number; events: EmailEvent[] };

type Row = Omit<EmailMessage, "from" | "to" | "price" | "subject" | "opened_at"> & {
  sender: string;
  recipient: string;
  price: string;
  subject: string | null;
  read_at: Date | null;
};
const COLUMNS = `id, sender, recipient, content->>'subject' AS subject, status, price, currency, error_code, error_message, created_at, scheduled_at, sent_at, delivered_at, read_at, failed_at`;
const view = ({ sender, recipient, price, currency, subject, read_at, ...m }: Row): EmailMessage => ({
  ...m,
  from: sender,
  to: recipient,
  subject: subject ?? "",
  price: Number(price),
  currency: currency.trim(),
  opened_at: read_at,
});

const address = z.string().trim().toLowerCase().max(254, "validation.maxLength::254").email("validation.email").optional();
/** The e-mail history's and export's sender and recipient filters: addresses, exact, lower case. */
export const emailAddressesSchema = z.object({ from: address, to: address });
const cursorSchema = z.object({ cursor: z.string().max(1000, "validation.invalid").optional() });
const blank = (v: unknown) => (v === "" || v === null ? undefined : v);

/**
 * The e-mail history's filters: the SMS history's rules for the days, id, status, order and
 * limit (`filters`), e-mail's for the sender and recipient; the errors of both at once.
 */
export function validateEmailFilters(filters: Record<string, unknown>, from: unknown, to: unknown) {
  const fields: FieldErrors = {};
  const attempt = <T>(fn: () => T): T | null => {
    try {
      return fn();
    } catch (e) {
      if (!isAppError(e) || e.code !== "VALIDATION" || !e.fields) throw e;
      Object.assign(fields, e.fields);
      return null;
    }
  };
  const q = attempt(() => validate(smsHistorySchema, filters));
  const who = attempt(() => validate(emailAddressesSchema, { from: blank(from), to: blank(to) }));
  if (!q || !who) throw new AppError("VALIDATION", { fields });
  return { q, who };
}

export async function listEmailMessages(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: EmailMessage[]; next_cursor: string | null }> {
  if (!can(ctx.actor, "/mail/history")) throw new AppError("FORBIDDEN");
  const page = await emailMessagePage(ctx.actor.accountId, input);
  return { ...page, data: page.data.map(({ account_id: _a, account_name: _n, ...m }) => m) };
}

/** A history row with its account: what platform staff's history lists (./admin-reports.ts). */
export type EmailHistoryRow = EmailMessage & { account_id: string; account_name: string };

/**
 * listEmailMessages's query, for one account or, with `accountId` null, every account (only
 * platform staff's history calls it so, after its own check, with `named`: each row's
 * account_name). Validates the input.
 */
export async function emailMessagePage(accountId: string | null, input: unknown = {}, named = false): Promise<{ data: EmailHistoryRow[]; next_cursor: string | null }> {
  const { cursor, from, to, page: _numbered, account_id: _account, ...filters } = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  // The SMS history's rules for the days, id, status, order and limit; the addresses are e-mail's.
  const { q, who } = validateEmailFilters(filters, from, to);
  const after = timeIdCursor(validate(cursorSchema, { cursor: blank(cursor) }).cursor);
  const lte = q.created_at.lte || saoPauloToday();
  const gte = q.created_at.gte || lte;
  const { sql, bind } = historyPageSql(
    { accountId, channel: "email", gte, lte, id: q.id, status: q.status, from: who.from, to: who.to },
    `${COLUMNS}, ${POSITION_SQL("created_at")} AS position, account_id,
     ${named ? "(SELECT a.name FROM accounts a WHERE a.id = messages.account_id)" : "NULL"} AS account_name`,
    { after, desc: q.order !== "asc", limit: q.limit },
  );
  const found = await replicaRows<Row & { position: string; account_id: string; account_name: string | null }>(sql, bind);
  return keyset(
    found,
    q.limit,
    (r) => [r.position, r.id],
    ({ position: _p, account_id, account_name, ...r }) => ({ ...view(r), account_id, account_name: account_name ?? "" }),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getEmailMessage(ctx: SignedInCtx, id: string): Promise<{ data: EmailMessageDetail }> {
  if (!can(ctx.actor, "/mail/history") && !can(ctx.actor, "/mail/send")) throw new AppError("FORBIDDEN");
  const found = await emailMessageDetail(ctx.actor.accountId, id);
  if (!found) throw new AppError("NOT_FOUND");
  const { account_id: _a, ...data } = found;
  return { data };
}

/**
 * One e-mail with its events, counts of opens and clicks, and what was sent, of one account, or with
 * `accountId` null of any account (only platform staff's history asks so, after its own check,
 * ./admin-reports.ts); null when there is no such e-mail.
 */
export async function emailMessageDetail(accountId: string | null, id: string): Promise<(EmailMessageDetail & { account_id: string }) | null> {
  if (!UUID.test(id)) return null;
  const found = await row<Row & { body: string; content: unknown; account_id: string }>(
    `SELECT ${COLUMNS}, body, content, account_id FROM messages WHERE id = $1 AND channel = 'email'${accountId ? " AND account_id = $2" : ""}`,
    accountId ? [id, accountId] : [id],
  );
  if (!found) return null;
  const events = await rows<EmailEvent & { payload: { error_code?: string | null; error_message?: string | null } }>(
    `SELECT status, source, created_at, payload FROM message_events WHERE message_id = $1 AND account_id = $2 ORDER BY created_at, id`,
    [id, found.account_id],
  );
  const { body, content, account_id, ...m } = found;
  // A campaign message holds only its variables: what was sent is rendered from its campaign (ADR 038).
  const sent = await renderEmail({ body, content });
  return {
    ...view(m),
    ...(typeof sent?.subject === "string" ? { subject: sent.subject } : {}),
    text: sent?.text ?? body,
    html: sent?.html ?? null,
    ...(await engagementCounts(id, account_id)),
    events: events.map(({ payload, ...e }) => ({ ...e, error_code: payload?.error_code ?? null, error_message: payload?.error_message ?? null })),
    account_id,
  };
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * An e-mail's HTML as one document to show inside a sandboxed frame: `<base target="_blank">` so
 * its links leave the frame; a message with only a text part is that text, escaped, in a <pre>.
 */
export function previewDocument(html: string | null, text: string): string {
  const base = '<base target="_blank">';
  if (!html)
    return `<!doctype html><html><head><meta charset="utf-8">${base}</head><body><pre style="white-space:pre-wrap;font-family:sans-serif">${escapeHtml(text)}</pre></body></html>`;
  if (/<head[^>]*>/i.test(html)) return html.replace(/<head[^>]*>/i, (m) => `${m}<meta charset="utf-8">${base}`);
  if (/<html[^>]*>/i.test(html)) return html.replace(/<html[^>]*>/i, (m) => `${m}<head><meta charset="utf-8">${base}</head>`);
  return `<!doctype html><html><head><meta charset="utf-8">${base}</head><body>${html}</body></html>`;
}

/**
 * The policy an e-mail preview is served under (GET /api/email/{id}/preview): a sandbox (no
 * script runs, a unique origin), nothing fetched but inline styles and images by https or data:
 * URLs, no form sent anywhere.
 */
export const PREVIEW_CSP =
  "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; font-src https: data:; form-action 'none'";

/** GET /api/email/{id}/preview, /mail/history/{id}: the message's subject and its content as one HTML document (previewDocument). 404 for another account's. */
export async function previewEmailMessage(ctx: SignedInCtx, id: string): Promise<{ subject: string; document: string }> {
  if (!can(ctx.actor, "/mail/history")) throw new AppError("FORBIDDEN");
  const found = UUID.test(id)
    ? await row<{ content: unknown; body: string }>(`SELECT content, body FROM messages WHERE id = $1 AND account_id = $2 AND channel = 'email'`, [id, ctx.actor.accountId])
    : null;
  if (!found) throw new AppError("NOT_FOUND");
  const sent = await renderEmail(found);
  return { subject: sent?.subject ?? "", document: previewDocument(sent?.html ?? null, sent?.text ?? found.body ?? "") };
}
