/**
 * WhatsApp figures (issue 16; spec section 2 /whatsapp/insights, /whatsapp/reports, /whatsapp/usage):
 * the SMS reports' queries (api/sms/reports.ts perDay, periodTotals, statPeriod, rangeSchema,
 * daysSchema) over the account's messages of channel 'whatsapp', over São Paulo days, plus what
 * only WhatsApp has: read receipts and Meta's pricing category of each message (marketing,
 * utility, authentication, service), recorded in the payload of its first system event by the
 * send (api/whatsapp/send.ts). Money is integer minor units of the account's currency.
 * Lag-tolerant reads (ADR 030).
 */
import type { SignedInCtx } from "../lib/context";
import { replicaRows as rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { accountCurrency, addDays, allow, type ChartDay, daysSchema, period, perDay, periodTotals, rangeSchema, statPeriod } from "../sms/reports";
import { saoPauloToday } from "../sms/history";

/** Meta's pricing categories, in display order (a message without one is a service message: text inside the window). */
export const WHATSAPP_CATEGORIES = ["marketing", "utility", "authentication", "service"] as const;
export type WhatsappCategory = (typeof WHATSAPP_CATEGORIES)[number];
export type CategoryRow = { category: WhatsappCategory; messages: number; cost: number };

/**
 * Outbound WhatsApp messages of a period per pricing category: count and cost. Messages refused
 * before sending (rejected, optout) are not usage and are left out. Bind: $1 account, $2 first day, $3 last day.
 */
export const CATEGORY_SQL = `SELECT coalesce(c.category, 'service') AS category, count(*) AS n, coalesce(sum(m.price), 0) AS cost
       FROM (SELECT id, created_at, account_id, price FROM messages
              WHERE ${period("whatsapp")} AND direction = 'outbound' AND status NOT IN ('rejected','optout')) m
       LEFT JOIN LATERAL (
         SELECT e.payload->>'category' AS category FROM message_events e
          WHERE e.message_id = m.id AND e.message_created_at = m.created_at AND e.account_id = m.account_id AND e.payload ? 'category'
          ORDER BY e.id LIMIT 1
       ) c ON true
      GROUP BY 1`;

async function byCategory(accountId: string, from: string, to: string): Promise<CategoryRow[]> {
  const found = await rows<{ category: string; n: string; cost: string }>(CATEGORY_SQL, [accountId, from, to]);
  const of = new Map(found.map((r) => [r.category, r]));
  return WHATSAPP_CATEGORIES.map((category) => ({ category, messages: Number(of.get(category)?.n ?? 0), cost: Number(of.get(category)?.cost ?? 0) }));
}

const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 10_000) / 10_000 : 0);
const sumOf = (list: CategoryRow[]) => list.reduce((t, r) => ({ messages: t.messages + r.messages, cost: t.cost + r.cost }), { messages: 0, cost: 0 });

export type WhatsappInsights = {
  days: number;
  from: string;
  to: string;
  currency: string;
  /** Outbound messages created in the period, whatever their status. */
  messages: number;
  /** Handed to Meta (sent_at set). */
  sent: number;
  /** Delivered or read. */
  delivered: number;
  read: number;
  failed: number;
  /** Refused before sending: rejected or opted out. */
  rejected: number;
  /** delivered / sent, read / delivered, failed / messages: 0..1 with 4 decimals, 0 when the divisor is 0. */
  delivery_rate: number;
  read_rate: number;
  failure_rate: number;
  cost: number;
  /** Inbound messages (the contacts' own). */
  received: number;
  /** Per São Paulo day: outbound messages per status and cost (the SMS charts' shape). */
  data: ChartDay[];
};

/** /whatsapp/insights: the last 7 or 30 São Paulo days (today included): totals, rates, cost, inbound, per day. */
export async function whatsappInsights(ctx: SignedInCtx, query: unknown = {}): Promise<WhatsappInsights> {
  allow(ctx, "/whatsapp/insights");
  const { days } = validate(daysSchema, query ?? {});
  const to = saoPauloToday();
  const from = addDays(to, -(days - 1));
  const [t, chart] = await Promise.all([periodTotals(ctx.actor.accountId, from, to, "whatsapp"), perDay(ctx.actor.accountId, from, to, "whatsapp")]);
  return {
    days,
    from,
    to,
    currency: chart.currency,
    messages: t.messages,
    sent: t.sent,
    delivered: t.delivered,
    read: t.read,
    failed: t.failed,
    rejected: t.rejected,
    delivery_rate: ratio(t.delivered, t.sent),
    read_rate: ratio(t.read, t.delivered),
    failure_rate: ratio(t.failed, t.messages),
    cost: t.cost,
    received: t.received,
    data: chart.data,
  };
}

export type WhatsappStat = Awaited<ReturnType<typeof perDay>> & { categories: CategoryRow[]; category_totals: { messages: number; cost: number } };

/** /whatsapp/reports: per São Paulo day of a period (default the last 7 days, at most 31): messages per status and cost, and per category. */
export async function whatsappStat(ctx: SignedInCtx, input: unknown = {}): Promise<WhatsappStat> {
  allow(ctx, "/whatsapp/reports");
  const { from, to } = statPeriod(input);
  const [days, categories] = await Promise.all([perDay(ctx.actor.accountId, from, to, "whatsapp"), byCategory(ctx.actor.accountId, from, to)]);
  return { ...days, categories, category_totals: sumOf(categories) };
}

export type WhatsappUsage = { from: string; to: string; currency: string; data: CategoryRow[]; totals: { messages: number; cost: number } };

/** /whatsapp/usage: a period's (default this month so far) outbound messages and cost per pricing category, in the account's currency. */
export async function whatsappUsage(ctx: SignedInCtx, input: unknown = {}): Promise<WhatsappUsage> {
  allow(ctx, "/whatsapp/usage");
  const { from, to } = validate(rangeSchema("month"), input ?? {});
  const [currency, data] = await Promise.all([accountCurrency(ctx.actor.accountId), byCategory(ctx.actor.accountId, from, to)]);
  return { from, to, currency, data, totals: sumOf(data) };
}

/** GET /api/whatsapp/messages/charts (spec's legacy path): per São Paulo day of the last 7 or 30 days, outbound messages per status and cost. */
export async function whatsappCharts(ctx: SignedInCtx, query: unknown = {}) {
  allow(ctx, "/whatsapp/insights");
  const { days } = validate(daysSchema, query ?? {});
  const to = saoPauloToday();
  return { days, ...(await perDay(ctx.actor.accountId, addDays(to, -(days - 1)), to, "whatsapp")) };
}
