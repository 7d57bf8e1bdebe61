/**
 * Platform-wide SMS figures (issue 23; spec section 2 /admin/sms/reports, /admin/sms/dashboard,
 * /admin/sms/sales; section 7 POST /admin/sms/insights): every account's outbound SMS (or a
 * reseller's customers', ./scope.ts), counted from the `messages` rows of a period of São Paulo
 * days (at most 31) as the customer reports are (api/sms/reports.ts). The period bounds created_at,
 * so only its monthly partitions are read (ADR 029), and the BRIN index of migration 0081 keeps a
 * short window (today) to its blocks. Lag-tolerant reads on the replica (ADR 030).
 *
 * Money: integer minor units of the account's currency; a figure over many accounts is one amount
 * per currency. Revenue is the customer price of the messages the account was charged for and not
 * refunded: every outbound message except those refused before sending (rejected, optout) and
 * those that failed before the provider took them (sent_at unset: the dispatcher refunds them).
 * Sales adds the provider's cost and the margin for platform staff (ADR 070): see adminSmsSales.
 */
import type { SignedInCtx } from "../lib/context";
import { replicaRows as rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { addMoney, type Money } from "../messages/admin-reports";
import { HISTORY_TIME_ZONE, saoPauloToday } from "../sms/history";
import { addDays, daysOf, statPeriod } from "../sms/reports";
import { accountInReach, type Reach, reachOf, type ScopedAccount, scopeSql } from "./scope";

export type { Money };
const TZ = `'${HISTORY_TIME_ZONE}'`;
const ROUTES = ["T1", "T2", "T4", "T6"] as const;
/** Outbound SMS of $3..$4 (São Paulo days, both included) in the scope ($1 reseller, $2 account). */
const PERIOD = `m.channel = 'sms' AND m.direction = 'outbound' AND ${scopeSql()}
  AND m.created_at >= ($3::date)::timestamp AT TIME ZONE ${TZ} AND m.created_at < ($4::date + 1)::timestamp AT TIME ZONE ${TZ}`;
/** Charged and not refunded (see the header). */
export const CHARGED_SQL = `(m.status NOT IN ('rejected','optout') AND NOT (m.status IN ('failed','unavailable') AND m.sent_at IS NULL))`;
const DAY_SQL = `to_char((m.created_at AT TIME ZONE ${TZ})::date, 'YYYY-MM-DD')`;
/** How many customers the per-customer tables list (the most messages, or revenue, first). */
export const TOP_CUSTOMERS = 50;

const filterSchema = z.object({
  route: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim())
    .superRefine((v, ctx) => {
      if (v && !(ROUTES as readonly string[]).includes(v)) ctx.addIssue({ code: "custom", message: "validation.option" });
    }),
  provider: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim())
    .superRefine((v, ctx) => {
      if (v && !/^[a-z][a-z0-9_-]{1,40}$/.test(v)) ctx.addIssue({ code: "custom", message: "validation.invalid" });
    }),
  status: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim())
    .superRefine((v, ctx) => {
      if (v && !/^[a-z_]{2,20}$/.test(v)) ctx.addIssue({ code: "custom", message: "validation.option" });
    }),
});
export type ReportFilters = { route: string | null; provider: string | null; status: string | null };
const FILTER_SQL = `AND ($5::text IS NULL OR m.route = $5) AND ($6::text IS NULL OR m.provider = $6) AND ($7::text IS NULL OR m.status = $7)`;

type Figures = { messages: number; segments: number; sent: number; delivered: number; failed: number; delivery_rate: number };
const FIGURES_SQL = `count(*) AS messages, coalesce(sum(m.segments), 0) AS segments,
  count(*) FILTER (WHERE m.sent_at IS NOT NULL) AS sent,
  count(*) FILTER (WHERE m.status IN ('delivered','read')) AS delivered,
  count(*) FILTER (WHERE m.status IN ('failed','unavailable')) AS failed,
  coalesce(sum(m.price) FILTER (WHERE ${CHARGED_SQL}), 0) AS revenue`;
