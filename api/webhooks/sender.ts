/**
 * Sends customer webhook deliveries (worker). A claim takes due pending deliveries of enabled
 * endpoints (`FOR UPDATE SKIP LOCKED`: several workers share them) up to the free slots of each
 * endpoint (see startWebhookSender: concurrent, per-endpoint limits), counts the attempt and leases
 * the row (next_attempt_at pushed past the timeout, so a worker that dies mid-POST leaves it to be
 * retried, never lost), then POSTs the stored payload signed Standard-Webhooks style with the
 * endpoint's current secret — and, for SECRET_OVERLAP after a rotation, also with the replaced
 * one (two space-separated signatures; a receiver still on the old secret keeps verifying). 2xx = succeeded; anything else (status, timeout, refused address,
 * redirect: the guarded client of api/lib/outbound decides where we may POST) is recorded as an attempt and retried on the schedule of ./backoff, then `failed`.
 * The outcome is written only if the row is still the one we claimed (same attempt count).
 */
import { sequelize } from "../../models";
import { signWebhook } from "../channels/webhook-signature";
import { unseal } from "../lib/crypto";
import { env } from "../lib/env";
import { retryDelayMs } from "./backoff";
import { isOutboundError, outboundFetch } from "../lib/outbound";
import { exec, rows } from "../lib/sql";

export const EXCERPT_BYTES = 1024;

type Claimed = { id: string; endpoint_id: string; event_id: string; payload: unknown; attempts: number; url: string; secret_sealed: string; previous_secret_sealed: string | null };

/** At most `max` bytes of UTF-8 text, cut on a character boundary, without NUL characters. */
export function excerpt(text: string, max = EXCERPT_BYTES): string {
  let s = text.replace(/\u0000/g, "");
  if (Buffer.byteLength(s, "utf8") <= max) return s;
  s = Buffer.from(s, "utf8").subarray(0, max).toString("utf8");
  while (Buffer.byteLength(s, "utf8") > max) s = s.slice(0, -1);
  return s;
}

export type AttemptResult = { statusCode: number | null; error: string | null; excerpt: string; durationMs: number; ok: boolean };

/**
 * One signed POST of `body` through the guarded client (api/lib/outbound, ADR 021: public https
 * addresses only while the guard is on, resolved and pinned, no redirect followed, time and size
 * capped); never throws. The excerpt is the first KB of a 2xx answer of the customer's endpoint;
 * the body of a failure is never kept (issue 11: no response body of a failure goes back to the
 * tenant: an address that is public yet trusts our server must not become a reading window). A
 * failure to connect reads "could not connect" whatever the cause (refused address or dead host).
 */
export async function postWebhook(url: string, secret: string | readonly string[], eventId: string, body: string): Promise<AttemptResult> {
  const started = performance.now();
  const done = (r: Omit<AttemptResult, "durationMs">): AttemptResult => ({ ...r, durationMs: Math.max(0, Math.round(performance.now() - started)) });
  try {
    const res = await outboundFetch(url, {
      method: "POST",
      timeoutMs: env().WEBHOOK_TIMEOUT_MS,
      maxBytes: EXCERPT_BYTES + 4,
      truncate: true,
      keepAlive: true,
      headers: { "Content-Type": "application/json", "User-Agent": "Mensageria-Webhooks/1.0", ...signWebhook(secret, eventId, body) },
      body,
    });
    const ok = res.status >= 200 && res.status < 300;
    return done({ statusCode: res.status, ok, excerpt: ok ? excerpt(res.text()) : "", error: ok ? null : `HTTP ${res.status}` });
  } catch (e) {
    if (!isOutboundError(e)) return done({ statusCode: null, ok: false, excerpt: "", error: "could not send" });
    if (e.reason === "refused" || e.reason === "unreachable") console.warn(`webhook ${eventId}: ${e.detail}`);
    const message = e.reason === "timeout" ? `timeout after ${env().WEBHOOK_TIMEOUT_MS} ms` : e.message;
    return done({ statusCode: e.status ?? null, ok: false, excerpt: "", error: message });
  }
}

/** Deliveries claimed in one statement at most. */
const CLAIM_MAX = 200;
/** How deep the claim looks into the due rows for fairness between endpoints. */
const CLAIM_WINDOW = 5_000;

/**
 * Claims up to `limit` due deliveries of enabled endpoints, at most `perEndpoint` minus what this
 * process already holds of each (`busy`), oldest due first.
 * Counts the attempt and leases the row (next_attempt_at pushed past the timeout).
 */
