/**
 * The platform's analytics (issue 23; spec section 2 /admin/analytics, GET /api/admin/analytics),
 * platform staff only (./scope.ts): for a period of São Paulo days (default the last 30, at most
 * 31) and the period of the same length just before it —
 *
 * - active accounts: accounts with at least one outbound message of any channel or one live-chat
 *   message in the period; new accounts: customer and reseller accounts created in it;
 * - messages per channel: outbound SMS, WhatsApp, e-mail and RCS (`messages`) and live-chat
 *   messages (`live_messages`, both sides);
 * - revenue: the ledger's revenue book (ADR 042: message charges, plan fees, agents, products,
 *   less refunds), one amount per currency;
 * - growth of each: (period − previous) / previous, 4 decimals; null when the previous is 0.
 *
 * The messages are bounded by created_at (their partitions, ADR 029; the BRIN index of migration
 * 0081). Lag-tolerant reads on the replica (ADR 030).
 */
import type { SignedInCtx } from "../lib/context";
import { replicaRows as rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { HISTORY_TIME_ZONE } from "../sms/history";
import { addDays, daysOf, rangeSchema } from "../sms/reports";
import { reachOf } from "./scope";

const TZ = `'${HISTORY_TIME_ZONE}'`;
export const ANALYTICS_CHANNELS = ["sms", "whatsapp", "email", "rcs", "live"] as const;
export type AnalyticsChannel = (typeof ANALYTICS_CHANNELS)[number];

export type Compared = { value: number; previous: number; growth: number | null };
export type AdminAnalytics = {
  from: string;
  to: string;
  previous: { from: string; to: string };
  active_accounts: Compared;
  new_accounts: Compared;
  messages: Compared;
  channels: Array<Compared & { channel: AnalyticsChannel }>;
  revenue: Array<Compared & { currency: string }>;
};

const growth = (value: number, previous: number) => (previous > 0 ? Math.round(((value - previous) / previous) * 10_000) / 10_000 : null);
const compared = (value: number, previous: number): Compared => ({ value, previous, growth: growth(value, previous) });

/** $1 the previous period's first day, $2 the period's first day, $3 its last day (São Paulo); `cur` is true for the period, false for the previous. */
const WINDOW = (col: string) => `${col} >= ($1::date)::timestamp AT TIME ZONE ${TZ} AND ${col} < ($3::date + 1)::timestamp AT TIME ZONE ${TZ}`;
const CUR = (col: string) => `(${col} >= ($2::date)::timestamp AT TIME ZONE ${TZ})`;

export async function adminAnalytics(ctx: SignedInCtx, input: unknown = {}): Promise<AdminAnalytics> {
  reachOf(ctx, "analytics");
  const { from, to } = validate(rangeSchema("last30"), input && typeof input === "object" ? input : {});
  const length = daysOf(from, to).length;
  const prevTo = addDays(from, -1);
  const prevFrom = addDays(from, -length);
  const bind = [prevFrom, from, to];
  const [channels, active, created, revenue] = await Promise.all([
    rows<{ channel: string; cur: boolean; n: string }>(
      `SELECT channel, ${CUR("created_at")} AS cur, count(*) AS n FROM messages
        WHERE ${WINDOW("created_at")} AND direction = 'outbound' AND channel IN ('sms','whatsapp','email','rcs') GROUP BY 1, 2
       UNION ALL
       SELECT 'live', ${CUR("created_at")}, count(*) FROM live_messages WHERE ${WINDOW("created_at")} GROUP BY 1, 2`,
      bind,
    ),
    // Per account and period, does it have a message (the index on (account_id, created_at) answers
    // each EXISTS in a probe): 30–60 ms at 2,000 accounts and 2 M messages, where deduplicating the
    // period's (account, period) rows with a UNION sorted on disk for 0.8–1.5 s (bench/admin-reports.mjs).
    rows<{ cur: boolean; n: string }>(
      `SELECT p.cur, count(*) AS n
         FROM accounts a
        CROSS JOIN (VALUES (false, ($1::date)::timestamp AT TIME ZONE ${TZ}, ($2::date)::timestamp AT TIME ZONE ${TZ}),
                           (true, ($2::date)::timestamp AT TIME ZONE ${TZ}, ($3::date + 1)::timestamp AT TIME ZONE ${TZ})) p(cur, t0, t1)
        WHERE EXISTS (SELECT 1 FROM messages m WHERE m.account_id = a.id AND m.direction = 'outbound' AND m.created_at >= p.t0 AND m.created_at < p.t1)
           OR EXISTS (SELECT 1 FROM live_messages l WHERE l.account_id = a.id AND l.created_at >= p.t0 AND l.created_at < p.t1)
        GROUP BY 1`,
      bind,
    ),
    rows<{ cur: boolean; n: string }>(
      `SELECT ${CUR("created_at")} AS cur, count(*) AS n FROM accounts WHERE type IN ('customer','reseller') AND ${WINDOW("created_at")} GROUP BY 1`,
      bind,
    ),
    rows<{ currency: string; cur: boolean; amount: string }>(
      `SELECT trim(currency) AS currency, ${CUR("created_at")} AS cur, sum(amount) AS amount FROM ledger_entries
        WHERE book = 'revenue' AND ${WINDOW("created_at")} GROUP BY 1, 2 ORDER BY 1`,
      bind,
    ),
  ]);
  const pick = <T extends { cur: boolean }>(list: T[], cur: boolean, value: (r: T) => number, where: (r: T) => boolean = () => true) =>
    list.filter((r) => r.cur === cur && where(r)).reduce((s, r) => s + value(r), 0);
  const perChannel = ANALYTICS_CHANNELS.map((channel) => {
    const of = (r: { channel: string }) => r.channel === channel;
    return {
      channel,
      ...compared(
        pick(channels, true, (r) => Number(r.n), of),
        pick(channels, false, (r) => Number(r.n), of),
      ),
    };
  });
  const currencies = [...new Set(revenue.map((r) => r.currency))].sort();
  return {
    from,
    to,
    previous: { from: prevFrom, to: prevTo },
    active_accounts: compared(
      pick(active, true, (r) => Number(r.n)),
      pick(active, false, (r) => Number(r.n)),
    ),
    new_accounts: compared(
      pick(created, true, (r) => Number(r.n)),
      pick(created, false, (r) => Number(r.n)),
    ),
    messages: compared(
      perChannel.reduce((s, c) => s + c.value, 0),
      perChannel.reduce((s, c) => s + c.previous, 0),
    ),
    channels: perChannel,
    revenue: currencies.map((currency) => {
      const of = (r: { currency: string }) => r.currency === currency;
      return {
        currency,
        ...compared(
          pick(revenue, true, (r) => Number(r.amount), of),
          pick(revenue, false, (r) => Number(r.amount), of),
        ),
      };
    }),
  };
}
