import type { MigrationFn } from "../migrate";

/**
 * Dispatch robustness (issue 4): the worker's lost-entry sweep looks for outbound messages still
 * queued/sending after a while (a Redis restart loses their stream entries). A partial index keeps
 * that query proportional to the unfinished messages, not to the whole (large) history.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE INDEX messages_dispatch_unfinished_idx ON messages(channel, updated_at)
      WHERE direction = 'outbound' AND status IN ('queued','sending');
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP INDEX IF EXISTS messages_dispatch_unfinished_idx;`);
};
