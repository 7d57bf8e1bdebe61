/**
 * The platform's SMS monitor (issue 23; spec section 2 /admin/sms/monitor, section 7 GET
 * /admin/sms/monitor and /admin/sms/monitor/analytics), platform staff only (./scope.ts):
 *
 * - throughput: outbound SMS accepted (created) and handed to a provider (sent_at) per minute of the
 *   last MONITOR_MINUTES minutes, and the per-second rate of each minute;
 * - the queue: per route, messages waiting to go (queued, sending) — read through the partial index
 *   messages_dispatch_unfinished_idx, which holds only unfinished work — and the dispatch stream
 *   `messages:sms` (ADR 028) per shard: its length (the dispatcher deletes acked entries, so that is
 *   the unfinished work), the dispatchers group's pending (delivered, not acked) and lag (not yet
 *   delivered), and the dead-letter stream's length;
 * - per provider, the last hour's messages sent, delivered, failed, delivery rate and the most
 *   frequent error codes.
 *
 * The analytics are the same provider figures per hour of the last 24 hours. The time windows are
 * short and recent: the BRIN index on created_at (migration 0081) keeps them to their blocks.
 */
import { dispatchStream } from "../channels/registry";
import type { SignedInCtx } from "../lib/context";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";
import { replicaRows, rows } from "../lib/sql";
import { reachOf } from "./scope";

/** The dispatchers' consumer group (api/dispatch/dispatcher.ts DISPATCH_GROUP; not imported: that module starts the adapters). */
const DISPATCH_GROUP = "dispatchers";

/** How many minutes the throughput covers. */
export const MONITOR_MINUTES = 15;
/** How many error codes per provider the monitor lists. */
const TOP_ERRORS = 5;

export type MinuteRow = { minute: string; accepted: number; sent: number; per_second: number };
export type QueueRow = { route: string; provider: string | null; queued: number; sending: number };
export type StreamRow = { stream: string; shard: number; length: number; pending: number; lag: number | null; dead: number };
export type ProviderRow = {
  provider: string;
  messages: number;
  sent: number;
  delivered: number;
  failed: number;
  delivery_rate: number;
  errors: Array<{ code: string; messages: number }>;
};
export type AdminSmsMonitor = {
  at: string;
  minutes: number;
  throughput: MinuteRow[];
  /** Messages sent per second over the whole window. */
  per_second: number;
  queue: QueueRow[];
  waiting: number;
  streams: StreamRow[];
  providers: ProviderRow[];
};

const rate = (delivered: number, sent: number) => (sent > 0 ? Math.round((delivered / sent) * 10_000) / 10_000 : 0);
const minuteKey = (d: Date) => d.toISOString().slice(0, 16);

/** GET /api/admin/sms/monitor and /admin/sms/monitor: the platform's SMS right now (see the header). Read on the primary: the queue must be current. */
export async function adminSmsMonitor(ctx: SignedInCtx): Promise<AdminSmsMonitor> {
  reachOf(ctx, "monitor");
  const now = new Date();
  const since = new Date(Math.floor(now.getTime() / 60_000) * 60_000 - (MONITOR_MINUTES - 1) * 60_000);
  const [accepted, sent, queue, streams, providers] = await Promise.all([
    rows<{ minute: Date; n: string }>(
      `SELECT date_trunc('minute', created_at) AS minute, count(*) AS n FROM messages
        WHERE channel = 'sms' AND direction = 'outbound' AND created_at >= $1 GROUP BY 1`,
      [since],
    ),
    rows<{ minute: Date; n: string }>(
      `SELECT date_trunc('minute', sent_at) AS minute, count(*) AS n FROM messages
        WHERE channel = 'sms' AND direction = 'outbound' AND created_at >= $1::timestamptz - interval '1 day' AND sent_at >= $1 GROUP BY 1`,
      [since],
    ),
    queueOf(),
    streamsOf(),
    providersOf("1 hour"),
  ]);
  const by = (list: Array<{ minute: Date; n: string }>) => new Map(list.map((r) => [minuteKey(new Date(r.minute)), Number(r.n)]));
  const a = by(accepted);
  const s = by(sent);
  const throughput = Array.from({ length: MONITOR_MINUTES }, (_, i) => {
    const minute = minuteKey(new Date(since.getTime() + i * 60_000));
    const n = s.get(minute) ?? 0;
    return { minute: `${minute}:00.000Z`, accepted: a.get(minute) ?? 0, sent: n, per_second: Math.round((n / 60) * 100) / 100 };
  });
  const total = throughput.reduce((t, m) => t + m.sent, 0);
  return {
    at: now.toISOString(),
    minutes: MONITOR_MINUTES,
    throughput,
    per_second: Math.round((total / (MONITOR_MINUTES * 60)) * 100) / 100,
    queue,
    waiting: queue.reduce((t, q) => t + q.queued + q.sending, 0),
    streams,
    providers,
  };
}

