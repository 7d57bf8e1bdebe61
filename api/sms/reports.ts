/**
 * SMS figures for the dashboard and the reports (spec sections 2 and 7): per São Paulo day
 * counts (charts), carriers, insights (totals of a period), usage (messages, segments and cost per
 * day), the queue (messages waiting) and per-campaign counts. Every figure is counted from the
 * account's own `messages` rows (channel 'sms'; perDay, periodTotals and statPeriod also serve the
 * WhatsApp reports, api/whatsapp/reports.ts, and with a ReportScope of every account platform
 * staff's, api/whatsapp/admin-reports.ts), over São Paulo days: a day is
 * [00:00:00, 24:00:00) America/Sao_Paulo. Money is integer minor units of the account's currency.
 */
import { EMAIL_ONLY_STATUSES, MESSAGE_STATUSES } from "../../models/constants";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { keyset, pageInput } from "../lib/page";
import { POSITION_SQL, timeIdCursor } from "./cursor";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { HISTORY_MAX_DAYS, HISTORY_TIME_ZONE, saoPauloToday } from "./history";

const TZ = `'${HISTORY_TIME_ZONE}'`;
import { CHART_DAYS, channelLiteral, type ReportChannel, WAITING_STATUSES } from "./report-constants";
// Lag-tolerant reads (ADR 030): this module's queries run on the read replica while it is healthy.
import { replicaRows as rows } from "../lib/sql";

export { CHART_DAYS, WAITING_STATUSES, type ReportChannel };
/** Statuses counted per day and per campaign, in display order. */
export const REPORT_STATUSES = MESSAGE_STATUSES.filter((s) => s !== "read" && !(EMAIL_ONLY_STATUSES as readonly string[]).includes(s));

