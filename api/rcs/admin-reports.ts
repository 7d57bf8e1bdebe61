/**
 * Platform staff's RCS reports (issue 21; spec section 2 admin "rcs reports (stat, history,
 * insights)", section 7 GET /admin/rcs/messages, POST /admin/rcs/insights, /admin/rcs/sintetic):
 * the customer reports' queries (./reports.ts) over every account or one (`account_id`).
 * Cross-tenant by design: each function first asks `assertRcsStaff` — the platform account and
 * the policy's staff roles for the screen, as the WhatsApp staff reports (resellers have none).
 * Money: an account's figures are in its currency; a platform-wide amount is one per currency.
 * Lag-tolerant reads on the replica (ADR 030).
 */
import type { SignedInCtx } from "../lib/context";
import { decodeCursor, encodeCursor, pageInput } from "../lib/page";
import { replicaRows as rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { accountOf, addMoney, assertStaff, type Money, type ReportAccount } from "../messages/admin-reports";
import { HISTORY_TIME_ZONE } from "../sms/history";
import { period, periodBind, periodOptions, type ReportScope } from "../sms/reports";
import {
  type AgentRow,
  breakdown,
  type ClassRow,
  type CubeRow,
  type DayRow,
  type Figures,
  figuresOf,
  groupBy,
  type RcsHistoryRow,
  rcsCube,
  rcsFilterOf,
  rcsMessagePage,
  rcsPeriod,
  rcsSideCounts,
  type TypeRow,
} from "./reports";

/** The staff screens (the policy's paths: /admin is the platform account's owners and admins). */
export const ADMIN_RCS_SCREENS = {
  stat: "/admin/rcs/reports/stat",
  history: "/admin/rcs/reports/history",
  insights: "/admin/rcs/reports/insights",
} as const;

/** FORBIDDEN unless the actor is platform staff who may open the screen. */
export function assertRcsStaff(ctx: SignedInCtx, screen: keyof typeof ADMIN_RCS_SCREENS) {
  assertStaff(ctx, ADMIN_RCS_SCREENS[screen]);
}

/** Cost out of cube rows, one amount per currency. */
const moneyOf = (list: CubeRow[]): Money[] => addMoney(list.map((r) => ({ currency: r.currency, amount: r.cost })));
type Costed<T> = Omit<T, "cost"> & { cost: Money[] };

export type AdminRcsInsights = Figures & {
  from: string;
  to: string;
  account: ReportAccount | null;
  cost: Money[];
  received: number;
  fallback_sms: number;
  fallback_cost: Money[];
  data: Costed<DayRow>[];
  types: Costed<TypeRow>[];
  agents: Array<Costed<AgentRow> & { account: { id: string; name: string } }>;
  classes: Costed<ClassRow>[];
  filters: { agent: string | null; type: string | null };
};

/**
 * POST /api/admin/rcs/insights and /admin/rcs/reports/insights: the customer insights (./reports.ts
 * rcsInsights: `days` 7 or 30, or {from, to} at most 31 days; `agent`, `type`) for every account
 * (or `account_id`'s), costs per currency, each agent with its account.
 */
export async function adminRcsInsights(ctx: SignedInCtx, input: unknown = {}): Promise<AdminRcsInsights> {
  assertRcsStaff(ctx, "insights");
  const { from, to } = rcsPeriod(input);
  const account = await accountOf(input);
  const scope: ReportScope = { accountId: account?.id ?? null };
  const filter = await rcsFilterOf(scope.accountId, input);
  const [cube, side] = await Promise.all([rcsCube(scope, from, to, filter), rcsSideCounts(scope, from, to, filter)]);
  const b = await breakdown(cube, from, to);
  const costed = <T extends { cost: number }>(row: T, of: CubeRow[]) => ({ ...row, cost: moneyOf(of) });
  const byDay = groupBy(cube, (r) => r.day);
  const byType = groupBy(cube, (r) => r.type);
  const byClass = groupBy(cube, (r) => r.class);
  const bySender = groupBy(cube, (r) => r.sender);
  const accounts = await accountNames([...new Set(cube.map((r) => r.account_id))]);
  return {
    from,
    to,
    account,
    ...b.totals,
    cost: moneyOf(cube),
    received: side.received,
    fallback_sms: side.fallback.reduce((n, r) => n + r.messages, 0),
    fallback_cost: addMoney(side.fallback.map((r) => ({ currency: r.currency, amount: r.cost }))),
    data: b.data.map((d) => costed(d, byDay.get(d.day) ?? [])),
    types: b.types.map((t) => costed(t, byType.get(t.type) ?? [])),
    agents: b.agents.map((a) => {
      const of = bySender.get(a.agent.rbm_agent_id) ?? [];
      const id = of[0]?.account_id ?? "";
      return { ...costed(a, of), account: { id, name: accounts.get(id) ?? "" } };
    }),
    classes: b.classes.map((c) => costed(c, byClass.get(c.class) ?? [])),
    filters: { agent: filter.agentId, type: filter.type },
  };
}

async function accountNames(ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const found = await rows<{ id: string; name: string }>(`SELECT id, name FROM accounts WHERE id = ANY($1::uuid[])`, [ids]);
  return new Map(found.map((a) => [a.id, a.name]));
}

/**
 * GET /api/admin/rcs/messages and /admin/rcs/reports/history: every account's (or `account_id`'s)
 * RCS messages with the customer list's filters (./reports.ts rcsMessagePage), each row naming its account.
 */
export async function adminRcsMessages(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: RcsHistoryRow[]; next_cursor: string | null }> {
  assertRcsStaff(ctx, "history");
  const account = await accountOf(input);
  return rcsMessagePage(account?.id ?? null, input, true);
}

/**
 * One row of the synthetic report: one customer account's outbound RCS messages created on one
 * São Paulo day — how many, how many per status, how many basic and rich (the price class the
 * accept charged), the SMS legs sent in their stead that day, and the revenue: the price of the
 * messages the account was charged for and not refunded (every message except those refused
 * before sending — rejected, optout — and those failed before Google took them, sent_at unset,
 * which the accept refunds: ADR 055), in the account's currency.
 */
export type SinteticRow = {
  day: string;
  account: { id: string; name: string };
  currency: string;
  messages: number;
  statuses: Record<string, number>;
  basic: number;
  rich: number;
  fallback_sms: number;
  revenue: number;
};

const sinteticPage = z.object(pageInput);

/**
 * POST /api/admin/rcs/sintetic and /admin/rcs/reports/stat ("synthetic report"): for a period of
 * São Paulo days (default the last 7, at most 31) and every account (or `account_id`'s), one row
 * per account and day with RCS messages (SinteticRow), newest day first and then by account name,
 * a keyset page of `limit` (send `cursor` back with the same filters); `totals` over the whole
 * period: messages, statuses, basic, rich, fallback SMS and revenue per currency.
 */
export async function adminRcsSintetic(
  ctx: SignedInCtx,
  input: unknown = {},
): Promise<{
  from: string;
  to: string;
  account: ReportAccount | null;
  data: SinteticRow[];
  next_cursor: string | null;
  totals: Omit<SinteticRow, "day" | "account" | "currency" | "revenue"> & { revenue: Money[] };
}> {
  assertRcsStaff(ctx, "stat");
  const { from, to } = rcsPeriod({ from: (input as Record<string, unknown> | null)?.from, to: (input as Record<string, unknown> | null)?.to });
  const { limit, cursor } = validate(sinteticPage, input && typeof input === "object" ? input : {});
  const after = decodeCursor(cursor, ["string", "string", "string"]) as [string, string, string] | null;
  const account = await accountOf(input);
  const scope: ReportScope = { accountId: account?.id ?? null };
  const [revenueRows, side] = await Promise.all([revenueOf(scope, from, to), fallbackByAccountDay(scope, from, to)]);
  const cube = await rcsCube(scope, from, to);
  const names = await accountNames([...new Set(cube.map((r) => r.account_id))]);
  const groups = [...groupBy(cube, (r) => `${r.day}|${r.account_id}`).entries()].map(([key, of]): SinteticRow => {
    const [day, id] = key.split("|") as [string, string];
    const f = figuresOf(of);
    return {
      day,
      account: { id, name: names.get(id) ?? "" },
      currency: of[0]?.currency ?? "BRL",
      messages: f.messages,
      statuses: f.statuses,
      basic: f.basic,
      rich: f.rich,
      fallback_sms: side.get(key) ?? 0,
      revenue: revenueRows.get(key) ?? 0,
    };
  });
  // Newest day first, then by account name and id: the cursor is the last row's [day, name, id].
  const keyOf = (r: SinteticRow): [string, string, string] => [r.day, r.account.name.toLowerCase(), r.account.id];
  const before = (a: [string, string, string], b: [string, string, string]) => (a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2]);
  const sorted = groups.sort((x, y) => (before(keyOf(x), keyOf(y)) ? -1 : 1));
  const rest = after ? sorted.filter((r) => before(after, keyOf(r))) : sorted;
  const page = rest.slice(0, limit);
  const all = figuresOf(cube);
  return {
    from,
    to,
    account,
    data: page,
    next_cursor: rest.length > limit ? encodeCursor(keyOf(page[page.length - 1] as SinteticRow)) : null,
    totals: {
      messages: all.messages,
      statuses: all.statuses,
      basic: all.basic,
      rich: all.rich,
      fallback_sms: [...side.values()].reduce((n, v) => n + v, 0),
      revenue: addMoney(groups.map((g) => ({ currency: g.currency, amount: g.revenue }))),
    },
  };
}

