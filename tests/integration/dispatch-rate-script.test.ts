/**
 * The dispatch rate limiter's script (api/dispatch/rate-limit.ts) on whatever Redis the run uses:
 * on the suite's Redis Cluster pass its buckets' keys land on every master, and the script must
 * run on each (EVALSHA, else EVAL where that master does not have it cached). A SCRIPT LOAD, which
 * has no key to route by, reaches one random master: buckets on the others answered NOSCRIPT and
 * their messages' dispatch jobs died (seen in a CI cluster pass).
 */
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.REDIS_PREFIX = `${inject("redisPrefix")}rate-script:`;
const { acquire, pause } = await import("../../api/dispatch/rate-limit");
const { closeRedis } = await import("../../api/lib/redis");

afterAll(async () => {
  await closeRedis();
});

describe("dispatch rate limiter script", () => {
  it("reserves slots for buckets whose keys live on every node", async () => {
    for (let i = 0; i < 48; i++) {
      const bucket = `sms:simulator:T${i}`;
      expect(await acquire(bucket, 1000, 10)).toBe(0);
      await pause(bucket, 1);
    }
  });
});