const DAY = /^\d{4}-\d{2}-\d{2}$/;
function isDay(v: string) {
  if (!DAY.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const dayDiff = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
/** Every day from `from` to `to`, both included. */
export const daysOf = (from: string, to: string) => Array.from({ length: dayDiff(from, to) + 1 }, (_, i) => addDays(from, i));

const optionalDay = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => (v ?? "").trim())
  .superRefine((v, ctx) => {
    if (v && !isDay(v)) ctx.addIssue({ code: "custom", message: "validation.date" });
  });

export type RangeDefault = "today" | "month" | "last30";

/** A period of São Paulo days {from, to} (YYYY-MM-DD), at most 31 days; missing ends take the default. */
export function rangeSchema(fallback: RangeDefault = "today") {
  return z
    .object({ from: optionalDay, to: optionalDay })
    .transform((v) => {
      const to = v.to || saoPauloToday();
      const from = v.from || (fallback === "month" ? `${to.slice(0, 8)}01` : fallback === "last30" ? addDays(to, -29) : to);
      return { from, to };
    })
    .superRefine((v, ctx) => {
      if (!isDay(v.from) || !isDay(v.to)) return;
      const span = dayDiff(v.from, v.to);
      if (span < 0) ctx.addIssue({ code: "custom", path: ["to"], message: "validation.invalid" });
      else if (span + 1 > HISTORY_MAX_DAYS) ctx.addIssue({ code: "custom", path: ["to"], message: `validation.maxRange::${HISTORY_MAX_DAYS}` });
    });
}

export const daysSchema = z.object({
  days: z
    .union([z.string(), z.number(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const n = v === undefined || v === null || v === "" ? 7 : Number(v);
      if (!(CHART_DAYS as readonly number[]).includes(n)) ctx.addIssue({ code: "custom", message: "validation.option" });
      return n as (typeof CHART_DAYS)[number];
    }),
});

export function allow(ctx: SignedInCtx, path: string) {
  if (!can(ctx.actor, path)) throw new AppError("FORBIDDEN");
}

type StatusCounts = Partial<Record<string, number>>;
export type ChartDay = { day: string; total: number; segments: number; cost: number; statuses: StatusCounts };
export type Charts = { days: number; from: string; to: string; currency: string; data: ChartDay[]; totals: Omit<ChartDay, "day"> };

/** The account's currency (ISO 4217): every price and cost of its messages is in its minor units. */
export async function accountCurrency(accountId: string): Promise<string> {
  const [account] = await rows<{ currency: string }>(`SELECT currency FROM accounts WHERE id = $1`, [accountId]);
  return (account?.currency ?? "BRL").trim();
}

/** Per São Paulo day of the last `days` (7 or 30, today included): messages per status, segments and cost (outbound). */
export async function smsCharts(ctx: SignedInCtx, query: unknown = {}): Promise<Charts> {
  allow(ctx, "/sms/dashboard");
  const { days } = validate(daysSchema, query);
  const to = saoPauloToday();
  const from = addDays(to, -(days - 1));
  return { days, ...(await perDay(ctx.actor.accountId, from, to)) };
}

/**
 * The report queries over a period, exported so tests/integration/partitions.test.ts can EXPLAIN the
 * very SQL: each bounds created_at by the period's São Paulo days, so only that period's monthly
 * partitions are scanned (ADR 029). Bind: $1 account, $2 first day, $3 last day.
 */
/**
 * Whose messages a report counts: one account's, or, for platform staff only, every account's
 * (`accountId` null: api/whatsapp/admin-reports.ts); `provider` keeps the messages one provider
 * sent (/whatsapp/jv/reports: the older integration's numbers, ADR 035).
 */
export type ReportScope = { accountId: string | null; provider?: string };
/** How `period` reads its binds: $1 null for every account, $4 the provider. */
export type PeriodOptions = { anyAccount?: boolean; provider?: boolean };
export const periodOptions = (scope: ReportScope): PeriodOptions => ({ anyAccount: scope.accountId === null, provider: Boolean(scope.provider) });
/** The binds of `period(channel, periodOptions(scope))`. */
export const periodBind = (scope: ReportScope, from: string, to: string): unknown[] => [scope.accountId, from, to, ...(scope.provider ? [scope.provider] : [])];

/**
 * A period's messages of one channel (bind $1 account, $2 first day, $3 last day; with `provider`,
 * $4 the provider). `anyAccount`: $1 is null and every account counts (platform staff's reports).
 */
export const period = (channel: ReportChannel, o: PeriodOptions = {}) =>
  `${o.anyAccount ? "$1::uuid IS NULL" : "account_id = $1"} AND channel = '${channelLiteral(channel)}' AND created_at >= ($2::date)::timestamp AT TIME ZONE ${TZ} AND created_at < ($3::date + 1)::timestamp AT TIME ZONE ${TZ}${o.provider ? " AND provider = $4" : ""}`;
export const perDaySql = (
  channel: ReportChannel,
  o: PeriodOptions = {},
) => `SELECT to_char((created_at AT TIME ZONE ${TZ})::date, 'YYYY-MM-DD') AS day, status, count(*) AS n, sum(segments) AS segments, sum(price) AS cost
       FROM messages
      WHERE ${period(channel, o)} AND direction = 'outbound'
      GROUP BY 1, 2`;
export const PER_DAY_SQL = perDaySql("sms");
export const CARRIERS_SQL = `SELECT carrier, count(*) AS total,
            count(*) FILTER (WHERE status IN ('delivered','read')) AS delivered,
            count(*) FILTER (WHERE status = 'failed') AS failed,
            count(*) FILTER (WHERE status = 'unavailable') AS unavailable
       FROM messages
      WHERE ${period("sms")} AND direction = 'outbound'
      GROUP BY carrier
      ORDER BY count(*) DESC, carrier NULLS LAST`;
export const insightsTotalsSql = (channel: ReportChannel, o: PeriodOptions = {}) => `SELECT count(*) FILTER (WHERE direction = 'outbound') AS messages,
              count(*) FILTER (WHERE direction = 'outbound' AND sent_at IS NOT NULL) AS sent,
              count(*) FILTER (WHERE direction = 'outbound' AND status IN ('delivered','read')) AS delivered,
              count(*) FILTER (WHERE direction = 'outbound' AND status = 'read') AS read,
              count(*) FILTER (WHERE direction = 'outbound' AND status = 'failed') AS failed,
              count(*) FILTER (WHERE direction = 'outbound' AND status = 'unavailable') AS unavailable,
              count(*) FILTER (WHERE direction = 'outbound' AND status IN ('rejected','optout')) AS rejected,
              count(*) FILTER (WHERE direction = 'outbound' AND status IN ('scheduled','pending','queued','sending')) AS waiting,
              coalesce(sum(segments) FILTER (WHERE direction = 'outbound'), 0) AS segments,
              coalesce(sum(price) FILTER (WHERE direction = 'outbound'), 0) AS cost,
              count(*) FILTER (WHERE direction = 'inbound') AS received
         FROM messages WHERE ${period(channel, o)}`;
export const INSIGHTS_TOTALS_SQL = insightsTotalsSql("sms");
export const INSIGHTS_ERRORS_SQL = `SELECT error_code, count(*) AS n FROM messages WHERE ${period("sms")} AND direction = 'outbound' AND error_code IS NOT NULL
        GROUP BY error_code ORDER BY count(*) DESC, error_code LIMIT 5`;

/** The totals of a period of one channel's messages of a scope (insightsTotalsSql's columns as numbers). */
export async function periodTotals(scope: ReportScope, from: string, to: string, channel: ReportChannel): Promise<Record<string, number>> {
  const [t] = await rows<Record<string, string | null>>(insightsTotalsSql(channel, periodOptions(scope)), periodBind(scope, from, to));
  return Object.fromEntries(Object.entries(t ?? {}).map(([k, v]) => [k, Number(v ?? 0)]));
}

/** Per São Paulo day of a period, one channel's outbound messages of an account: per status, segments and cost (its currency), with totals. */
export async function perDay(accountId: string, from: string, to: string, channel: ReportChannel = "sms", provider?: string) {
  const [currency, days] = await Promise.all([accountCurrency(accountId), perDayOf({ accountId, provider }, from, to, channel)]);
  return { from, to, currency, ...days };
}

/** perDay without the currency, for any ReportScope (every account's costs add up different currencies: platform staff's reports read the counts only). */
export async function perDayOf(scope: ReportScope, from: string, to: string, channel: ReportChannel) {
  const found = await rows<{ day: string; status: string; n: string; segments: string; cost: string }>(perDaySql(channel, periodOptions(scope)), periodBind(scope, from, to));
  const byDay = new Map(daysOf(from, to).map((d) => [d, { day: d, total: 0, segments: 0, cost: 0, statuses: {} as StatusCounts }]));
  const totals = { total: 0, segments: 0, cost: 0, statuses: {} as StatusCounts };
  for (const r of found) {
    const d = byDay.get(r.day);
    if (!d) continue;
    for (const t of [d, totals]) {
      t.total += Number(r.n);
      t.segments += Number(r.segments);
      t.cost += Number(r.cost);
      t.statuses[r.status] = (t.statuses[r.status] ?? 0) + Number(r.n);
    }
  }
  return { data: [...byDay.values()], totals };
}

export type CarrierRow = { carrier: string | null; total: number; delivered: number; failed: number; unavailable: number; delivery_rate: number };

/** Outbound messages of the last `days` per carrier (as the provider's receipt named it; null = not known yet). */
export async function smsCarriers(ctx: SignedInCtx, query: unknown = {}): Promise<{ days: number; from: string; to: string; data: CarrierRow[] }> {
  allow(ctx, "/sms/dashboard");
  const { days } = validate(daysSchema, query);
  const to = saoPauloToday();
  const from = addDays(to, -(days - 1));
  return { days, from, to, data: await carriersOf(ctx.actor.accountId, from, to) };
}

async function carriersOf(accountId: string, from: string, to: string): Promise<CarrierRow[]> {
  const found = await rows<{ carrier: string | null; total: string; delivered: string; failed: string; unavailable: string }>(CARRIERS_SQL, [accountId, from, to]);
  return found.map((r) => {
    const finals = Number(r.delivered) + Number(r.failed) + Number(r.unavailable);
    return {
      carrier: r.carrier,
      total: Number(r.total),
      delivered: Number(r.delivered),
      failed: Number(r.failed),
      unavailable: Number(r.unavailable),
      delivery_rate: finals ? Math.round((Number(r.delivered) / finals) * 10_000) / 10_000 : 0,
    };
  });
}

export type Insights = {
  from: string;
  to: string;
  /** Outbound messages created in the period, whatever their status. */
  messages: number;
  /** Handed to a provider (sent_at set). */
  sent: number;
  delivered: number;
  failed: number;
  unavailable: number;
  /** Refused before sending: rejected or opted out. */
  rejected: number;
  /** Still waiting: scheduled, pending, queued or sending. */
  waiting: number;
  /** delivered / (delivered + failed + unavailable), 0..1 with 4 decimals; 0 when none is final. */
  delivery_rate: number;
  segments: number;
  cost: number;
  currency: string;
  received: number;
  top_errors: Array<{ error_code: string; count: number }>;
  carriers: CarrierRow[];
};

/** POST /api/sms/insights: totals of a period of São Paulo days (default today, at most 31 days). */
export async function smsInsights(ctx: SignedInCtx, input: unknown = {}): Promise<Insights> {
  allow(ctx, "/sms/insights");
  const { from, to } = validate(rangeSchema("today"), input ?? {});
  const bind = [ctx.actor.accountId, from, to];
  const [t, errors, currency, carriers] = await Promise.all([
    periodTotals({ accountId: ctx.actor.accountId }, from, to, "sms"),
    rows<{ error_code: string; n: string }>(INSIGHTS_ERRORS_SQL, bind),
    accountCurrency(ctx.actor.accountId),
    carriersOf(ctx.actor.accountId, from, to),
  ]);
  const n = (k: string) => t[k] ?? 0;
  const finals = n("delivered") + n("failed") + n("unavailable");
  return {
    from,
    to,
    messages: n("messages"),
    sent: n("sent"),
    delivered: n("delivered"),
    failed: n("failed"),
    unavailable: n("unavailable"),
    rejected: n("rejected"),
    waiting: n("waiting"),
    delivery_rate: finals ? Math.round((n("delivered") / finals) * 10_000) / 10_000 : 0,
    segments: n("segments"),
    cost: n("cost"),
    currency,
    received: n("received"),
    top_errors: errors.map((e) => ({ error_code: e.error_code, count: Number(e.n) })),
    carriers,
  };
}

export type Usage = {
  from: string;
  to: string;
  currency: string;
  data: Array<{ day: string; messages: number; segments: number; cost: number }>;
  totals: { messages: number; segments: number; cost: number };
};

/** Per São Paulo day of a period (default: this month so far): outbound messages, segments and cost. */
export const smsUsage = (ctx: SignedInCtx, input: unknown = {}) => usageOf(ctx, input, "sms", "/sms/usage");

/** A channel's usage screen (`screen`, the policy's path; e-mail's is /mail/usage): the account's outbound messages, segments and cost per São Paulo day of a period (default: this month so far). */
export async function usageOf(ctx: SignedInCtx, input: unknown, channel: ReportChannel, screen: string): Promise<Usage> {
  allow(ctx, screen);
  const { from, to } = validate(rangeSchema("month"), input ?? {});
  const days = await perDay(ctx.actor.accountId, from, to, channel);
  return {
    from,
    to,
    currency: days.currency,
    data: days.data.map((d) => ({ day: d.day, messages: d.total, segments: d.segments, cost: d.cost })),
    totals: { messages: days.totals.total, segments: days.totals.segments, cost: days.totals.cost },
  };
}

export type QueueView = {
  counts: Record<(typeof WAITING_STATUSES)[number], number>;
  /** `from`/`to` are the spec's names; `sender`/`recipient` stay as aliases. */
  oldest: Array<{
    id: string;
    status: string;
    from: string;
    to: string;
    sender: string;
    recipient: string;
    segments: number;
    created_at: Date;
    scheduled_at: Date | null;
    campaign_id: string | null;
  }>;
};

/** Messages not yet handed to a provider: counts per waiting status and the 20 that wait longest. */
export async function smsQueue(ctx: SignedInCtx): Promise<QueueView> {
  allow(ctx, "/sms/queue");
  const bind = [ctx.actor.accountId, [...WAITING_STATUSES]];
  const [counts, oldest] = await Promise.all([
    rows<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM messages WHERE account_id = $1 AND channel = 'sms' AND status = ANY($2::text[]) GROUP BY status`, bind),
    rows<Omit<QueueView["oldest"][number], "from" | "to">>(
      `SELECT id, status, sender, recipient, segments, created_at, scheduled_at, campaign_id FROM messages
        WHERE account_id = $1 AND channel = 'sms' AND status = ANY($2::text[])
        ORDER BY coalesce(scheduled_at, created_at), id LIMIT 20`,
      bind,
    ),
  ]);
  const c = Object.fromEntries(WAITING_STATUSES.map((s) => [s, 0])) as QueueView["counts"];
  for (const r of counts) c[r.status as keyof QueueView["counts"]] = Number(r.n);
  return { counts: c, oldest: oldest.map((m) => ({ ...m, from: m.sender, to: m.recipient })) };
}

export type CampaignReportRow = { id: string; name: string; status: string; total: number; messages: number; statuses: StatusCounts; cost: number; created_at: Date };

const campaignPageSchema = z.object(pageInput);

/**
 * Campaigns created in a period (default the last 30 days) with their messages counted per status,
 * newest first (created_at, id), `limit` a page (default 50, at most 200) after `cursor`.
 */
export const smsCampaignReport = (ctx: SignedInCtx, input: unknown = {}) => campaignReportOf(ctx, input, "sms", "/sms/reports/campaign");

export type CampaignReport = { from: string; to: string; currency: string; data: CampaignReportRow[]; next_cursor: string | null };

/** smsCampaignReport for a channel's campaigns (rows of the same `campaigns` table; e-mail's on /mail/reports); `fallback` the period's default. */
export async function campaignReportOf(ctx: SignedInCtx, input: unknown, channel: ReportChannel, screen: string, fallback: RangeDefault = "last30"): Promise<CampaignReport> {
  allow(ctx, screen);
  const { from, to } = validate(rangeSchema(fallback), input ?? {});
  const { limit, cursor } = validate(campaignPageSchema, input ?? {});
  // The position of the last row shown: its created_at to the microsecond and its id.
  const after = timeIdCursor(cursor);
  const found = await rows<{
    id: string;
    name: string;
    status: string;
    total: number;
    created_at: Date;
    position: string;
    counts: Record<string, number> | null;
    cost: string | null;
  }>(
    `SELECT c.id, c.name, c.status, c.total, c.created_at, m.counts, m.cost,
            ${POSITION_SQL("c.created_at")} AS position
       FROM campaigns c
       LEFT JOIN LATERAL (
         SELECT jsonb_object_agg(status, n) AS counts, sum(cost) AS cost
           FROM (SELECT status, count(*) AS n, sum(price) AS cost FROM messages WHERE campaign_id = c.id AND account_id = $1 GROUP BY status) s
       ) m ON true
      WHERE c.account_id = $1 AND c.channel = '${channelLiteral(channel)}'
        AND c.created_at >= ($2::date)::timestamp AT TIME ZONE ${TZ} AND c.created_at < ($3::date + 1)::timestamp AT TIME ZONE ${TZ}
        ${after ? "AND (c.created_at, c.id) < ($5::timestamptz, $6::uuid)" : ""}
      ORDER BY c.created_at DESC, c.id DESC
      LIMIT $4`,
    [ctx.actor.accountId, from, to, limit + 1, ...(after ? [after[0], after[1]] : [])],
  );
  const page = keyset(
    found,
    limit,
    (r) => [r.position, r.id],
    (r): CampaignReportRow => {
      const statuses = r.counts ?? {};
      return {
        id: r.id,
        name: r.name,
        status: r.status,
        total: r.total,
        created_at: r.created_at,
        statuses,
        cost: Number(r.cost ?? 0),
        messages: Object.values(statuses).reduce((a, b) => a + Number(b), 0),
      };
    },
  );
  return { from, to, currency: await accountCurrency(ctx.actor.accountId), ...page };
}

/** The statistics report: per São Paulo day of a period (default the last 7 days), messages per status, segments and cost. */
export async function smsStat(ctx: SignedInCtx, input: unknown = {}): Promise<Omit<Charts, "days">> {
  allow(ctx, "/sms/reports/stat");
  const { from, to } = statPeriod(input);
  return perDay(ctx.actor.accountId, from, to);
}

/** The statistics' period: {from, to} as given, else the last 7 days (today included), at most 31 days. */
export function statPeriod(input: unknown) {
  const raw = (input ?? {}) as { from?: string; to?: string };
  return validate(rangeSchema("today"), { from: raw.from || (raw.to ? undefined : addDays(saoPauloToday(), -6)), to: raw.to });
}