/** Per route (every route, with its provider connection), messages queued and sending now. */
async function queueOf(): Promise<QueueRow[]> {
  const [counts, routes] = await Promise.all([
    rows<{ route: string | null; status: string; n: string }>(
      `SELECT route, status, count(*) AS n FROM messages
        WHERE channel = 'sms' AND direction = 'outbound' AND status IN ('queued','sending') GROUP BY 1, 2`,
    ),
    rows<{ route: string; provider: string }>(
      `SELECT r.route, c.name AS provider FROM sms_route_connections r JOIN provider_connections c ON c.id = r.connection_id ORDER BY r.route`,
    ),
  ]);
  const out = new Map<string, QueueRow>(routes.map((r) => [r.route, { route: r.route, provider: r.provider, queued: 0, sending: 0 }]));
  for (const c of counts) {
    const k = c.route ?? "";
    const q = out.get(k) ?? { route: k, provider: null, queued: 0, sending: 0 };
    if (c.status === "queued") q.queued += Number(c.n);
    else q.sending += Number(c.n);
    out.set(k, q);
  }
  return [...out.values()].sort((x, y) => x.route.localeCompare(y.route));
}

type GroupInfo = Array<string | number | null>;

/** The SMS dispatch stream per shard: length, the dispatchers group's pending and lag, the dead letters. */
async function streamsOf(): Promise<StreamRow[]> {
  const name = dispatchStream("sms");
  const dead = keys.allDeadStreams(name);
  return Promise.all(
    keys.allJobStreams(name).map(async (stream, shard) => {
      const [length, deadLength, groups] = await Promise.all([
        redis().xlen(stream),
        redis().xlen(dead[shard]),
        (redis().xinfo("GROUPS", stream) as Promise<GroupInfo[]>).catch(() => [] as GroupInfo[]),
      ]);
      const group = groups.map(fieldsOf).find((g) => g.name === DISPATCH_GROUP);
      return {
        stream: name,
        shard,
        length: Number(length),
        pending: Number(group?.pending ?? 0),
        lag: group?.lag === null || group?.lag === undefined ? null : Number(group.lag),
        dead: Number(deadLength),
      };
    }),
  );
}

function fieldsOf(list: GroupInfo): Record<string, string | number | null> {
  const o: Record<string, string | number | null> = {};
  for (let i = 0; i + 1 < list.length; i += 2) o[String(list[i])] = list[i + 1];
  return o;
}

/** Per provider, the outbound SMS created in the last `window` (an interval literal of this module). */
async function providersOf(window: "1 hour" | "24 hours"): Promise<ProviderRow[]> {
  const [figures, errors] = await Promise.all([
    replicaRows<{ provider: string; n: string; sent: string; delivered: string; failed: string }>(
      `SELECT coalesce(provider, '') AS provider, count(*) AS n, count(*) FILTER (WHERE sent_at IS NOT NULL) AS sent,
              count(*) FILTER (WHERE status IN ('delivered','read')) AS delivered, count(*) FILTER (WHERE status IN ('failed','unavailable')) AS failed
         FROM messages WHERE channel = 'sms' AND direction = 'outbound' AND created_at >= now() - interval '${window}'
        GROUP BY 1 ORDER BY count(*) DESC, 1`,
    ),
    replicaRows<{ provider: string; code: string; n: string }>(
      `SELECT provider, code, n FROM (
         SELECT coalesce(provider, '') AS provider, error_code AS code, count(*) AS n,
                row_number() OVER (PARTITION BY coalesce(provider, '') ORDER BY count(*) DESC, error_code) AS k
           FROM messages WHERE channel = 'sms' AND direction = 'outbound' AND created_at >= now() - interval '${window}' AND error_code IS NOT NULL
          GROUP BY 1, 2) e WHERE k <= ${TOP_ERRORS} ORDER BY provider, n DESC, code`,
    ),
  ]);
  return figures.map((r) => ({
    provider: r.provider,
    messages: Number(r.n),
    sent: Number(r.sent),
    delivered: Number(r.delivered),
    failed: Number(r.failed),
    delivery_rate: rate(Number(r.delivered), Number(r.sent)),
    errors: errors.filter((e) => e.provider === r.provider).map((e) => ({ code: e.code, messages: Number(e.n) })),
  }));
}

export type HourRow = { hour: string; provider: string; messages: number; sent: number; delivered: number; failed: number; delivery_rate: number };
export type AdminSmsMonitorAnalytics = { from: string; to: string; providers: ProviderRow[]; hours: HourRow[] };

/** GET /api/admin/sms/monitor/analytics: the last 24 hours per provider (figures and errors) and per hour and provider. */
export async function adminSmsMonitorAnalytics(ctx: SignedInCtx): Promise<AdminSmsMonitorAnalytics> {
  reachOf(ctx, "monitor");
  const to = new Date();
  const [providers, hours] = await Promise.all([
    providersOf("24 hours"),
    replicaRows<{ hour: Date; provider: string; n: string; sent: string; delivered: string; failed: string }>(
      `SELECT date_trunc('hour', created_at) AS hour, coalesce(provider, '') AS provider, count(*) AS n, count(*) FILTER (WHERE sent_at IS NOT NULL) AS sent,
              count(*) FILTER (WHERE status IN ('delivered','read')) AS delivered, count(*) FILTER (WHERE status IN ('failed','unavailable')) AS failed
         FROM messages WHERE channel = 'sms' AND direction = 'outbound' AND created_at >= now() - interval '24 hours'
        GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
  ]);
  return {
    from: new Date(to.getTime() - 86_400_000).toISOString(),
    to: to.toISOString(),
    providers,
    hours: hours.map((h) => ({
      hour: new Date(h.hour).toISOString(),
      provider: h.provider,
      messages: Number(h.n),
      sent: Number(h.sent),
      delivered: Number(h.delivered),
      failed: Number(h.failed),
      delivery_rate: rate(Number(h.delivered), Number(h.sent)),
    })),
  };
}
