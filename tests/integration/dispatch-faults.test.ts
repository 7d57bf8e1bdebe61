/**
 * Fault tests of the message pipeline over real processes, in a private stack (its own database,
 * api, worker and simulator) on a DEDICATED `redis-server --save ''` (nothing on disk, like ours),
 * so killing processes and Redis never touches the run's shared ones:
 * - kill -9 the worker in the middle of a 20,000-message campaign and start a new one;
 * - kill -9 Redis (streams, consumer groups and pending entries vanish) in the middle of a
 *   campaign and start it again on the same port.
 * After each: every message reached the simulator exactly once (its per-reference submit counts),
 * none is lost (each has the provider's id, then its predicted final status), the balance is
 * exactly the accepted price (nothing refunded, nothing charged twice) and the campaign completes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { balanceOf, createCampaign, tally, waitUntil } from "../support/campaigns";
import { RedisServer, startStack, type Stack } from "../support/stack";
import { setAccount, setMessages } from "../support/factories";

/** How long the Redis outage of the mid-campaign test lasts: a deliberate fault duration, not a wait for something. */
const REDIS_OUTAGE_MS = 1000;

let redisServer: RedisServer;
let stack: Stack;
let token: string;
let accountId: string;
let serial = 0;

beforeAll(async () => {
  redisServer = await RedisServer.start();
  stack = await startStack({
    redisUrl: redisServer.url,
    env: { SIMULATOR_DELAY_MS: "300", DISPATCH_CONCURRENCY: "64", DISPATCH_RECOVER_SECONDS: "3" },
  });
  const owner = await stack.signInDemoOwner();
  token = owner.token;
  accountId = owner.accountId;
  await setAccount(accountId, { balance: 100000000 }, stack.query);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await redisServer?.kill();
});

/**
 * Accepts `n` messages through POST /api/sms/messages (1,000 a request) into a new campaign
 * (fixture row + campaign_id) while no worker runs, then starts one: the whole campaign is then
 * in flight at once, and a fault injected after a few thousand submits lands in its middle.
 */
async function campaign(n: number) {
  for (const w of stack.workers) await stack.kill(w, "SIGTERM");
  const id = await createCampaign(accountId, { total: n, name: `Falhas ${n}` }, stack.query);
  const ids: string[] = [];
  let charged = 0;
  for (let done = 0; done < n; done += 1000) {
    const to = Array.from({ length: Math.min(1000, n - done) }, () => `+55219${String(10000000 + serial++).padStart(8, "0")}`);
    const res = await stack.api("/api/sms/messages", { token, body: { to, body: "Promoção relâmpago" } });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const batch = res.body.data.map((m: { id: string }) => m.id);
    await setMessages(batch, { campaignId: id }, stack.query);
    ids.push(...batch);
    charged += res.body.total_price;
  }
  stack.startWorker();
  return { id, ids, charged };
}

const sentCount = async (ids: string[]) =>
  Number((await stack.query<{ n: string }>("SELECT count(*) AS n FROM messages WHERE id = ANY($1::uuid[]) AND provider_message_id IS NOT NULL", [ids]))[0].n);

async function assertExactlyOnce(c: { id: string; ids: string[]; charged: number }, balanceBefore: number) {
  // None lost: every message reaches the provider…
  await waitUntil(
    "all submitted",
    () => sentCount(c.ids),
    (n) => n === c.ids.length,
    300_000,
    500,
  );
  // …exactly once: the simulator counted one submit per message id.
  const stats = await stack.simulator<{ references: Record<string, number> }>();
  const counts = tally(c.ids.map((id) => String(stats.references[id] ?? 0)));
  expect(counts).toEqual({ "1": c.ids.length });
  const [ev] = await stack.query<{ sent: string; refunds: string; distinct_sent: string }>(
    `SELECT count(*) FILTER (WHERE status = 'sent') AS sent, count(DISTINCT message_id) FILTER (WHERE status = 'sent') AS distinct_sent,
            count(*) FILTER (WHERE status = 'refund') AS refunds
     FROM message_events WHERE message_id = ANY($1::uuid[]) AND source = 'system'`,
    [c.ids],
  );
  expect(ev).toEqual({ sent: String(c.ids.length), distinct_sent: String(c.ids.length), refunds: "0" });
  // Balance: exactly what was accepted, nothing refunded or charged twice.
  expect(await balanceOf(accountId, stack.query)).toBe(balanceBefore - c.charged);
  const [{ sum }] = await stack.query<{ sum: string }>("SELECT sum(price) AS sum FROM messages WHERE id = ANY($1::uuid[])", [c.ids]);
  expect(Number(sum)).toBe(c.charged);
  // Every receipt applied: the exact per-status counts the simulator's mix predicts, and the campaign completes.
  const expected = tally(c.ids.map((id) => simulatedOutcome(id)));
  const byStatus = async () =>
    Object.fromEntries(
      (await stack.query<{ status: string; n: string }>("SELECT status, count(*) AS n FROM messages WHERE campaign_id = $1 GROUP BY status", [c.id])).map((r) => [
        r.status,
        Number(r.n),
      ]),
    );
  await waitUntil("final statuses", byStatus, (s) => JSON.stringify(Object.entries(s).sort()) === JSON.stringify(Object.entries(expected).sort()), 300_000, 1000);
  await waitUntil(
    "campaign completed",
    () => stack.query<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [c.id]),
    (r) => r[0].status === "completed",
    15_000,
  );
}

describe("dispatch fault tests (private stack, dedicated Redis)", () => {
  it("kill -9 of the worker in the middle of a 20,000-message campaign: each message submitted exactly once, none lost, balance exact", async () => {
    const before = await balanceOf(accountId, stack.query);
    const c = await campaign(20_000);
    const sentBefore = await waitUntil(
      "mid-campaign",
      () => sentCount(c.ids),
      (n) => n >= 3000,
      60_000,
      100,
    );
    expect(sentBefore).toBeLessThan(c.ids.length);
    await stack.kill(stack.workers[stack.workers.length - 1], "SIGKILL");
    const atKill = await sentCount(c.ids);
    expect(atKill).toBeLessThan(c.ids.length);
    stack.startWorker();
    await assertExactlyOnce(c, before);
    // The lost worker really left claimed messages behind (its pending entries were reclaimed).
    expect(atKill).toBeGreaterThanOrEqual(3000);
  }, 600_000);

  it("Redis killed and restarted (streams and groups gone) in the middle of a campaign: exactly once, none lost, balance exact", async () => {
    const before = await balanceOf(accountId, stack.query);
    const c = await campaign(10_000);
    await waitUntil(
      "mid-campaign",
      () => sentCount(c.ids),
      (n) => n >= 2000,
      60_000,
      100,
    );
    await redisServer.kill();
    const atKill = await sentCount(c.ids);
    expect(atKill).toBeLessThan(c.ids.length);
    await new Promise((r) => setTimeout(r, REDIS_OUTAGE_MS)); // the fault itself, on purpose: Redis stays down this long
    await redisServer.start();
    await assertExactlyOnce(c, before);
  }, 600_000);
});
