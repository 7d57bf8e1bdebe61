/**
 * Sends customer webhook deliveries (worker). A sweep claims due pending deliveries of enabled
 * endpoints (`FOR UPDATE SKIP LOCKED`: several workers share them), counts the attempt and leases
 * the row (next_attempt_at pushed past the timeout, so a worker that dies mid-POST leaves it to be
 * retried, never lost), then POSTs the stored payload signed Standard-Webhooks style with the
 * endpoint's current secret — and, for SECRET_OVERLAP after a rotation, also with the replaced
 * one (two space-separated signatures; a receiver still on the old secret keeps verifying). 2xx = succeeded; anything else (status, timeout, refused address,
 * redirect: the guarded client of api/lib/outbound decides where we may POST) is recorded as an attempt and retried on the schedule of ./backoff, then `failed`.
 * The outcome is written only if the row is still the one we claimed (same attempt count).
 */
import { QueryTypes } from "sequelize";
import { sequelize } from "../../models";
import { signWebhook } from "../channels/webhook-signature";
import { unseal } from "../lib/crypto";
import { env } from "../lib/env";
import { retryDelayMs } from "./backoff";
import { isOutboundError, outboundFetch } from "../lib/outbound";

const BATCH = 20;
export const EXCERPT_BYTES = 1024;

type Claimed = { id: string; event_id: string; payload: unknown; attempts: number; url: string; secret_sealed: string; previous_secret_sealed: string | null };

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

async function claimDue(): Promise<Claimed[]> {
  const leaseSeconds = Math.ceil(env().WEBHOOK_TIMEOUT_MS / 1000) + 30;
  return sequelize().query<Claimed>(
    `WITH due AS (
       SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.enabled
       WHERE d.status = 'pending' AND d.next_attempt_at <= now()
       ORDER BY d.next_attempt_at LIMIT ${BATCH} FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
     FROM due, webhook_endpoints w WHERE d.id = due.id AND w.id = d.endpoint_id
     RETURNING d.id, d.event_id, d.payload, d.attempts, w.url, w.secret_sealed,
               CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret_sealed END AS previous_secret_sealed`,
    { type: QueryTypes.SELECT },
  );
}

async function attempt(d: Claimed): Promise<void> {
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
  await sequelize().transaction(async (transaction) => {
    const [still] = await sequelize().query(
      `UPDATE webhook_deliveries SET status = $3, last_status_code = $4, last_error = $5, updated_at = now(),
         next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + make_interval(secs => $6::double precision / 1000) END,
         succeeded_at = CASE WHEN $3 = 'succeeded' THEN now() ELSE succeeded_at END
       WHERE id = $1 AND attempts = $2 AND status = 'pending' RETURNING id`,
      { bind: [d.id, d.attempts, status, result.statusCode, result.error, delay ?? 0], type: QueryTypes.SELECT, transaction },
    );
    // Recorded even when another worker took the row over meanwhile: the POST did happen.
    await sequelize().query(
      `INSERT INTO webhook_attempts (delivery_id, started_at, duration_ms, status_code, error, response_excerpt) VALUES ($1, $2, $3, $4, $5, $6)`,
      { bind: [d.id, startedAt, result.durationMs, result.statusCode, result.error, result.excerpt], transaction },
    );
    return still;
  });
}

/** One sweep: claims and sends up to BATCH due deliveries in parallel; returns how many. */
export async function sendDueOnce(): Promise<number> {
  const claimed = await claimDue();
  await Promise.all(claimed.map((d) => attempt(d).catch((e) => console.error("webhook attempt failed to record", d.id, e))));
  return claimed.length;
}

/** Runs the sweep until stopped: again at once after a full batch, else every WEBHOOK_SWEEP_MS or on wake(). */
export function startWebhookSender() {
  let running = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wakeUp: (() => void) | undefined;
  const loop = (async () => {
    while (running) {
      let n = 0;
      try {
        n = await sendDueOnce();
      } catch (e) {
        console.error("webhook sweep failed", e);
      }
      if (n < BATCH && running) {
        await new Promise<void>((r) => {
          wakeUp = r;
          timer = setTimeout(r, env().WEBHOOK_SWEEP_MS);
        });
      }
    }
  })();
  return {
    wake() {
      clearTimeout(timer);
      wakeUp?.();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      wakeUp?.();
      await loop;
    },
  };
}
