/**
 * Idempotency keys (Idempotency-Key header of POST /api/sms/messages) are answered for at least
 * IDEMPOTENCY_TTL_HOURS; the worker then removes older ones in small batches, so the table stays
 * the size of a day of traffic and a key can be used again after that.
 */
import type { Transaction } from "sequelize";
import { AppError } from "../lib/errors";
import { row, rows } from "../lib/sql";

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

/**
 * The stored answer of a request under its Idempotency-Key (read in `transaction` when given):
 * null when the key is new; 409 IDEMPOTENCY_CONFLICT when the key was used for another request
 * (another hash). Used by the one-request accepts (WhatsApp, RCS).
 */
export async function storedAnswer<A>(accountId: string, key: string, hash: string, transaction?: Transaction): Promise<A | null> {
  const stored = await row<{ request_hash: string; response: A }>(`SELECT request_hash, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`, [accountId, key], {
    transaction,
  });
  if (!stored) return null;
  if (stored.request_hash !== hash) throw new AppError("IDEMPOTENCY_CONFLICT");
  return stored.response;
}
