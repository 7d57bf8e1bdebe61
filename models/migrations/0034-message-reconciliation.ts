import type { MigrationFn } from "../migrate";

/**
 * Reconciliation of messages left `sent` (issue 12 item 3, api/messages/reconcile.ts):
 * - `status_checked_at`: when the sweep last asked the provider about the message. The sweep claims
 *   a batch by setting it, so several workers never ask about the same message at once and a
 *   message the provider has no answer for is asked again only RECONCILE_AFTER_SECONDS later.
 *   Not indexed: updating it stays a HOT update.
 * - A partial index on the outbound messages still `sent`, by when they were sent: the sweep reads
 *   the oldest first and the index holds only the (few) messages awaiting a receipt.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE messages ADD COLUMN IF NOT EXISTS status_checked_at timestamptz;
    CREATE INDEX IF NOT EXISTS messages_sent_awaiting_receipt_idx ON messages(sent_at) WHERE direction = 'outbound' AND status = 'sent';
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP INDEX IF EXISTS messages_sent_awaiting_receipt_idx;
    ALTER TABLE messages DROP COLUMN IF EXISTS status_checked_at;
  `);
};