async function claimDue(limit: number, perEndpoint: number, busy: Map<string, number>): Promise<Claimed[]> {
  // A claimed delivery may wait for one round of its endpoint's POSTs before its own: two timeouts, and a margin.
  const leaseSeconds = 2 * Math.ceil(env().WEBHOOK_TIMEOUT_MS / 1000) + 30;
  return rows<Claimed>(
    `WITH due AS (
       SELECT d.id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
       WHERE d.status = 'pending' AND d.next_attempt_at <= now()
         AND d.endpoint_id NOT IN (SELECT b.id FROM unnest($1::uuid[], $2::int[]) AS b(id, used) WHERE b.used >= $3)
       ORDER BY d.next_attempt_at LIMIT ${CLAIM_WINDOW}
     ), fair AS (
       SELECT r.id FROM (
         SELECT due.id, due.next_attempt_at, row_number() OVER (PARTITION BY due.endpoint_id ORDER BY due.next_attempt_at) AS rn, COALESCE(b.used, 0) AS used
         FROM due LEFT JOIN unnest($1::uuid[], $2::int[]) AS b(id, used) ON b.id = due.endpoint_id
       ) r WHERE r.rn <= $3 - r.used ORDER BY r.next_attempt_at LIMIT $4
     ), claimed AS (
       SELECT d.id FROM webhook_deliveries d WHERE d.id IN (SELECT id FROM fair) AND d.status = 'pending' AND d.next_attempt_at <= now()
       FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
     FROM claimed, webhook_endpoints w WHERE d.id = claimed.id AND w.id = d.endpoint_id
     RETURNING d.id, d.endpoint_id, d.event_id, d.payload, d.attempts, w.url, w.secret_sealed,
               CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_sealed END AS previous_secret_sealed`,
    [[...busy.keys()], [...busy.values()], perEndpoint, limit],
  );
}

/** One POST of a claimed delivery; never throws. */
async function attempt(d: Claimed): Promise<Outcome> {
  const startedAt = new Date();
  const body = JSON.stringify(d.payload);
  let result: AttemptResult;
  try {
    const secrets = [unseal(d.secret_sealed), ...(d.previous_secret_sealed ? [unseal(d.previous_secret_sealed)] : [])];
    result = await postWebhook(d.url, secrets, d.event_id, body);
  } catch (e) {
    result = { statusCode: null, ok: false, excerpt: "", error: `cannot sign: ${(e as Error).message}`, durationMs: 0 };
  }
  const delay = result.ok ? null : retryDelayMs(d.attempts, { scale: env().WEBHOOK_RETRY_SCALE, random: Math.random() });
  const status = result.ok ? "succeeded" : delay === null ? "failed" : "pending";
  return { d, startedAt, result, status, delay: delay ?? 0 };
}

type Outcome = { d: Claimed; startedAt: Date; result: AttemptResult; status: "succeeded" | "failed" | "pending"; delay: number };

/**
 * Writes outcomes in one transaction: each delivery's new state — only if the row is still the one
 * we claimed (same attempt count, still pending) — and every attempt, recorded even when another
 * worker took the row over meanwhile (the POST did happen).
 */
async function record(outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const col = <T>(f: (o: Outcome) => T) => outcomes.map(f);
  await sequelize().transaction(async (transaction) => {
    await exec(
      `UPDATE webhook_deliveries d SET status = u.status, last_status_code = u.code, last_error = u.error, updated_at = now(),
         next_attempt_at = CASE WHEN u.status = 'pending' THEN now() + make_interval(secs => u.delay_ms / 1000) END,
         succeeded_at = CASE WHEN u.status = 'succeeded' THEN now() ELSE d.succeeded_at END
       FROM unnest($1::uuid[], $2::int[], $3::text[], $4::int[], $5::text[], $6::double precision[]) AS u(id, attempts, status, code, error, delay_ms)
       WHERE d.id = u.id AND d.attempts = u.attempts AND d.status = 'pending'`,
      [col((o) => o.d.id), col((o) => o.d.attempts), col((o) => o.status), col((o) => o.result.statusCode), col((o) => o.result.error), col((o) => o.delay)],
      { transaction },
    );
    await exec(
      `INSERT INTO webhook_attempts (delivery_id, started_at, duration_ms, status_code, error, response_excerpt)
       SELECT u.* FROM unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::int[], $5::text[], $6::text[]) AS u(id, started_at, duration_ms, status_code, error, excerpt)
       JOIN webhook_deliveries d ON d.id = u.id FOR KEY SHARE OF d`,
      [col((o) => o.d.id), col((o) => o.startedAt), col((o) => o.result.durationMs), col((o) => o.result.statusCode), col((o) => o.result.error), col((o) => o.result.excerpt)],
      { transaction },
    );
  });
}

