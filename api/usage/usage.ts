/**
 * What the account used and what it cost (issue 18): GET /api/usage and the /usage screen. Per
 * channel and route (the product), per São Paulo calendar day, in quantity and money, over the
 * last 7 days, the last 30 days (today included) or a range of São Paulo dates of at most 31 days.
 *
 * The source is `messages` (outbound), read by the partition key's range: [from's São Paulo
 * midnight, the day after to's São Paulo midnight), both converted to UTC here, so the plan prunes
 * to the months they touch. Money is what the ledger charged: a message's `price` is what its send
 * debited, and a message whose price went back (failUnsent and a campaign's cancel write a
 * `refund` event; moderation's rejection sets the price to 0) counts in quantity, as `refunded`,
 * never in `amount`. A report: read on the read replica when there is one (api/lib/read-replica.ts,
 * ADR 030), like the channels' reports. tests/integration/usage.test.ts checks the total against the customer legs
 * of the account's `message` and `refund` ledger postings.
 */
import { fromZonedTime } from "date-fns-tz";
import type { SignedInCtx } from "../lib/context";
import { AppError, type FieldErrors } from "../lib/errors";
import { FAILURE_STATUSES } from "../messages/status";
import { replicaRow, replicaRows } from "../lib/sql";
import { can } from "../policy/policy";

export const USAGE_TIME_ZONE = "America/Sao_Paulo";
/** The longest custom range, in São Paulo days (both ends included). */
export const USAGE_MAX_DAYS = 31;
export const USAGE_PERIODS = { "7d": 7, "30d": 30 } as const;
export type UsagePeriod = keyof typeof USAGE_PERIODS | "custom";

export type UsageFigures = { quantity: number; refunded: number; segments: number; amount: number };
export type UsageChannel = { channel: string; route: string | null } & UsageFigures;
export type UsageDay = { date: string } & UsageChannel;
export type Usage = {
  period: UsagePeriod;
  from: string;
  to: string;
  time_zone: string;
  currency: string;
  totals: UsageFigures;
  channels: UsageChannel[];
  days: UsageDay[];
};