const DAY_SQL = `to_char((created_at AT TIME ZONE '${HISTORY_TIME_ZONE}')::date, 'YYYY-MM-DD')`;

/** Revenue per "day|account" (see SinteticRow). */
async function revenueOf(scope: ReportScope, from: string, to: string): Promise<Map<string, number>> {
  const found = await rows<{ k: string; amount: string }>(
    `SELECT ${DAY_SQL} || '|' || account_id AS k, coalesce(sum(price), 0) AS amount FROM messages
      WHERE ${period("rcs", periodOptions(scope))} AND direction = 'outbound'
        AND status NOT IN ('rejected','optout') AND NOT (status = 'failed' AND sent_at IS NULL)
      GROUP BY 1`,
    periodBind(scope, from, to),
  );
  return new Map(found.map((r) => [r.k, Number(r.amount)]));
}

/** Fallback SMS legs per "day|account" (the leg's day). */
async function fallbackByAccountDay(scope: ReportScope, from: string, to: string): Promise<Map<string, number>> {
  const found = await rows<{ k: string; n: string }>(
    `SELECT ${DAY_SQL} || '|' || account_id AS k, count(*) AS n FROM messages
      WHERE ${period("sms", periodOptions(scope))} AND fallback_of IS NOT NULL GROUP BY 1`,
    periodBind(scope, from, to),
  );
  return new Map(found.map((r) => [r.k, Number(r.n)]));
}
