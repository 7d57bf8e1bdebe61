/**
 * What the RCS history screens read (issue 21; spec section 2 /rcs/history, /rcs/history/{id}):
 *
 * - listRcsMessages (GET /api/rcs/messages, /rcs/history): the account's RCS messages, both
 *   directions, of a range of São Paulo days (at most 31, default today), filtered by status,
 *   handset (`to`: the recipient of an outbound message, the sender of an inbound one) and content
 *   type — the SMS history's rules for days, statuses and phones (api/sms/history.ts
 *   smsHistorySchema) — newest first, a keyset page of `limit`: {data, next_cursor}. Each row
 *   names its agent and, when an SMS stood in for it (a handset not RCS-capable, ADR 055), that
 *   leg's status and price (`fallback`). The SMS legs themselves are channel 'sms' and are not
 *   listed here. A lag-tolerant read (ADR 030).
 * - getRcsMessageDetail (/rcs/history/{id}): one message (./send getRcsMessage) with its agent's
 *   brand (the preview's header), its status events in order, the SMS fallback leg's events, and
 *   what the handset sent the agent after it (suggestion taps and replies arrive as inbound RCS
 *   messages of that handset). On the primary: the person may have just sent it.
 * Every query is scoped by the acting account.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { keyset } from "../lib/page";
import { replicaRows, row } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { historyWhere } from "../messages/history-query";
import { can } from "../policy/policy";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { saoPauloToday, smsHistorySchema } from "../sms/history";
import { EVENTS_SQL, eventsOf, type EventRow, type WhatsappEvent } from "../whatsapp/history";
import { RCS_TYPES } from "./content";
import { getRcsMessage, type RcsMessageView } from "./send";

export type RcsFallbackLeg = { id: string; status: string; price: number; currency: string };

export type RcsHistoryItem = {
  id: string;
  direction: "outbound" | "inbound";
  type: string;
  /** The agent of the message (outbound: its sender; inbound: its recipient), when it is still the account's. */
  agent_id: string | null;
  agent_name: string | null;
  /** The agent's Google id (outbound) or the handset (inbound). */
  from: string;
  /** The handset (outbound) or the agent's Google id (inbound). */
  to: string;
  body: string;
  status: string;
  price: number;
  currency: string;
  price_class: string | null;
  error_code: string | null;
  created_at: Date;
  fallback: RcsFallbackLeg | null;
};

const extraSchema = z.object({
  type: z.enum(RCS_TYPES, "validation.option").optional(),
  direction: z.enum(["outbound", "inbound"], "validation.option").optional(),
  cursor: z.string().max(1000, "validation.invalid").optional(),
});
const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

type Row = Omit<RcsHistoryItem, "from" | "to" | "price"> & { sender: string; recipient: string; price: string; position: string };