type FigureRow = { messages: string; segments: string; sent: string; delivered: string; failed: string; revenue: string; currency: string };
/** delivered / sent, 0..1, 4 decimals (0 when nothing was sent). */
const rate = (delivered: number, sent: number) => (sent > 0 ? Math.round((delivered / sent) * 10_000) / 10_000 : 0);
function figuresOf(list: FigureRow[]): Figures & { revenue: Money[] } {
  const n = (k: keyof FigureRow) => list.reduce((s, r) => s + Number(r[k]), 0);
  const sent = n("sent");
  const delivered = n("delivered");
  return {
    messages: n("messages"),
    segments: n("segments"),
    sent,
    delivered,
    failed: n("failed"),
    delivery_rate: rate(delivered, sent),
    revenue: addMoney(list.map((r) => ({ currency: r.currency.trim(), amount: Number(r.revenue) }))),
  };
}

export type StatusRow = { status: string; messages: number };
export type RouteRow = Figures & { route: string | null; provider: string | null; revenue: Money[] };
export type CustomerRow = Figures & { account: { id: string; name: string }; currency: string; revenue: number };
export type AdminSmsReport = Figures & {
  from: string;
  to: string;
  account: ScopedAccount | null;
  filters: ReportFilters;
  revenue: Money[];
  statuses: StatusRow[];
  routes: RouteRow[];
  /** The customers with the most messages (at most TOP_CUSTOMERS). */
  customers: CustomerRow[];
  /** Whether the figures are every account's (platform staff) or a reseller's customers'. */
  reach: "platform" | "reseller";
};

async function periodOf(ctx: SignedInCtx, screen: "reports" | "sales", input: unknown) {
  const reach = reachOf(ctx, screen);
  const { from, to } = statPeriod(input);
  const account = await accountInReach(reach, input);
  return { reach, from, to, account };
}

/**
 * /admin/sms/reports, GET /api/admin/sms/reports and POST /api/admin/sms/insights: a period's
 * (default the last 7 São Paulo days, at most 31) outbound SMS of every account in reach (or
 * `account_id`'s), optionally of one `route`, `provider` or `status`: totals, per status, per route
 * and provider, and the customers with the most messages.
 */
export async function adminSmsReport(ctx: SignedInCtx, input: unknown = {}): Promise<AdminSmsReport> {
  const { reach, from, to, account } = await periodOf(ctx, "reports", input);
  const f = validate(filterSchema, input && typeof input === "object" ? input : {});
  const filters: ReportFilters = { route: f.route || null, provider: f.provider || null, status: f.status || null };
  const bind = [reach.parent, account?.id ?? null, from, to, filters.route, filters.provider, filters.status];
  const [cube, customers] = await Promise.all([
    rows<FigureRow & { route: string | null; provider: string | null; status: string }>(
      `SELECT m.route, m.provider, m.status, trim(m.currency) AS currency, ${FIGURES_SQL}
         FROM messages m WHERE ${PERIOD} ${FILTER_SQL} GROUP BY 1, 2, 3, 4`,
      bind,
    ),
    rows<FigureRow & { id: string; name: string }>(
      `SELECT a.id, a.name, trim(a.currency) AS currency, c.* FROM (
         SELECT m.account_id, ${FIGURES_SQL} FROM messages m WHERE ${PERIOD} ${FILTER_SQL} GROUP BY 1) c
         JOIN accounts a ON a.id = c.account_id
        ORDER BY c.messages DESC, a.name, a.id LIMIT ${TOP_CUSTOMERS}`,
      bind,
    ),
  ]);
  const statuses = new Map<string, number>();
  const routes = new Map<string, typeof cube>();
  for (const r of cube) {
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + Number(r.messages));
    const k = `${r.route ?? ""}|${r.provider ?? ""}`;
    routes.set(k, [...(routes.get(k) ?? []), r]);
  }
  return {
    from,
    to,
    account,
    filters,
    reach: reach.platform ? "platform" : "reseller",
    ...figuresOf(cube),
    statuses: [...statuses.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([status, messages]) => ({ status, messages })),
    routes: [...routes.values()]
      .map((list) => ({ route: list[0].route, provider: list[0].provider, ...figuresOf(list) }))
      .sort((a, b) => b.messages - a.messages || String(a.route).localeCompare(String(b.route)) || String(a.provider).localeCompare(String(b.provider))),
    customers: customers.map((r) => {
      const { revenue: _r, ...fig } = figuresOf([r]);
      return { account: { id: r.id, name: r.name }, currency: r.currency, ...fig, revenue: Number(r.revenue) };
    }),
  };
}

