/**
 * The dispatch rate limiter's script (api/dispatch/rate-limit.ts) on whatever Redis the run uses:
 * on the suite's Redis Cluster pass its buckets' keys land on every master, and the script must
 * run on each (EVALSHA, else EVAL where that master does not have it cached). A SCRIPT LOAD, which
 * has no key to route by, reaches one random master: buckets on the others answered NOSCRIPT and
 * their messages' dispatch jobs died (seen in a CI cluster pass).
 */
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.REDIS_PREFIX = `${inject("redisPrefix")}rate-script:`;
const { acquire, pause, waitForSlot } = await import("../../api/dispatch/rate-limit");
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

  it("lanes woken late together by a starved event loop take new slots instead of bursting", async () => {
    // 5 a second: one slot every 200 ms. Six lanes reserve 0, 200 … 1000 ms; then the event loop is
    // blocked for 1.5 s, so all their timers fall due at once. Submitting then would be six at once.
    const bucket = `sms:simulator:late-${Date.now()}`;
    const lanes = 6;
    let sleeping = 0;
    let allReserved!: () => void;
    const reserved = new Promise<void>((r) => {
      allReserved = r;
    });
    const sleep = (ms: number) => {
      if (++sleeping === lanes - 1) allReserved();
      return new Promise<void>((r) => setTimeout(r, ms));
    };
    const submits: number[] = [];
    const running = Array.from({ length: lanes }, async () => {
      await waitForSlot(bucket, 5, 1, sleep);
      submits.push(Date.now());
    });
    await reserved;
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      // a starved worker: nothing else runs
    }
    await Promise.all(running);
    // At most burst + rate × window (+1 for timer jitter) in any 400 ms.
    const busiest = Math.max(...submits.map((t) => submits.filter((u) => u >= t && u < t + 400).length));
    expect(busiest, JSON.stringify(submits.map((t) => t - submits[0]))).toBeLessThanOrEqual(4);
  });
});