/** Outcomes wait at most this long (or until RECORD_BATCH of them) to be written together. */
const RECORD_EVERY_MS = 20;
const RECORD_BATCH = 200;

/**
 * Runs the sender until stopped. Deliveries are sent concurrently, at most
 * WEBHOOK_ENDPOINT_CONCURRENCY in flight per endpoint (over kept-alive connections), so a slow or
 * dead endpoint holds only its own slots while the others go on. The process holds (claims) up to
 * twice that per endpoint — the second half waits for a slot of its endpoint and starts the moment
 * one frees, so a fast endpoint never idles while the next claim runs — and up to
 * WEBHOOK_CONCURRENCY deliveries in all. A claim runs whenever there is room: at once when a POST
 * ends or on wake() (the fan-out made deliveries), else every WEBHOOK_SWEEP_MS. Outcomes are
 * written in small batches.
 */
export function startWebhookSender() {
  const total = env().WEBHOOK_CONCURRENCY;
  const perEndpoint = env().WEBHOOK_ENDPOINT_CONCURRENCY;
  /** Deliveries held per endpoint (in flight + waiting), those in flight, and the waiting ones. */
  const held = new Map<string, number>();
  const sending = new Map<string, number>();
  const waiting = new Map<string, Claimed[]>();
  let holding = 0;
  let inflight = 0;
  let running = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wakeUp: (() => void) | undefined;
  // Set by wake(): a slot freed or deliveries appeared while a claim ran, so claim again before waiting.
  let signalled = false;
  const wake = () => {
    signalled = true;
    clearTimeout(timer);
    wakeUp?.();
  };

  let pending: Outcome[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let writes = Promise.resolve();
  const flush = () => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const batch = pending;
    pending = [];
    writes = writes.then(() => record(batch)).catch((e) => console.error(`webhook outcomes not recorded (${batch.length}; their leases expire and they are sent again)`, e));
    return writes;
  };
  const done = (o: Outcome) => {
    pending.push(o);
    if (pending.length >= RECORD_BATCH) void flush();
    else flushTimer ??= setTimeout(flush, RECORD_EVERY_MS);
  };
  const add = (m: Map<string, number>, id: string, n: number) => {
    const v = (m.get(id) ?? 0) + n;
    if (v > 0) m.set(id, v);
    else m.delete(id);
  };

  /** Sends now if the endpoint has a free slot, else queues behind its POSTs in flight. */
  const take = (d: Claimed) => {
    holding++;
    add(held, d.endpoint_id, 1);
    if ((sending.get(d.endpoint_id) ?? 0) < perEndpoint) send(d);
    else waiting.set(d.endpoint_id, [...(waiting.get(d.endpoint_id) ?? []), d]);
  };
  const send = (d: Claimed) => {
    inflight++;
    add(sending, d.endpoint_id, 1);
    void attempt(d)
      .then(done)
      .finally(() => {
        inflight--;
        holding--;
        add(sending, d.endpoint_id, -1);
        add(held, d.endpoint_id, -1);
        const next = waiting.get(d.endpoint_id)?.shift();
        if (waiting.get(d.endpoint_id)?.length === 0) waiting.delete(d.endpoint_id);
        if (next) send(next);
        wake();
      });
  };

  const loop = (async () => {
    while (running) {
      signalled = false;
      let claimed: Claimed[] = [];
      const free = Math.min(CLAIM_MAX, total - holding);
      if (free > 0) {
        try {
          claimed = await claimDue(free, 2 * perEndpoint, held);
        } catch (e) {
          console.error("webhook claim failed", e);
        }
        for (const d of claimed) take(d);
      }
      // A full claim: there may be more due at once; otherwise wait for a free slot, a wake() or the sweep.
      if (running && !signalled && (claimed.length < free || holding >= total)) {
        await new Promise<void>((r) => {
          wakeUp = r;
          timer = setTimeout(r, env().WEBHOOK_SWEEP_MS);
        });
      }
    }
  })();
  return {
    wake,
    async stop() {
      running = false;
      wake();
      await loop;
      while (inflight > 0) await new Promise((r) => setTimeout(r, 20));
      await flush();
    },
  };
}