export type DashboardDay = Figures & { day: string; revenue: Money[] };
export type DashboardWindow = Figures & { days: 1 | 7 | 30; revenue: Money[] };
export type AdminSmsDashboard = {
  from: string;
  to: string;
  today: DashboardWindow;
  last7: DashboardWindow;
  last30: DashboardWindow;
  data: DashboardDay[];
  reach: "platform" | "reseller";
};

/**
 * /admin/sms/dashboard and GET /api/admin/sms/dashboard: every account's (in reach) outbound SMS
 * of today, the last 7 and the last 30 São Paulo days (today included): sent, delivered and its
 * rate, failures, revenue per currency; and the same per day of the 30 (oldest first). One query
 * grouped by day and currency.
 */
export async function adminSmsDashboard(ctx: SignedInCtx): Promise<AdminSmsDashboard> {
  const reach = reachOf(ctx, "dashboard");
  const to = saoPauloToday();
  const from = addDays(to, -29);
  const found = await rows<FigureRow & { day: string }>(`SELECT ${DAY_SQL} AS day, trim(m.currency) AS currency, ${FIGURES_SQL} FROM messages m WHERE ${PERIOD} GROUP BY 1, 2`, [
    reach.parent,
    null,
    from,
    to,
  ]);
  const data = daysOf(from, to).map((day) => ({ day, ...figuresOf(found.filter((r) => r.day === day)) }));
  const windowOf = (days: 1 | 7 | 30): DashboardWindow => ({ days, ...figuresOf(found.filter((r) => r.day >= addDays(to, -(days - 1)))) });
  return { from, to, today: windowOf(1), last7: windowOf(7), last30: windowOf(30), data, reach: reach.platform ? "platform" : "reseller" };
}

/**
 * The provider's cost and the margin of some charged messages in one currency (ADR 070): `cost` is
 * segments × the cost per segment of the message's provider and route in force when it was sent
 * (provider_costs), summed; null — "cost unknown" — when any of them has no such cost (not sent
 * yet, no cost recorded for its provider and route then, or one in another currency), and then no
 * margin either. `margin_rate`: margin / revenue, 4 decimals (null without revenue).
 */
export type Margin = { currency: string; revenue: number; cost: number | null; margin: number | null; margin_rate: number | null; uncosted: number };
export type SalesCustomerRow = { account: { id: string; name: string }; currency: string; messages: number; segments: number; revenue: number; margin: Margin | null };
export type SalesRouteRow = { route: string | null; messages: number; segments: number; revenue: Money[]; margin: Margin[] | null };
export type AdminSmsSales = {
  from: string;
  to: string;
  account: ScopedAccount | null;
  revenue: Money[];
  messages: number;
  segments: number;
  /** The customers with the most revenue (at most TOP_CUSTOMERS). */
  customers: SalesCustomerRow[];
  routes: SalesRouteRow[];
  /** Cost and margin per currency; null for a reseller (the platform's cost is not theirs to see). */
  margin: Margin[] | null;
  reach: "platform" | "reseller";
};

/**
 * The cost in force for each message (alias m): each provider_costs row holds from its valid_from
 * to the next row's of the same provider and route. A LEFT JOIN on the message's provider, route,
 * currency and sent_at: at most one row matches, none when the cost is unknown.
 */
const COSTS_CTE = `k AS (
  SELECT provider, route, currency, cost_per_segment, valid_from,
         lead(valid_from) OVER (PARTITION BY provider, route ORDER BY valid_from) AS valid_to
    FROM provider_costs)`;
const COST_JOIN = `LEFT JOIN k ON k.provider = m.provider AND k.route = m.route AND k.currency = m.currency
  AND m.sent_at >= k.valid_from AND (k.valid_to IS NULL OR m.sent_at < k.valid_to)`;
const COST_SQL = `coalesce(sum(m.segments::bigint * k.cost_per_segment) FILTER (WHERE k.provider IS NOT NULL), 0) AS cost,
  count(*) FILTER (WHERE k.provider IS NULL) AS uncosted`;
/** Without cost (a reseller): the same columns, nothing joined. */
const NO_COST_SQL = `0 AS cost, 0 AS uncosted`;

type CostCols = { cost: string; uncosted: string };
const rate4 = (part: number, whole: number) => Math.round((part / whole) * 10_000) / 10_000;

