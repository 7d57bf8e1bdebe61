/**
 * Customer webhook events are at least once from the database (ADR 012): the outbox row of an
 * event batch stays `handled_at IS NULL` until the fan-out made its deliveries (./events), and the
 * fan-out consumer deletes its entries once acked, so `webhooks:events` holds exactly the
 * unfinished work. A row published (the relay put it on the stream) but neither handled nor on
 * the stream was lost with Redis's memory (a restart without persistence, a flush): it is
 * announced again, as the SMS dispatch sweep does for messages (api/dispatch/recovery). A
 * duplicate is harmless: deliveries are unique per (endpoint, event id), and the receiver's
 * idempotency key is the event id (the `webhook-id` header).
 */
import { idsInStream } from "../dispatch/recovery";
import { entryFields, shardId } from "../dispatch/relay";
import { publishJobs } from "../jobs/publish";
import { env } from "../lib/env";
import { WEBHOOK_EVENTS_STREAM } from "./events";
import { exec, rows } from "../lib/sql";

const CANDIDATES = 5_000;

/** Announces again the published, unhandled event rows older than `olderThanSeconds` that have no entry; returns how many. */
export async function recoverLostEvents(olderThanSeconds = env().DISPATCH_RECOVER_SECONDS): Promise<number> {
  const candidates = await rows<{ id: string; payload: Record<string, unknown> }>(
    `SELECT id::text, payload FROM outbox
     WHERE topic = $1 AND handled_at IS NULL AND published_at < now() - make_interval(secs => $2)
     ORDER BY published_at LIMIT ${CANDIDATES}`,
    [WEBHOOK_EVENTS_STREAM, olderThanSeconds],
  );
  if (candidates.length === 0) return 0;
  const present = await idsInStream(WEBHOOK_EVENTS_STREAM, "outbox_id");
  const lost = candidates.filter((c) => !present.has(c.id));
  if (lost.length === 0) return 0;
  await publishJobs(
    lost.map((row) => ({ stream: WEBHOOK_EVENTS_STREAM, id: shardId(row.payload, row.id), fields: [...entryFields(row.payload, row.id), "recovered", "1"] })),
  ).catch((e) => {
    throw new Error(`webhook events recovery XADD failed: ${e instanceof Error ? e.message : String(e)}`);
  });
  console.warn(`webhook sweep: ${lost.length} event batch(es) had no stream entry, announced again`);
  return lost.length;
}

/** Marks an event batch's outbox row handled (its deliveries exist); a row of another topic is left alone. */
export async function markHandled(outboxId: string | undefined) {
  if (!/^\d{1,19}$/.test(outboxId ?? "")) return;
  await exec(`UPDATE outbox SET handled_at = now() WHERE id = $1 AND topic = $2 AND handled_at IS NULL`, [outboxId, WEBHOOK_EVENTS_STREAM]);
}
