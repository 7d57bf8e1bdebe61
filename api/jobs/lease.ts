/**
 * Sweeps that must run once across every worker (issue 15): a lease in Redis per sweep name.
 * A run first takes the lease (SET NX PX for the sweep's period); a worker that finds it taken
 * skips that period. The lease is kept (extended every half period) while the run lasts and not
 * released after it, so each period has one run whoever's timer fires first; a worker that dies
 * mid-run lets go when its lease expires, and another takes the next period. The sweeps stay
 * safe if two did run (SKIP LOCKED, conditional writes): the lease saves the duplicate work and
 * the duplicate calls to providers, it is not what keeps the data right.
 */
import { randomBytes } from "node:crypto";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";
import { every, type Every } from "./every";

const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

export type Lease = { extend(ms: number): Promise<boolean> };

/** Takes the lease `name` for `ms` unless someone holds it; null when taken. */
export async function tryLease(name: string, ms: number): Promise<Lease | null> {
  const k = keys.lease(name);
  const token = randomBytes(12).toString("hex");
  const ok = await redis().set(k, token, "PX", Math.max(1, Math.ceil(ms)), "NX");
  if (ok !== "OK") return null;
  return { extend: async (more) => (await redis().eval(EXTEND, 1, k, token, String(Math.max(1, Math.ceil(more))))) === 1 };
}

/** `every(name, ms, fn)`, run by one worker per period across all of them (see above). */
export function everyOnce(name: string, ms: number, fn: () => Promise<unknown> | unknown, log?: (msg: string, e: unknown) => void): Every {
  return every(
    name,
    ms,
    async () => {
      // A little shorter than the period: the holder's own next tick (one period after this one)
      // must find it free, or the sweep would run every other period.
      const lease = await tryLease(name, Math.max(1, ms - Math.min(ms / 10, 1000)));
      if (!lease) return;
      const keep = setInterval(() => void lease.extend(ms).catch(() => undefined), Math.max(50, ms / 2));
      try {
        await fn();
      } finally {
        clearInterval(keep);
      }
    },
    log,
  );
}
