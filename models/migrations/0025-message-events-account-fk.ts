import type { MigrationFn } from "../migrate";

/**
 * Receipts throughput (issue 4, ADR 013): every message_events row re-checked its account through
 * a foreign key — one more lookup per row, and a FOR KEY SHARE lock on the account's row taken by
 * every concurrent receipt batch of that account (PostgreSQL turns many lockers of one row into a
 * multixact, which is what made concurrent batches slow). The event's account is always copied from
 * its message, whose own foreign key (and ON DELETE CASCADE through message_id) already ties it to
 * the account, so the second key checks nothing new.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE message_events DROP CONSTRAINT IF EXISTS message_events_account_id_fkey;`);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE message_events ADD CONSTRAINT message_events_account_id_fkey
      FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE;
  `);
};
