/**
 * What the WhatsApp screens read besides the numbers (./numbers) and the templates list
 * (./templates) (issue 16; spec section 2 /whatsapp, /whatsapp/send, /whatsapp/history):
 *
 * - listWhatsappMessages (GET /api/whatsapp/messages, /whatsapp/history): the account's WhatsApp
 *   messages, both directions, of a date range of São Paulo days (at most 31, default today),
 *   filtered by id, status, sender and recipient — the SMS history's filters and their rules,
 *   parsed by its own schema (api/sms/history.ts smsHistorySchema) — newest first (created_at, id;
 *   `order=asc` oldest first), a keyset page of `limit` (api/lib/page.ts): {data, next_cursor}.
 *   The cursor must come back with the same filters. `integration` ("cloud" | "onprem") keeps the
 *   messages of that integration's numbers (the provider each message names). A lag-tolerant read (ADR 030).
 * - getWhatsappMessageDetail (/whatsapp/history/{id}): one message (./send getWhatsappMessage) with
 *   its direction and its events in order: queued, sent, delivered, read, failed with the
 *   provider's error code and message. On the primary: the person just sent it.
 * - countWhatsappTemplates (/whatsapp): the account's templates by status.
 * - sendableWhatsappTemplates (/whatsapp/send): the approved templates of one number with what a
 *   send must fill (the body's variables with their examples, the text header's variable, the
 *   URL button's variable), as acceptWhatsapp asks them. For everyone who may send — the templates
 *   screen itself is hidden from some roles, sending an approved template is not.
 * Every query is scoped by the acting account.
 */
import { whatsappProvider } from "../channels/whatsapp/adapter";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
// Lag-tolerant reads (ADR 030): the history list (replicaRows) runs on the read replica while it is healthy.
import { replicaRows, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can, decide, refusal } from "../policy/policy";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { saoPauloToday, smsHistorySchema } from "../sms/history";
import { historyKeysetPage, historyPageSql } from "../messages/history-query";
import { ownNumber } from "./numbers";
import { variablesOf } from "./schemas";
import { getWhatsappMessage, type WhatsappMessageView } from "./send";
import { TEMPLATE_STATUSES, type TemplateStatus } from "./templates";

export type WhatsappHistoryItem = {
  id: string;
  direction: "outbound" | "inbound";
  type: string;
  /** The number's phone number id (outbound) or the contact (inbound). */
  from: string;
  /** The contact, E.164 (outbound) or the number's phone number id (inbound). */
  to: string;
  body: string;
  status: string;
  price: number;
  currency: string;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  failed_at: Date | null;
};
type HistoryRow = Omit<WhatsappHistoryItem, "from" | "to" | "price"> & { sender: string; recipient: string; price: string; position: string };

const cursorSchema = z.object({ cursor: z.string().max(1000, "validation.invalid").optional() });
/** Only the messages of one integration's numbers (/whatsapp/jv/history: "onprem"): the provider each message names (whatsappProvider). */
const integrationSchema = z.object({ integration: z.enum(["cloud", "onprem"], "validation.option").optional() });

/** The account's WhatsApp messages of a range of São Paulo days, filtered, one keyset page: {data, next_cursor}. */
export async function listWhatsappMessages(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: WhatsappHistoryItem[]; next_cursor: string | null }> {
  if (!can(ctx.actor, "/whatsapp/history")) throw new AppError("FORBIDDEN");
  const page = await whatsappMessagePage(ctx.actor.accountId, input);
  return { ...page, data: page.data.map(({ account_id: _a, account_name: _n, ...m }) => m) };
}

/** A history row with its account: what platform staff's history lists (./admin-reports.ts). */
export type WhatsappHistoryRow = WhatsappHistoryItem & { account_id: string; account_name: string };

/**
 * listWhatsappMessages's query, for one account or, with `accountId` null, every account (only
 * platform staff's history calls it so, ./admin-reports.ts, after its own check, with `named`:
 * each row's account_name). Validates the input.
 */
export async function whatsappMessagePage(accountId: string | null, input: unknown = {}, named = false): Promise<{ data: WhatsappHistoryRow[]; next_cursor: string | null }> {
  const { cursor, page: _numbered, integration: integrationIn, ...filters } = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  // The SMS history's filters and rules (days, at most 31, statuses, E.164 recipient, limit); paging is this list's keyset.
  const q = validate(smsHistorySchema, filters);
  const { integration } = validate(integrationSchema, { integration: integrationIn === "" || integrationIn === null ? undefined : integrationIn });
  const after = timeIdCursor(validate(cursorSchema, { cursor: cursor === "" || cursor === null ? undefined : cursor }).cursor);
  const lte = q.created_at.lte || saoPauloToday();
  const gte = q.created_at.gte || lte;
  const desc = q.order !== "asc";

  // One channel's messages of the São Paulo days, filtered (api/messages/history-query.ts: $1 account, null for every account).
  const { sql, bind } = historyPageSql(
    { accountId, channel: "whatsapp", gte, lte, id: q.id, status: q.status, from: q.from, to: q.to, provider: integration ? whatsappProvider(integration) : null },
    `id, direction, type, sender, recipient, body, status, price, currency, error_code, error_message,
            created_at, sent_at, delivered_at, read_at, failed_at, ${POSITION_SQL("created_at")} AS position, account_id,
            ${named ? "(SELECT a.name FROM accounts a WHERE a.id = messages.account_id)" : "NULL"} AS account_name`,
    { after, desc, limit: q.limit },
  );
  const found = await replicaRows<HistoryRow & { account_id: string; account_name: string | null }>(sql, bind);
  return historyKeysetPage(found, q.limit);
}

