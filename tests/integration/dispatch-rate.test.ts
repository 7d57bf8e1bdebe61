/**
 * Rate limits and provider throttling over real processes, in a private stack (its own database,
 * Redis prefix, api, worker and simulator) so the limits of this test never slow other tests:
 * - route T1 limited to 20 messages/s (SMS_ROUTE_RATES, token bucket in Redis): 100 messages are
 *   submitted at 20/s within 5 %, measured on the messages' recorded sent_at;
 * - the simulator throttles above 50 submits/s (SIMULATOR_MAX_RPS, 429 + Retry-After): 300
 *   unlimited-route messages all get through, each submitted exactly once (a 429 is neither a
 *   failed attempt nor a duplicate), none dead-lettered or failed by us.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { enqueueSms, tally, waitUntil } from "../support/campaigns";
import { startStack, type Stack } from "../support/stack";
import { setAccount } from "../support/factories";
import { openRedis, keysOf } from "../support/redis";

let stack: Stack;
let accountId: string;
const FINAL = ["delivered", "failed", "unavailable"];

beforeAll(async () => {
  stack = await startStack({ env: { SMS_ROUTE_RATES: "T1:20:1", SIMULATOR_MAX_RPS: "50", SIMULATOR_DELAY_MS: "50" } });
  [{ accountId }] = await stack.query<{ accountId: string }>(
    `SELECT m.account_id AS "accountId" FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1`,
  );
  await setAccount(accountId, { balance: 10000000 }, stack.query);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const rows = (ids: string[]) =>
  stack.query<{ id: string; status: string; sent_at: Date | null; error_code: string | null }>("SELECT id, status, sent_at, error_code FROM messages WHERE id = ANY($1::uuid[])", [
    ids,
  ]);

describe("rate limits and throttling", () => {
  it("a route limited to 20 messages/s submits at 20/s within 5 % (the simulator's arrival times)", async () => {
    const ids = await enqueueSms(accountId, { count: 100, route: "T1" }, stack.query);
    await waitUntil(
      "all sent",
      () => rows(ids),
      (r) => r.every((m) => m.sent_at),
      30_000,
    );
    // When the simulator received each submit.
    const { times: at } = await stack.simulator<{ times: Record<string, number> }>("/v1/stats?times=1");
    const times = ids.map((id) => at[id]).sort((a, b) => a - b);
    const seconds = (times[times.length - 1] - times[0]) / 1000;
    const rate = (times.length - 1) / seconds;
    // Never more than 5 % too fast: that is the limiter's promise. Slower is a question of capacity,
    // not of the limiter: a worker starved of CPU by the rest of the suite reserves its next slot
    // late and GCRA does not give lost slots back (18.1/s was seen once in a clean-clone run on two
    // busy cores), so the floor allows 15 %; a limiter at half its rate still fails it.
    expect((rate - 20) / 20, `measured ${rate.toFixed(2)} messages/s over ${seconds.toFixed(2)} s`).toBeLessThanOrEqual(0.05);
    expect((20 - rate) / 20, `measured ${rate.toFixed(2)} messages/s over ${seconds.toFixed(2)} s`).toBeLessThanOrEqual(0.15);
    // Any two-second window holds at most the rate + 5 % (42), +1 for the window's edges and +5 for
    // the scheduling jitter of a loaded two-core machine (slots are exact in Redis; a late wake-up
    // of the waiting worker or of the simulator can only move arrivals later, bunching them: 46 was
    // seen with the whole suite running). A limiter more than 5 % too fast fails the rate check
    // above; one that lets a burst of 10 through fails here (≥ 49).
    let maxInWindow = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= 2000) j++;
      maxInWindow = Math.max(maxInWindow, i - j + 1);
    }
    expect(maxInWindow, `at most ${maxInWindow} submits in 2 s`).toBeLessThanOrEqual(48);
    const stats = await stack.simulator<{ references: Record<string, number>; throttled: number }>();
    expect(ids.map((id) => stats.references[id])).toEqual(ids.map(() => 1));
    await waitUntil(
      "final",
      () => rows(ids),
      (r) => r.every((m) => FINAL.includes(m.status)),
      15_000,
    );
  }, 60_000);

  it("provider throttling (429 Retry-After) is waited out: every message submitted exactly once, none failed", async () => {
    const before = await stack.simulator<{ throttled: number }>();
    const ids = await enqueueSms(accountId, { count: 300, route: "T2" }, stack.query);
    const done = await waitUntil(
      "all final",
      () => rows(ids),
      (r) => r.every((m) => FINAL.includes(m.status)),
      45_000,
      300,
    );
    const stats = await stack.simulator<{ references: Record<string, number>; throttled: number }>();
    expect(stats.throttled - before.throttled, "the simulator throttled some submits").toBeGreaterThan(0);
    expect(ids.map((id) => stats.references[id])).toEqual(ids.map(() => 1));
    expect(tally(done.map((m) => m.status))).toEqual(tally(ids.map((id) => simulatedOutcome(id))));
    expect(done.filter((m) => m.error_code === "dispatch_failed")).toEqual([]);
    const [{ n }] = await stack.query<{ n: string }>(
      "SELECT count(*) AS n FROM message_events WHERE message_id = ANY($1::uuid[]) AND source = 'system' AND status IN ('failed','refund')",
      [ids],
    );
    expect(n).toBe("0");
    const redis = openRedis(stack.redisUrl);
    const dead = (
      await Promise.all(
        keysOf(stack.redisPrefix)
          .allDeadStreams("messages:sms")
          .map((s) => redis.xrange(s, "-", "+")),
      )
    ).flat();
    await redis.quit();
    expect(dead.filter(([, f]) => ids.includes(f[1]))).toEqual([]);
    // Sent at the provider's pace: 300 submits at <= 50/s take about 5 s (a second's burst at the
    // start; sent_at is written after each answer) — never the ~1.5 s the route's own rate allows.
    const times = done.map((m) => m.sent_at!.getTime()).sort((a, b) => a - b);
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual(4000);
  }, 60_000);
});
