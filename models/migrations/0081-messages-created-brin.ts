import type { MigrationFn } from "../migrate";

/**
 * Platform-wide SMS reports, monitor and analytics (issue 23, ADR 065): a BRIN index on
 * messages(created_at). Every other index of `messages` leads with account_id, so a query over
 * every account's messages of a time window (the monitor's last minutes, the dashboard's today)
 * read whole monthly partitions. Rows arrive in created_at order, so a block range summary (a few
 * kilobytes per partition, next to nothing to keep up on insert) lets such a query read only the
 * blocks of its window. Created on the partitioned parent: every partition, present and future
 * (message_partitions_ensure), gets its own.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`CREATE INDEX IF NOT EXISTS messages_created_brin_idx ON messages USING brin (created_at) WITH (pages_per_range = 32)`);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP INDEX IF EXISTS messages_created_brin_idx`);
};
