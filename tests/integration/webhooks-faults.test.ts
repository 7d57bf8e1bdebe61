/**
 * Redis losing its memory (a restart without persistence, a flush) in a private stack on a
 * DEDICATED `redis-server --save ''` (issue 12 items 1 and 2):
 * - customer webhook events whose batches the relay had published are re-announced from the
 *   database and reach the customer's endpoint (ids = the event ids), none lost;
 * - after a kill -9 and restart of Redis, the SMS dispatch and webhook consumers recreate their
 *   groups and republish what the lost streams held at once, far below DISPATCH_RECOVER_SECONDS;
 * and (item 7) an endpoint that accepts connections and never answers does not delay the
 * deliveries to another endpoint.
 */
import { createServer, type Server } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisServer, startStack, type Stack } from "../support/stack";
import { setAccount } from "../support/factories";

let redisServer: RedisServer;
let stack: Stack;
let token: string;
let receiver: Server;
let receiverUrl: string;
/** webhook-id → times received (the receiver's idempotency key is the event id). */
const received = new Map<string, number>();
let serial = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      received.set(id, (received.get(id) ?? 0) + 1);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  redisServer = await RedisServer.start();
  stack = await startStack({ redisUrl: redisServer.url, env: { SIMULATOR_DELAY_MS: "300", DISPATCH_SWEEP_SECONDS: "1" } });
  const owner = await stack.signInDemoOwner();
  token = owner.token;
  const accountId = owner.accountId;
  await setAccount(accountId, { balance: 100000000 }, stack.query);
  const ep = await stack.api("/api/webhooks", { token, body: { url: receiverUrl, events: ["*"], description: "faults" } });
  expect(ep.status, JSON.stringify(ep.body)).toBe(201);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await redisServer?.kill();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

/** Restarts the stack's worker(s) with `env` (the stack's processes read it when spawned). */
async function restartWorker(env: Record<string, string>) {
  for (const w of stack.workers) await stack.kill(w, "SIGTERM");
  Object.assign(stack.env, env);
  stack.startWorker();
}

async function sendSms(n: number): Promise<string[]> {
  const to = Array.from({ length: n }, () => `+55219${String(20000000 + serial++).padStart(8, "0")}`);
  const res = await stack.api("/api/sms/messages", { token, body: { to, body: "Seu pedido saiu" } });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return res.body.data.map((m: { id: string }) => m.id);
}

/** The ids of the webhook events recorded for these messages (message.status_changed, applied changes). */
const eventIds = async (ids: string[]) =>
  (
    await stack.query<{ id: string }>(
      `SELECT 'evt_ms_' || public_id AS id FROM message_events WHERE message_id = ANY($1::uuid[]) AND COALESCE(payload->>'applied', 'true') <> 'false'`,
      [ids],
    )
  ).map((r) => r.id);
const missing = async (ids: string[]) => (await eventIds(ids)).filter((id) => !received.has(id));
const sentCount = async (ids: string[]) =>
  Number((await stack.query<{ n: string }>("SELECT count(*) AS n FROM messages WHERE id = ANY($1::uuid[]) AND provider_message_id IS NOT NULL", [ids]))[0].n);

describe("webhook events and stream consumers when Redis loses its data", () => {
  it("re-announces event batches the relay had published when Redis lost them: every event reaches the endpoint, with its event id", async () => {
    await restartWorker({ DISPATCH_RECOVER_SECONDS: "3" });
    for (const w of stack.workers) await stack.kill(w, "SIGTERM");
    const ids = await sendSms(1000);
    const queued = await eventIds(ids);
    expect(queued).toHaveLength(1000);
    // The state a Redis restart leaves behind: the relay had published these batches (and marked
    // their outbox rows), then Redis lost the stream, its group and the entries. (SQL: it is the
    // relay's own statement, replayed, not test data.)
    const published = await stack.query(`UPDATE outbox SET published_at = now() WHERE topic = 'webhooks:events' AND published_at IS NULL RETURNING id`);
    expect(published.length).toBeGreaterThan(0);
    const r = new Redis(redisServer.url);
    await r.flushall();
    await r.quit();
    stack.startWorker();
    // Every lost event reaches the endpoint at least once, its webhook-id the event id.
    await expect.poll(() => queued.filter((id) => !received.has(id)), { timeout: 30_000, interval: 250 }).toEqual([]);
    // And the events made since (sent, receipts) as well.
    await expect.poll(() => missing(ids), { timeout: 60_000, interval: 250 }).toEqual([]);
  }, 120_000);

  it("after kill -9 and restart of Redis, SMS dispatch and webhooks resume within seconds (not DISPATCH_RECOVER_SECONDS = 120)", async () => {
    await restartWorker({ DISPATCH_RECOVER_SECONDS: "120", DISPATCH_CONCURRENCY: "8" });
    const ids = await sendSms(300);
    await expect.poll(() => sentCount(ids), { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(40);
    await redisServer.kill();
    const atKill = await sentCount(ids);
    expect(atKill).toBeLessThan(ids.length);
    await redisServer.start();
    // The consumers see NOGROUP, recreate their groups and republish the lost entries at once.
    await expect.poll(() => sentCount(ids), { timeout: 5_000, interval: 100 }).toBeGreaterThan(atKill);
    await expect.poll(() => sentCount(ids), { timeout: 30_000, interval: 250 }).toBe(ids.length);
    // Every status change recorded for these messages reaches the endpoint (queued, sent and the receipts' ones).
    await expect.poll(async () => (await eventIds(ids)).length, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(2 * ids.length);
    await expect.poll(() => missing(ids), { timeout: 60_000, interval: 250 }).toEqual([]);
  }, 180_000);

  it("an endpoint that accepts connections and never answers does not delay deliveries to another endpoint", async () => {
    await restartWorker({ WEBHOOK_TIMEOUT_MS: "10000" });
    // The dead endpoint: accepts, reads, never answers (each POST waits for WEBHOOK_TIMEOUT_MS).
    const hanging = new Set<Socket>();
    const dead = createTcpServer((socket) => {
      hanging.add(socket);
      socket.on("data", () => undefined);
      socket.on("close", () => hanging.delete(socket));
    });
    await new Promise<void>((r) => dead.listen(0, "127.0.0.1", () => r()));
    const ep = await stack.api("/api/webhooks", {
      token,
      body: { url: `http://127.0.0.1:${(dead.address() as AddressInfo).port}/dead`, events: ["*"], description: "dead" },
    });
    expect(ep.status, JSON.stringify(ep.body)).toBe(201);
    try {
      const started = Date.now();
      const ids = await sendSms(200);
      const queued = await eventIds(ids);
      expect(queued).toHaveLength(200);
      // Every queued event reaches the live endpoint well within one timeout of the dead one...
      await expect.poll(() => queued.filter((id) => !received.has(id)).length, { timeout: 8_000, interval: 100 }).toBe(0);
      const took = Date.now() - started;
      // ...while the dead endpoint is still holding its POSTs (none of them has timed out yet).
      expect(hanging.size).toBeGreaterThan(0);
      const [{ n }] = await stack.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1`, [
        ep.body.data.id,
      ]);
      expect(Number(n), `the live endpoint took ${took} ms`).toBe(0);
    } finally {
      await stack.api(`/api/webhooks/${ep.body.data.id}`, { token, method: "DELETE" });
      for (const s of hanging) s.destroy();
      await new Promise<void>((r) => dead.close(() => r()));
    }
  }, 120_000);
});