export type WhatsappEvent = {
  status: string;
  source: "provider" | "system";
  created_at: Date;
  /** When the provider says it happened (its webhook's timestamp), for provider events. */
  occurred_at: string | null;
  error_code: string | null;
  error_message: string | null;
};
export type WhatsappMessageDetail = WhatsappMessageView & { direction: "outbound" | "inbound"; events: WhatsappEvent[] };

/** One WhatsApp message of the account with its events, oldest first; 404 for another account's or a non-WhatsApp message. */
export async function getWhatsappMessageDetail(ctx: SignedInCtx, id: string): Promise<{ data: WhatsappMessageDetail }> {
  const { data } = await getWhatsappMessage(ctx, id);
  const found = await row<{ direction: "outbound" | "inbound"; events: EventRow[] }>(
    `SELECT m.direction, ${EVENTS_SQL} AS events FROM messages m WHERE m.id = $1 AND m.account_id = $2 AND m.channel = 'whatsapp'`,
    [data.id, ctx.actor.accountId],
  );
  if (!found) throw new AppError("NOT_FOUND");
  return { data: { ...data, direction: found.direction, events: eventsOf(found.events) } };
}

/** A message's events, oldest first, as JSON (the message `m`; its partition's rows only, ADR 029). */
export const EVENTS_SQL = `COALESCE((SELECT json_agg(json_build_object('status', e.status, 'source', e.source, 'payload', e.payload, 'created_at', e.created_at) ORDER BY e.id)
                        FROM message_events e WHERE e.message_id = m.id AND e.message_created_at = m.created_at AND e.account_id = m.account_id), '[]')`;
export type EventRow = { status: string; source: "provider" | "system"; created_at: string; payload: Record<string, unknown> | null };

/** EVENTS_SQL's rows as the detail shows them: the provider's time, error code and message out of the payload. */
export function eventsOf(events: EventRow[]): WhatsappEvent[] {
  const text = (v: unknown) => (typeof v === "string" && v ? v : v === null || v === undefined ? null : String(v));
  return events.map((e) => ({
    status: e.status,
    source: e.source,
    created_at: new Date(e.created_at),
    occurred_at: text(e.payload?.occurred_at),
    error_code: text(e.payload?.error_code),
    error_message: text(e.payload?.error_message),
  }));
}

/** The account's templates by status (every status, 0 when none): the templates screen's own permission and plan gate. */
export async function countWhatsappTemplates(ctx: SignedInCtx): Promise<Record<TemplateStatus, number>> {
  const d = decide(ctx.actor, "/whatsapp/templates");
  if (!d.allowed) throw refusal(d);
  const found = await rows<{ status: TemplateStatus; n: number }>(`SELECT status, count(*)::int AS n FROM whatsapp_templates WHERE account_id = $1 GROUP BY status`, [
    ctx.actor.accountId,
  ]);
  const counts = Object.fromEntries(TEMPLATE_STATUSES.map((s) => [s, 0])) as Record<TemplateStatus, number>;
  for (const r of found) counts[r.status] = r.n;
  return counts;
}

export type SendableTemplate = {
  id: string;
  name: string;
  language: string;
  category: string;
  /** The body as Meta approved it, with {{1}}, {{2}}… */
  body: string;
  /** One example per body variable, in order (as submitted). */
  examples: string[];
  header: { format: string; text: string | null } | null;
  footer: string | null;
  /** The text header has a variable ({{1}}): the send must give `header_variable`. */
  header_variable: boolean;
  /** A URL button ends with a variable: the send must give `button_variable`. */
  button_variable: boolean;
  buttons: Array<{ type: string; text: string; url?: string; phone_number?: string }>;
};
type Component = {
  type?: string;
  format?: string;
  text?: string;
  example?: { body_text?: string[][] };
  buttons?: Array<{ type: string; text: string; url?: string; phone_number?: string }>;
};

/**
 * The approved templates of one of the account's numbers, by name: what the send screen offers.
 * One page (next_cursor null): Meta bounds a WhatsApp Business Account's templates to a few hundred.
 */
export async function sendableWhatsappTemplates(ctx: SignedInCtx, numberId: string): Promise<{ data: SendableTemplate[]; next_cursor: null }> {
  if (!can(ctx.actor, "/whatsapp/send")) throw new AppError("FORBIDDEN");
  const number = await ownNumber(ctx.actor.accountId, numberId);
  const found = await rows<{ id: string; name: string; language: string; category: string; components: Component[] }>(
    `SELECT id, name, language, category, components FROM whatsapp_templates
      WHERE account_id = $1 AND number_id = $2 AND status = 'approved' ORDER BY name, language`,
    [ctx.actor.accountId, number.id],
  );
  return {
    data: found.map((t) => {
      const part = (type: string) => (Array.isArray(t.components) ? t.components : []).find((c) => c.type === type);
      const header = part("HEADER");
      const body = part("BODY");
      const buttons = part("BUTTONS")?.buttons ?? [];
      return {
        id: t.id,
        name: t.name,
        language: t.language,
        category: t.category,
        body: body?.text ?? "",
        examples: body?.example?.body_text?.[0] ?? [],
        header: header ? { format: header.format ?? "TEXT", text: header.text ?? null } : null,
        footer: part("FOOTER")?.text ?? null,
        header_variable: header?.format === "TEXT" && variablesOf(header.text ?? "").length > 0,
        button_variable: buttons.some((b) => b.type === "URL" && variablesOf(b.url ?? "").length > 0),
        buttons: buttons.map((b) => ({ type: b.type, text: b.text, ...(b.url ? { url: b.url } : {}), ...(b.phone_number ? { phone_number: b.phone_number } : {}) })),
      };
    }),
    next_cursor: null,
  };
}
