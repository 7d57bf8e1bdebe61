/**
 * Release of scheduled messages (worker sweep, every SCHEDULE_SWEEP_MS): messages whose
 * scheduled_at has come move from `scheduled` to `queued` with their outbox row and a system
 * `queued` event, RELEASE_BATCH at a time, one transaction per batch. They were priced and
 * debited when accepted, so nothing is charged here. The rows are taken with FOR UPDATE SKIP
 * LOCKED and the UPDATE re-checks the status, so two workers sweeping at once release each
 * message once. A campaign still `scheduled` becomes `running` with its first released message;
 * messages of a paused or canceled campaign stay where they are.
 *
 * Moderation is checked again here, in the same transaction (api/moderation/hold.ts
 * holdManyForReview): a message scheduled before a word or URL it contains went under review is
 * held for approval (status `pending`, its outbox row and `queued` event removed) instead of being
 * sent — exactly the hold of the accept step.
 */
import { sequelize } from "../../models";
import { dispatchStream } from "../channels/registry";
import { holdManyForReview } from "../moderation/hold";
import { rows } from "../lib/sql";

export const RELEASE_BATCH = 5000;

/** Release one batch of due messages; answers how many were released. */
export async function releaseDueBatch(limit = RELEASE_BATCH): Promise<number> {
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const released = await rows<{ id: string; account_id: string; body: string }>(
      `WITH due AS (
         SELECT m.id, m.created_at FROM messages m
          WHERE m.status = 'scheduled' AND m.scheduled_at <= now()
            AND NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.id = m.campaign_id AND c.status IN ('paused', 'canceled'))
          ORDER BY m.scheduled_at
          LIMIT $1
          FOR UPDATE OF m SKIP LOCKED
       ), up AS (
         UPDATE messages m SET status = 'queued', queued_at = now(), updated_at = now()
           FROM due WHERE m.id = due.id AND m.created_at = due.created_at AND m.status = 'scheduled'
         RETURNING m.id, m.created_at, m.account_id, m.campaign_id, m.channel, m.segments, m.price, m.currency, m.body
       ), o AS (
         INSERT INTO outbox (topic, payload) SELECT $2 || up.channel, jsonb_build_object('message_id', up.id::text) FROM up
       ), e AS (
         INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
         SELECT up.id, up.created_at, up.account_id, 'queued', 'system',
                jsonb_build_object('segments', up.segments, 'price', up.price, 'currency', up.currency, 'released', true)
           FROM up
       ), c AS (
         UPDATE campaigns SET status = 'running', started_at = COALESCE(started_at, now()), updated_at = now()
          WHERE id IN (SELECT DISTINCT campaign_id FROM up WHERE campaign_id IS NOT NULL) AND status = 'scheduled'
       )
       SELECT id, account_id, body FROM up`,
      [limit, dispatchStream("")],
      { transaction },
    );
    await holdManyForReview(
      released.map((r) => ({ id: r.id, accountId: r.account_id, body: r.body ?? "" })),
      transaction,
    );
    return released.length;
  });
}

/** Release everything due, batch after batch; answers the number released. */
export async function releaseDue(limit = RELEASE_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await releaseDueBatch(limit);
    total += n;
    if (n < limit) return total;
  }
}