/** The account's RCS messages of a range of São Paulo days, filtered, one keyset page: {data, next_cursor}. */
export async function listRcsMessages(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: RcsHistoryItem[]; next_cursor: string | null }> {
  if (!can(ctx.actor, "/rcs/history")) throw new AppError("FORBIDDEN");
  const { cursor, type, direction, to, page: _numbered, ...filters } = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  // The SMS history's rules for days (at most 31), statuses, the phone and the limit; `to` is checked there and matched on the handset here.
  const q = validate(smsHistorySchema, { ...filters, to });
  const extra = validate(extraSchema, { type: blankToUndefined(type), direction: blankToUndefined(direction), cursor: blankToUndefined(cursor) });
  const after = timeIdCursor(extra.cursor);
  const lte = q.created_at.lte || saoPauloToday();
  const gte = q.created_at.gte || lte;
  const desc = q.order !== "asc";

  const { where, bind, add } = historyWhere({ accountId: ctx.actor.accountId, channel: "rcs", gte, lte, id: q.id, status: q.status });
  if (q.to) add((n) => `(CASE WHEN direction = 'outbound' THEN recipient ELSE sender END) = ${n}`, q.to);
  if (extra.type) add((n) => `type = ${n}`, extra.type);
  if (extra.direction) add((n) => `direction = ${n}`, extra.direction);
  if (after) {
    bind.push(after[0], after[1]);
    where.push(`(created_at, id) ${desc ? "<" : ">"} ($${bind.length - 1}::timestamptz, $${bind.length}::uuid)`);
  }
  bind.push(q.limit + 1);
  const dir = desc ? "DESC" : "ASC";
  const found = await replicaRows<Row>(
    `SELECT m.id, m.direction, m.type, m.sender, m.recipient, m.body, m.status, m.price, m.currency, m.route AS price_class, m.error_code, m.created_at, m.position,
            g.id AS agent_id, g.name AS agent_name,
            (SELECT json_build_object('id', f.id, 'status', f.status, 'price', f.price::int, 'currency', trim(f.currency))
               FROM messages f WHERE f.account_id = m.account_id AND f.fallback_of = m.id LIMIT 1) AS fallback
       FROM (SELECT id, account_id, direction, type, sender, recipient, body, status, price, currency, route, error_code, created_at, ${POSITION_SQL("created_at")} AS position
               FROM messages WHERE ${where.join(" AND ")} ORDER BY created_at ${dir}, id ${dir} LIMIT $${bind.length}) m
       LEFT JOIN rcs_agents g ON g.account_id = m.account_id AND g.rbm_agent_id = (CASE WHEN m.direction = 'outbound' THEN m.sender ELSE m.recipient END)
      ORDER BY m.created_at ${dir}, m.id ${dir}`,
    bind,
  );
  return keyset(
    found,
    q.limit,
    (r) => [r.position, r.id],
    ({ position: _p, sender, recipient, price, currency, ...m }) => ({ ...m, from: sender, to: recipient, price: Number(price), currency: currency.trim() }),
  );
}

export type RcsAgentBrand = { id: string; name: string; logo_url: string; color: string };
export type RcsHandsetMessage = { id: string; body: string; content: Record<string, unknown> | null; created_at: Date };
export type RcsMessageDetail = RcsMessageView & {
  agent: RcsAgentBrand | null;
  events: WhatsappEvent[];
  fallback_events: WhatsappEvent[];
  /** What the handset sent this agent after the message (taps on its suggestions arrive as inbound messages), oldest first, at most 20. */
  responses: RcsHandsetMessage[];
};

/** One RCS message of the account with its agent, events, SMS leg's events and the handset's answers; 404 for another account's or a non-RCS message. */
export async function getRcsMessageDetail(ctx: SignedInCtx, id: string): Promise<{ data: RcsMessageDetail }> {
  const { data } = await getRcsMessage(ctx, id);
  const found = await row<{ agent: RcsAgentBrand | null; events: EventRow[]; fallback_events: EventRow[]; responses: RcsHandsetMessage[] }>(
    `SELECT (SELECT json_build_object('id', g.id, 'name', g.name, 'logo_url', g.logo_url, 'color', trim(g.color)) FROM rcs_agents g
              WHERE g.account_id = m.account_id AND g.rbm_agent_id = (CASE WHEN m.direction = 'outbound' THEN m.sender ELSE m.recipient END)) AS agent,
            ${EVENTS_SQL} AS events,
            COALESCE((SELECT ${EVENTS_SQL.replace(/\bm\./g, "f.")} FROM messages f WHERE f.account_id = m.account_id AND f.fallback_of = m.id LIMIT 1), '[]') AS fallback_events,
            COALESCE((SELECT json_agg(json_build_object('id', r.id, 'body', r.body, 'content', r.content, 'created_at', r.created_at) ORDER BY r.created_at)
                        FROM (SELECT id, body, content, created_at FROM messages r
                               WHERE m.direction = 'outbound' AND r.account_id = m.account_id AND r.channel = 'rcs' AND r.direction = 'inbound'
                                 AND r.sender = m.recipient AND r.recipient = m.sender AND r.created_at > m.created_at AND r.created_at < m.created_at + interval '30 days'
                               ORDER BY r.created_at LIMIT 20) r), '[]') AS responses
       FROM messages m WHERE m.id = $1 AND m.account_id = $2 AND m.channel = 'rcs'`,
    [data.id, ctx.actor.accountId],
  );
  if (!found) throw new AppError("NOT_FOUND");
  return {
    data: {
      ...data,
      agent: found.agent,
      events: eventsOf(found.events),
      fallback_events: eventsOf(found.fallback_events),
      responses: found.responses.map((r) => ({ ...r, created_at: new Date(r.created_at) })),
    },
  };
}
