/**
 * How far behind a streaming replica is (ADR 030), without a database: api/lib/read-replica.ts
 * gives these the primary's WAL position and a way to read the replica's replayed position.
 */

/** A WAL position as PostgreSQL prints it ("16/B374D848") as a number that compares. */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text.trim());
  if (!m) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

export type LagOptions = {
  /** The primary's position (pg_current_wal_lsn()) read at `since`. */
  target: bigint;
  since: number;
  /** The replica's pg_last_wal_replay_lsn() now. */
  replayed: () => Promise<bigint>;
  boundMs: number;
  pollMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

/**
 * The lag: the time from `since` until the replica has replayed `target` — what the primary had
 * written at `since`. Asks again every `pollMs` while it has not; gives up once `boundMs` have
 * passed (`caughtUp: false`). An idle primary gives 0 at once (nothing new to replay), however
 * long ago the last transaction was.
 */
export async function measureLag(o: LagOptions): Promise<{ caughtUp: boolean; lagMs: number }> {
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (;;) {
    const replayed = await o.replayed();
    const elapsed = Math.max(0, now() - o.since);
    if (replayed >= o.target) return { caughtUp: true, lagMs: elapsed };
    if (elapsed > o.boundMs) return { caughtUp: false, lagMs: elapsed };
    await sleep(Math.min(o.pollMs, o.boundMs - elapsed + 1));
  }
}
