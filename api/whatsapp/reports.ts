/**
 * WhatsApp figures (issue 16; spec section 2 /whatsapp/insights, /whatsapp/reports, /whatsapp/usage):
 * the SMS reports' queries (api/sms/reports.ts perDay, periodTotals, statPeriod, rangeSchema,
 * daysSchema) over the account's messages of channel 'whatsapp', over São Paulo days, plus what
 * only WhatsApp has: read receipts and Meta's pricing category of each message (marketing,
 * utility, authentication, service), recorded in the payload of its first system event by the
 * send (api/whatsapp/send.ts). Money is integer minor units of the account's currency.
 * Lag-tolerant reads (ADR 030).
 */
import { whatsappProvider } from "../channels/whatsapp/adapter";
import type { SignedInCtx } from "../lib/context";
import { replicaRows as rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import {
  accountCurrency,
  addDays,
  allow,
  type ChartDay,
  daysSchema,
  period,
  periodBind,
  type PeriodOptions,
  periodOptions,
  perDay,
  periodTotals,
  rangeSchema,
  type ReportScope,
  statPeriod,
} from "../sms/reports";
import { saoPauloToday } from "../sms/history";

/** Meta's pricing categories, in display order (a message without one is a service message: text inside the window). */
export const WHATSAPP_CATEGORIES = ["marketing", "utility", "authentication", "service"] as const;
export type WhatsappCategory = (typeof WHATSAPP_CATEGORIES)[number];
export type CategoryRow = { category: WhatsappCategory; messages: number; cost: number };

/**
 * Outbound WhatsApp messages of a period per pricing category and currency: count and cost.
 * Messages refused before sending (rejected, optout) are not usage and are left out. Bind: $1
 * account (null with `anyAccount`), $2 first day, $3 last day, $4 provider with `provider` (sms/reports.ts period).
 */
export const categorySql = (
  o: PeriodOptions = {},
) => `SELECT coalesce(c.category, 'service') AS category, trim(m.currency) AS currency, count(*) AS n, coalesce(sum(m.price), 0) AS cost
       FROM (SELECT id, created_at, account_id, price, currency FROM messages
              WHERE ${period("whatsapp", o)} AND direction = 'outbound' AND status NOT IN ('rejected','optout')) m
       LEFT JOIN LATERAL (
         SELECT e.payload->>'category' AS category FROM message_events e
          WHERE e.message_id = m.id AND e.message_created_at = m.created_at AND e.account_id = m.account_id AND e.payload ? 'category'
          ORDER BY e.id LIMIT 1
       ) c ON true
      GROUP BY 1, 2`;
export const CATEGORY_SQL = categorySql();

/** A scope's outbound WhatsApp messages of a period per category and currency (every category, in display order; a currency only where it has messages). */
export async function categoriesByCurrency(scope: ReportScope, from: string, to: string): Promise<Array<CategoryRow & { currency: string }>> {
  const found = await rows<{ category: string; currency: string; n: string; cost: string }>(categorySql(periodOptions(scope)), periodBind(scope, from, to));
  return WHATSAPP_CATEGORIES.flatMap((category) =>
    found.filter((r) => r.category === category).map((r) => ({ category, currency: r.currency, messages: Number(r.n), cost: Number(r.cost) })),
  );
}

/** One account's (one currency's) categories: each of them, 0 when none. */
async function byCategory(scope: ReportScope, from: string, to: string): Promise<CategoryRow[]> {
  const found = await categoriesByCurrency(scope, from, to);
  return WHATSAPP_CATEGORIES.map((category) => ({ category, ...sumOf(found.filter((r) => r.category === category)) }));
}

/** Which integration's numbers a report counts (/whatsapp/jv/reports: "onprem"), as the history's `integration`: the provider its messages name. */
const integrationSchema = z.object({ integration: z.enum(["cloud", "onprem"], "validation.option").optional() });
function scopeOf(ctx: SignedInCtx, input: unknown): ReportScope {
  const raw = (input && typeof input === "object" ? (input as Record<string, unknown>).integration : undefined) ?? undefined;
  const { integration } = validate(integrationSchema, { integration: raw === "" || raw === null ? undefined : raw });
  return { accountId: ctx.actor.accountId, ...(integration ? { provider: whatsappProvider(integration) } : {}) };
}

const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 10_000) / 10_000 : 0);
const sumOf = (list: Array<Pick<CategoryRow, "messages" | "cost">>) =>
  list.reduce((t, r) => ({ messages: t.messages + r.messages, cost: t.cost + r.cost }), { messages: 0, cost: 0 });

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

