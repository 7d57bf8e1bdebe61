/**
 * The shortener's click report (/shortener/reports/stat and GET /api/shortener/reports/stat):
 * over a period of São Paulo days (at most 31; the last 30 by default), optionally one link of the
 * account: clicks per day (every day of the period, zero included), per link, by user agent
 * class, by country and by referrer host. Lag-tolerant reads on the replica (ADR 030).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { replicaRow, replicaRows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { HISTORY_TIME_ZONE } from "../sms/history";
import { allow, daysOf, rangeSchema } from "../sms/reports";

export const STATS_SCREEN = "/shortener/reports/stat";
const TOP = 20;

const rangeOf = rangeSchema("last30");
const linkSchema = z.object({ link_id: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().regex(UUID, "validation.invalid").optional()) });

export type Counted = { key: string; clicks: number };
export type ClickStats = {
  from: string;
  to: string;
  link_id: string | null;
  total: number;
  per_day: Array<{ day: string; clicks: number }>;
  per_link: Array<{ id: string; title: string; slug: string; domain: string; clicks: number }>;
  ua: Counted[];
  countries: Counted[];
  referrers: Counted[];
};

const TZ = `'${HISTORY_TIME_ZONE}'`;
const WHERE = `c.account_id = $1 AND c.clicked_at >= ($2::date)::timestamp AT TIME ZONE ${TZ} AND c.clicked_at < ($3::date + 1)::timestamp AT TIME ZONE ${TZ} AND ($4::uuid IS NULL OR c.link_id = $4)`;

/** The report of the account's clicks over the period. */
export async function clickStats(ctx: SignedInCtx, input: unknown = {}): Promise<ClickStats> {
  allow(ctx, STATS_SCREEN);
  const q = validate(rangeOf, input ?? {});
  const linkId = validate(linkSchema, input ?? {}).link_id ?? null;
  if (linkId && !(await replicaRow("SELECT 1 AS one FROM shortener_links WHERE id = $1 AND account_id = $2", [linkId, ctx.actor.accountId]))) throw new AppError("NOT_FOUND");
  const bind = [ctx.actor.accountId, q.from, q.to, linkId];
  const grouped = (column: string) =>
    replicaRows<{ key: string | null; clicks: string }>(
      `SELECT ${column} AS key, count(*) AS clicks FROM shortener_clicks c WHERE ${WHERE} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${TOP}`,
      bind,
    );
  const [days, links, ua, countries, referrers] = await Promise.all([
    replicaRows<{ day: string; clicks: string }>(
      `SELECT to_char(c.clicked_at AT TIME ZONE ${TZ}, 'YYYY-MM-DD') AS day, count(*) AS clicks FROM shortener_clicks c WHERE ${WHERE} GROUP BY 1`,
      bind,
    ),
    replicaRows<{ id: string; title: string; slug: string; domain: string; clicks: string }>(
      `SELECT l.id, l.title, l.slug, l.domain, n.clicks FROM (SELECT c.link_id, count(*) AS clicks FROM shortener_clicks c WHERE ${WHERE} GROUP BY 1) n
         JOIN shortener_links l ON l.id = n.link_id AND l.account_id = $1 ORDER BY n.clicks DESC, l.title LIMIT 50`,
      bind,
    ),
    grouped("c.ua_class"),
    grouped("c.country"),
    grouped("c.referrer"),
  ]);
  const byDay = new Map(days.map((d) => [d.day, Number(d.clicks)]));
  const per_day = daysOf(q.from, q.to).map((day) => ({ day, clicks: byDay.get(day) ?? 0 }));
  const counted = (list: Array<{ key: string | null; clicks: string }>) => list.map((r) => ({ key: r.key ?? "", clicks: Number(r.clicks) }));
  return {
    from: q.from,
    to: q.to,
    link_id: linkId,
    total: per_day.reduce((s, d) => s + d.clicks, 0),
    per_day,
    per_link: links.map((l) => ({ ...l, clicks: Number(l.clicks) })),
    ua: counted(ua),
    countries: counted(countries),
    referrers: counted(referrers),
  };
}
