import type { MigrationFn } from "../migrate";

/**
 * Customer webhook events are delivered at least once from the database (issue 12; ADR 012).
 * An outbox row of `webhooks:events` is `published_at` once the relay put it on the stream, and
 * now `handled_at` once the fan-out turned it into deliveries. A row published but not handled
 * whose entry Redis lost (a restart without persistence) is announced again by the worker's sweep;
 * the partial index keeps that sweep proportional to what is in flight. Rows already published
 * when this runs were handled (or are past saving): they are marked so, not re-announced.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE outbox ADD COLUMN handled_at timestamptz;
    UPDATE outbox SET handled_at = published_at WHERE topic = 'webhooks:events' AND published_at IS NOT NULL;
    CREATE INDEX outbox_webhooks_unhandled_idx ON outbox(published_at) WHERE topic = 'webhooks:events' AND handled_at IS NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP INDEX IF EXISTS outbox_webhooks_unhandled_idx;
    ALTER TABLE outbox DROP COLUMN IF EXISTS handled_at;
  `);
};
