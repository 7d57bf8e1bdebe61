#!/usr/bin/env node
/**
 * Live event fan-out (issue 5): N agents of one account on websockets to one realtime process;
 * events are persisted to the account's live stream (the XADD publishLive does) at a steady rate,
 * and each client's receipt is timed against the moment before the XADD (same machine, same
 * clock). Prints p50/p95/p99 latency and deliveries per second for 500 and 2,000 clients, then a
 * burst (events as fast as Redis takes them) for the throughput ceiling.
 * Run: `node bench/realtime.mjs` (PostgreSQL and Redis as for npm start). BENCH_CLIENTS=500,2000
 * BENCH_RATE=20 (events/s) BENCH_SECONDS=10 BENCH_BURST=500 override the defaults; BENCH_PROCESSES=2
 * spreads the clients over two realtime processes behind the same Redis (the horizontal setup).
 */
import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import pg from "pg";
import { WebSocket } from "undici";
import { benchPlatform, freePort, redisKey, startBun, up } from "./lib.mjs";

const sizes = (process.env.BENCH_CLIENTS ?? "500,2000").split(",").map(Number);
const rate = Number(process.env.BENCH_RATE ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const burst = Number(process.env.BENCH_BURST ?? 500);
const processes = Math.max(1, Number(process.env.BENCH_PROCESSES ?? 1));
const prefix = `bench-rt:${Date.now().toString(36)}:`;

const { env } = await benchPlatform("mensageria_bench", prefix);
const ports = [];
for (let i = 0; i < processes; i++) {
  const port = await freePort();
  startBun("realtime/server.ts", { ...env, REALTIME_PORT: String(port) });
  await up(`http://127.0.0.1:${port}/realtime/health`);
  ports.push(port);
}

const db = new pg.Client({ connectionString: env.DATABASE_URL });
await db.connect();
const redis = new Redis(env.REDIS_URL);
const [{ account_id: accountId }] = (await db.query(`SELECT m.account_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example'`)).rows;
const max = Math.max(...sizes);
// Agents of the demo account (one live connection per person is the rule).
await db.query(`INSERT INTO users (email, first_name) SELECT 'bench-agent-' || i || '@bench.example', 'Agent ' || i FROM generate_series(1, $1) i ON CONFLICT (email) DO NOTHING`, [
  max,
]);
await db.query(
  `INSERT INTO memberships (account_id, user_id, role, is_agent)
   SELECT $1, id, 'agent', true FROM users WHERE email LIKE 'bench-agent-%@bench.example' ON CONFLICT (account_id, user_id) DO NOTHING`,
  [accountId],
);
const agents = (await db.query(`SELECT id FROM users WHERE email LIKE 'bench-agent-%@bench.example' ORDER BY email LIMIT $1`, [max])).rows.map((r) => r.id);
const stream = redisKey(env, "accountLiveStream", accountId);
const ticketKey = redisKey(env, "realtimeTicket", "TICKET");

async function ticket(userId) {
  const t = randomBytes(24).toString("base64url");
  await redis.set(ticketKey.replace("TICKET", t), JSON.stringify({ userId, accountId }), "EX", 3600);
  return t;
}

const now = () => performance.timeOrigin + performance.now();
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function connectAll(n) {
  const clients = [];
  for (let i = 0; i < n; i += 100) {
    const batch = await Promise.all(
      agents.slice(i, Math.min(n, i + 100)).map(async (userId, j) => {
        const port = ports[(i + j) % ports.length];
        const ws = new WebSocket(`ws://127.0.0.1:${port}/realtime/ws?ticket=${await ticket(userId)}`);
        const c = { ws, received: 0, latencies: [] };
        await new Promise((res, rej) => {
          ws.addEventListener("message", (ev) => {
            const f = JSON.parse(ev.data);
            if (f.type === "welcome") return res();
            if (f.type === "event" && f.data.t) {
              c.received++;
              c.latencies.push(now() - f.data.t);
            } else if (f.type !== "ping") rej(new Error(JSON.stringify(f)));
          });
          ws.addEventListener("close", (ev) => rej(new Error(`closed ${ev.code}`)));
        });
        return c;
      }),
    );
    clients.push(...batch);
  }
  return clients;
}

const publish = (seq) =>
  redis.xadd(stream, "MAXLEN", "~", "50000", "*", "event", "send", "room_id", "", "to", "*", "data", JSON.stringify({ seq, t: now() }), "at", String(Date.now()));

async function drain(clients, expected, ms = 60_000) {
  const end = Date.now() + ms;
  while (clients.some((c) => c.received < expected) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return clients.reduce((a, c) => a + c.received, 0);
}

const rows = [];
for (const n of sizes) {
  const clients = await connectAll(n);
  await new Promise((r) => setTimeout(r, 500));
  // Steady: `rate` events per second for `seconds`.
  const total = rate * seconds;
  const t0 = Date.now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await publish(i);
  }
  const delivered = await drain(clients, total);
  const elapsed = (Date.now() - t0) / 1000;
  const lat = clients.flatMap((c) => c.latencies).sort((a, b) => a - b);
  // Burst: `burst` events back to back; deliveries per second until every client has them all.
  for (const c of clients) c.received = 0;
  const b0 = now();
  const pipe = redis.pipeline();
  for (let i = 0; i < burst; i++)
    pipe.xadd(stream, "MAXLEN", "~", "50000", "*", "event", "send", "room_id", "", "to", "*", "data", JSON.stringify({ seq: i, t: now() }), "at", String(Date.now()));
  await pipe.exec();
  const burstDelivered = await drain(clients, burst);
  const burstSecs = (now() - b0) / 1000;
  rows.push({
    clients: n,
    events: total,
    deliveries: delivered,
    expected: total * n,
    p50: pct(lat, 50),
    p95: pct(lat, 95),
    p99: pct(lat, 99),
    max: lat.at(-1),
    steadyPerSec: Math.round(delivered / elapsed),
    burstPerSec: Math.round(burstDelivered / burstSecs),
    burstComplete: burstDelivered === burst * n,
  });
  for (const c of clients) c.ws.close();
  await new Promise((r) => setTimeout(r, 1000));
}

const f = (x) => x.toFixed(1);
console.log(
  `\nLive fan-out: ${processes === 1 ? "one realtime process" : `${processes} realtime processes (clients spread evenly)`}, agents of one account on websockets (${rate} events/s for ${seconds} s, then a burst of ${burst})\n`,
);
console.log("| clients | events | deliveries (expected) | p50 ms | p95 ms | p99 ms | max ms | deliveries/s steady | deliveries/s burst |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(
    `| ${r.clients} | ${r.events} | ${r.deliveries} (${r.expected}) | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${f(r.max)} | ${r.steadyPerSec} | ${r.burstPerSec}${r.burstComplete ? "" : " (incomplete)"} |`,
  );
}
await redis.del(stream);
await db.end();
await redis.quit();
process.exit(0);