/** The insights' last 7 or 30 São Paulo days (today included) as asked ({days}). */
export function insightsPeriod(input: unknown) {
  const { days } = validate(daysSchema, input ?? {});
  const to = saoPauloToday();
  return { days, from: addDays(to, -(days - 1)), to };
}

/** The insights' figures out of a period's totals (sms/reports.ts periodTotals): counts and rates. */
export function insightFigures(t: Record<string, number>) {
  const n = (k: string) => t[k] ?? 0;
  return {
    messages: n("messages"),
    sent: n("sent"),
    delivered: n("delivered"),
    read: n("read"),
    failed: n("failed"),
    rejected: n("rejected"),
    delivery_rate: ratio(n("delivered"), n("sent")),
    read_rate: ratio(n("read"), n("delivered")),
    failure_rate: ratio(n("failed"), n("messages")),
    received: n("received"),
  };
}

/** /whatsapp/insights: the last 7 or 30 São Paulo days (today included): totals, rates, cost, inbound, per day. */
export async function whatsappInsights(ctx: SignedInCtx, query: unknown = {}): Promise<WhatsappInsights> {
  allow(ctx, "/whatsapp/insights");
  const { days, from, to } = insightsPeriod(query);
  const [t, chart] = await Promise.all([periodTotals({ accountId: ctx.actor.accountId }, from, to, "whatsapp"), perDay(ctx.actor.accountId, from, to, "whatsapp")]);
  return { days, from, to, currency: chart.currency, ...insightFigures(t), cost: t.cost ?? 0, data: chart.data };
}

export type WhatsappStat = Awaited<ReturnType<typeof perDay>> & { categories: CategoryRow[]; category_totals: { messages: number; cost: number } };

/**
 * /whatsapp/reports: per São Paulo day of a period (default the last 7 days, at most 31): messages
 * per status and cost, and per category. `integration` "onprem" (/whatsapp/jv/reports) keeps the
 * older integration's numbers' messages, as /whatsapp/jv/history does; without it every number's.
 */
export async function whatsappStat(ctx: SignedInCtx, input: unknown = {}): Promise<WhatsappStat> {
  const scope = scopeOf(ctx, input);
  allow(ctx, scope.provider === whatsappProvider("onprem") ? "/whatsapp/jv/reports" : "/whatsapp/reports");
  const { from, to } = statPeriod(input);
  const [days, categories] = await Promise.all([perDay(ctx.actor.accountId, from, to, "whatsapp", scope.provider), byCategory(scope, from, to)]);
  return { ...days, categories, category_totals: sumOf(categories) };
}

export type WhatsappUsage = { from: string; to: string; currency: string; data: CategoryRow[]; totals: { messages: number; cost: number } };

/** /whatsapp/usage: a period's (default this month so far) outbound messages and cost per pricing category, in the account's currency. */
export async function whatsappUsage(ctx: SignedInCtx, input: unknown = {}): Promise<WhatsappUsage> {
  allow(ctx, "/whatsapp/usage");
  const { from, to } = validate(rangeSchema("month"), input ?? {});
  const [currency, data] = await Promise.all([accountCurrency(ctx.actor.accountId), byCategory({ accountId: ctx.actor.accountId }, from, to)]);
  return { from, to, currency, data, totals: sumOf(data) };
}

/** GET /api/whatsapp/messages/charts (spec's legacy path): per São Paulo day of the last 7 or 30 days, outbound messages per status and cost. */
export async function whatsappCharts(ctx: SignedInCtx, query: unknown = {}) {
  allow(ctx, "/whatsapp/insights");
  const { days } = validate(daysSchema, query ?? {});
  const to = saoPauloToday();
  return { days, ...(await perDay(ctx.actor.accountId, addDays(to, -(days - 1)), to, "whatsapp")) };
}
