/**
 * Idempotency keys (Idempotency-Key header of POST /api/sms/messages) are answered for at least
 * IDEMPOTENCY_TTL_HOURS; the worker then removes older ones in small batches, so the table stays
 * the size of a day of traffic and a key can be used again after that.
 */
import { rows } from "../lib/sql";

export const IDEMPOTENCY_TTL_HOURS = 24;
const BATCH = 5_000;

/** Deletes keys older than the TTL; answers how many. Safe to run from several workers at once. */
export async function sweepIdempotencyKeys(): Promise<number> {
  let removed = 0;
  for (;;) {
    const [row] = await rows<{ n: number }>(
      `WITH gone AS (
         DELETE FROM idempotency_keys WHERE ctid = ANY(ARRAY(
           SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) LIMIT $2 FOR UPDATE SKIP LOCKED))
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [IDEMPOTENCY_TTL_HOURS, BATCH],
    );
    const n = row?.n ?? 0;
    removed += n;
    if (n < BATCH) return removed;
  }
}