function marginOf(currency: string, list: Array<CostCols & { revenue: string }>): Margin {
  const revenue = list.reduce((s, r) => s + Number(r.revenue), 0);
  const uncosted = list.reduce((s, r) => s + Number(r.uncosted), 0);
  const cost = uncosted > 0 ? null : list.reduce((s, r) => s + Number(r.cost), 0);
  const margin = cost === null ? null : revenue - cost;
  return { currency, revenue, cost, margin, margin_rate: margin !== null && revenue !== 0 ? rate4(margin, revenue) : null, uncosted };
}

/** One Margin per currency of `list`, by currency. */
function marginsOf(list: Array<CostCols & { revenue: string; currency: string }>): Margin[] {
  const by = new Map<string, typeof list>();
  for (const r of list) by.set(r.currency, [...(by.get(r.currency) ?? []), r]);
  return [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, rows]) => marginOf(currency, rows));
}

/**
 * /admin/sms/sales and GET /api/admin/sms/sales: a period's (default the last 7 São Paulo days, at
 * most 31) SMS revenue — the customer price of the charged, not refunded messages — per customer
 * (the most first) and per route, in reach (or of `account_id`). For platform staff also the
 * provider's cost and the margin (ADR 070), each message costed at its provider and route's cost in
 * force when it was sent; a reseller sees revenue only (`margin: null`).
 */
export async function adminSmsSales(ctx: SignedInCtx, input: unknown = {}): Promise<AdminSmsSales> {
  const { reach, from, to, account } = await periodOf(ctx, "sales", input);
  const bind = [reach.parent, account?.id ?? null, from, to];
  const costed = reach.platform;
  const charged = `${PERIOD} AND ${CHARGED_SQL}`;
  const withK = costed ? `WITH ${COSTS_CTE}` : "";
  const join = costed ? COST_JOIN : "";
  const costCols = costed ? COST_SQL : NO_COST_SQL;
  const [byRoute, byCustomer] = await Promise.all([
    rows<{ route: string | null; currency: string; n: string; segments: string; revenue: string } & CostCols>(
      `${withK} SELECT m.route, trim(m.currency) AS currency, count(*) AS n, coalesce(sum(m.segments), 0) AS segments, coalesce(sum(m.price), 0) AS revenue, ${costCols}
         FROM messages m ${join} WHERE ${charged} GROUP BY 1, 2`,
      bind,
    ),
    rows<{ id: string; name: string; currency: string; n: string; segments: string; revenue: string } & CostCols>(
      `${withK} SELECT a.id, a.name, trim(a.currency) AS currency, c.n, c.segments, c.revenue, c.cost, c.uncosted FROM (
         SELECT m.account_id, count(*) AS n, coalesce(sum(m.segments), 0) AS segments, coalesce(sum(m.price), 0) AS revenue, ${costCols}
           FROM messages m ${join} WHERE ${charged} GROUP BY 1) c
         JOIN accounts a ON a.id = c.account_id
        ORDER BY c.revenue DESC, c.n DESC, a.name, a.id LIMIT ${TOP_CUSTOMERS}`,
      bind,
    ),
  ]);
  const routes = new Map<string, typeof byRoute>();
  for (const r of byRoute) routes.set(r.route ?? "", [...(routes.get(r.route ?? "") ?? []), r]);
  return {
    from,
    to,
    account,
    revenue: addMoney(byRoute.map((r) => ({ currency: r.currency, amount: Number(r.revenue) }))),
    messages: byRoute.reduce((s, r) => s + Number(r.n), 0),
    segments: byRoute.reduce((s, r) => s + Number(r.segments), 0),
    customers: byCustomer.map((r) => ({
      account: { id: r.id, name: r.name },
      currency: r.currency,
      messages: Number(r.n),
      segments: Number(r.segments),
      revenue: Number(r.revenue),
      margin: costed ? marginOf(r.currency, [r]) : null,
    })),
    routes: [...routes.values()]
      .map((list) => ({
        route: list[0].route,
        messages: list.reduce((s, r) => s + Number(r.n), 0),
        segments: list.reduce((s, r) => s + Number(r.segments), 0),
        revenue: addMoney(list.map((r) => ({ currency: r.currency, amount: Number(r.revenue) }))),
        margin: costed ? marginsOf(list) : null,
      }))
      .sort((a, b) => String(a.route).localeCompare(String(b.route))),
    margin: costed ? marginsOf(byRoute) : null,
    reach: reach.platform ? "platform" : "reseller",
  };
}

export type { Reach };