/** Today's date in São Paulo (YYYY-MM-DD). */
export function saoPauloDay(now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: USAGE_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day (2026-02-30 is not). */
function isDay(v: string) {
  if (!DAY.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const dayDiff = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** A São Paulo date's midnight as an instant (UTC). */
export const saoPauloMidnight = (day: string): Date => fromZonedTime(`${day}T00:00:00`, USAGE_TIME_ZONE);

const text = (v: unknown) => (typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : String(v).trim());

/**
 * The period asked for: `from`/`to` (inclusive São Paulo dates) when either is given, else
 * `period` (7d by default). Field errors are locale keys naming `period`, `from` or `to`.
 */
export function usagePeriod(input: unknown, now = new Date()): { period: UsagePeriod; from: string; to: string } {
  const q = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const today = saoPauloDay(now);
  const from = text(q.from);
  const to = text(q.to);
  const fields: FieldErrors = {};
  const add = (k: string, key: string) => {
    (fields[k] ??= []).push(key);
  };
  if (!from && !to) {
    const period = text(q.period) || "7d";
    if (period === "custom") {
      add("from", "validation.required");
      add("to", "validation.required");
    } else if (!(period in USAGE_PERIODS)) add("period", "validation.option");
    if (Object.keys(fields).length) throw new AppError("VALIDATION", { fields });
    const days = USAGE_PERIODS[period as keyof typeof USAGE_PERIODS];
    return { period: period as UsagePeriod, from: addDays(today, -(days - 1)), to: today };
  }
  if (!from) add("from", "validation.required");
  else if (!isDay(from)) add("from", "validation.date");
  if (!to) add("to", "validation.required");
  else if (!isDay(to)) add("to", "validation.date");
  if (!fields.from && !fields.to) {
    const span = dayDiff(from, to);
    if (span < 0) add("from", "usage.errors.fromAfterTo");
    else if (span + 1 > USAGE_MAX_DAYS) add("to", `usage.errors.maxRange::${USAGE_MAX_DAYS}`);
    if (dayDiff(to, today) < 0) add("to", "usage.errors.future");
  }
  if (Object.keys(fields).length) throw new AppError("VALIDATION", { fields });
  return { period: "custom", from, to };
}

/**
 * Per São Paulo day, channel and route of the account's outbound messages created in [$2, $3):
 * how many, how many were not charged in the end (`refunded`), their segments, and what they cost.
 * A message is `refunded` when it failed before the provider took it (its `refund` event, looked up
 * in its own month's partition only for a message in a failure status: failed, rejected, optout,
 * blocked…) or ended in one at no cost (price 0). Exported for the EXPLAIN in tests/integration/usage.test.ts.
 */
export const USAGE_SQL = `
  SELECT to_char((m.created_at AT TIME ZONE '${USAGE_TIME_ZONE}')::date, 'YYYY-MM-DD') AS date, m.channel, m.route,
         count(*) AS quantity,
         count(*) FILTER (WHERE r.refunded) AS refunded,
         coalesce(sum(m.segments), 0) AS segments,
         coalesce(sum(m.price) FILTER (WHERE NOT r.refunded), 0) AS amount
    FROM messages m
   CROSS JOIN LATERAL (
     SELECT CASE WHEN m.status IN (${FAILURE_STATUSES.map((st) => `'${st}'`).join(", ")})
                 THEN m.price = 0 OR EXISTS (SELECT 1 FROM message_events e
                                              WHERE e.message_id = m.id AND e.message_created_at = m.created_at AND e.status = 'refund')
                 ELSE false END AS refunded
   ) r
   WHERE m.account_id = $1 AND m.direction = 'outbound' AND m.created_at >= $2 AND m.created_at < $3
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3 NULLS FIRST`;

type Row = { date: string; channel: string; route: string | null; quantity: string; refunded: string; segments: string; amount: string };

const zero = (): UsageFigures => ({ quantity: 0, refunded: 0, segments: 0, amount: 0 });
function addTo(target: UsageFigures, r: UsageFigures) {
  target.quantity += r.quantity;
  target.refunded += r.refunded;
  target.segments += r.segments;
  target.amount += r.amount;
}

/** GET /api/usage: the account's usage over a period (see the module's comment). Whoever reaches /usage. */
export async function getUsage(ctx: SignedInCtx, input: unknown): Promise<Usage> {
  if (!can(ctx.actor, "/usage")) throw new AppError("FORBIDDEN");
  const { period, from, to } = usagePeriod(input);
  const account = await replicaRow<{ currency: string }>(`SELECT btrim(currency) AS currency FROM accounts WHERE id = $1`, [ctx.actor.accountId]);
  const found = await replicaRows<Row>(USAGE_SQL, [ctx.actor.accountId, saoPauloMidnight(from), saoPauloMidnight(addDays(to, 1))]);
  const days: UsageDay[] = found.map((r) => ({
    date: r.date,
    channel: r.channel,
    route: r.route,
    quantity: Number(r.quantity),
    refunded: Number(r.refunded),
    segments: Number(r.segments),
    amount: Number(r.amount),
  }));
  const totals = zero();
  const byProduct = new Map<string, UsageChannel>();
  for (const d of days) {
    addTo(totals, d);
    const key = `${d.channel}\u0000${d.route ?? ""}`;
    let c = byProduct.get(key);
    if (!c) byProduct.set(key, (c = { channel: d.channel, route: d.route, ...zero() }));
    addTo(c, d);
  }
  const channels = [...byProduct.values()].sort((a, b) => a.channel.localeCompare(b.channel) || (a.route ?? "").localeCompare(b.route ?? ""));
  return { period, from, to, time_zone: USAGE_TIME_ZONE, currency: account?.currency ?? "BRL", totals, channels, days };
}
