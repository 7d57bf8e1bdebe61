/**
 * For a suite pass with a read replica (ADR 030: the run's processes have DATABASE_REPLICA_URL and
 * so does process.env of the test workers): waits until the replica has replayed everything the
 * primary had written when called, so a lag-tolerant screen (history, reports) shows what the test
 * has just written directly. Without a replica it returns at once. tests/support/db.ts `query`
 * (and so every factory on the run's database) calls it after each statement.
 */
import pg from "pg";

let replica: pg.Pool | undefined;

export async function replicaCaughtUp(primary: { query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }> }, timeoutMs = 30_000) {
  const url = process.env.DATABASE_REPLICA_URL;
  if (!url) return;
  replica ??= new pg.Pool({ connectionString: url, max: 1 });
  const { rows } = await primary.query("SELECT pg_current_wal_lsn()::text AS lsn");
  const lsn = rows[0].lsn as string;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await replica.query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done", [lsn]);
    if (r.rows[0].done) return;
    if (Date.now() > until) throw new Error(`the read replica has not replayed ${lsn} in ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 20));
  }
}
