/**
 * Redis Cluster failover in the middle of a dispatch (issue 15, ADR 028): a private stack (api,
 * two workers, simulator) on its own local cluster of 3 masters and 3 replicas, job streams in 3
 * shards. 20,000 SMS are queued; once a part of them is final, the master holding shard 0 of
 * the SMS dispatch stream is killed (kill -9: its memory, and whatever it had not replicated yet,
 * is gone). Its replica takes over, and then every message reaches a final status, each was
 * submitted to the provider exactly once, and the balance moved by exactly the prices minus the
 * refunds, one refund at most per message: nothing lost, doubled or charged twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slotOf } from "../../api/lib/redis";
import { balanceOf, enqueueSms, waitUntil } from "../support/campaigns";
import { setAccount } from "../support/factories";
import { keysOf } from "../support/redis";
import { RedisCluster } from "../support/redis-cluster.mjs";
import { startStack, type Stack } from "../support/stack";

const MESSAGES = 20_000;
const PRICE = 8;
const FINAL = ["delivered", "failed", "unavailable"];

let cluster: RedisCluster;
let stack: Stack;
let accountId: string;

beforeAll(async () => {
  cluster = await RedisCluster.start();
  stack = await startStack({
    redisUrl: cluster.url,
    workers: 2,
    env: { STREAM_SHARDS: "3", SIMULATOR_DELAY_MS: "50", DISPATCH_CONCURRENCY: "32" },
  });
  [{ accountId }] = await stack.query<{ accountId: string }>(
    `SELECT m.account_id AS "accountId" FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1`,
  );
  await setAccount(accountId, { balance: 100_000_000 }, stack.query);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await cluster?.stop();
});

const counts = (ids: string[]) =>
  stack.query<{ final: number }>(`SELECT count(*) FILTER (WHERE status = ANY($2::text[]))::int AS final FROM messages WHERE id = ANY($1::uuid[])`, [ids, FINAL]);

describe("a Redis master dies in the middle of a 20,000-message dispatch", () => {
  it("its replica takes over; not one message is lost, doubled or charged twice", async () => {
    const before = await balanceOf(accountId, stack.query);
    const ids: string[] = [];
    for (let i = 0; i < MESSAGES / 5000; i++) ids.push(...(await enqueueSms(accountId, { count: 5000, route: "T2", price: PRICE }, stack.query)));
    expect(new Set(ids).size).toBe(MESSAGES);

    // Mid-dispatch: some final, most not.
    await waitUntil(
      "a part of the dispatch done",
      () => counts(ids),
      ([c]) => c.final >= 2000,
      120_000,
      100,
    );
    const victim = await cluster.masterOf(slotOf(keysOf(stack.redisPrefix).jobStream("messages:sms", 0)));
    const [{ final: atKill }] = await counts(ids);
    expect(atKill, "killed in the middle, not after the end").toBeLessThan(MESSAGES);
    await cluster.kill(victim);
    await cluster.waitHealthy(30_000);
    expect(await cluster.masters(), "a replica took over").not.toContain(victim);

    await waitUntil(
      "every message final",
      () => counts(ids),
      ([c]) => c.final === MESSAGES,
      240_000,
      500,
    );

    // Doubled: the simulator counts the submits of each message (its reference is our id).
    const stats = await stack.simulator<{ references: Record<string, number> }>();
    const submits = ids.map((id) => stats.references[id] ?? 0);
    expect(submits.filter((n) => n > 1).length, "messages submitted twice").toBe(0);
    expect(submits.filter((n) => n === 0).length, "messages never submitted").toBe(0);

    // Charged twice: one refund at most per message, and the balance moved by prices - refunds.
    const [refund] = await stack.query<{ sum: string; n: number; distinct: number }>(
      `SELECT coalesce(sum((payload->>'price')::bigint), 0)::bigint AS sum, count(*)::int AS n, count(DISTINCT message_id)::int AS distinct
       FROM message_events WHERE status = 'refund' AND message_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(refund.n).toBe(refund.distinct);
    const after = await balanceOf(accountId, stack.query);
    expect(before - after).toBe(MESSAGES * PRICE - Number(refund.sum));
  }, 420_000);
});
