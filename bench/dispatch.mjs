#!/usr/bin/env node
/**
 * End-to-end SMS dispatch throughput through the simulator, on the real api, worker(s) and
 * simulator processes of a fresh `mensageria_bench_dispatch` database: accept N messages through
 * POST /api/sms/messages (1,000 recipients a request, 2 in parallel), then time until every one is
 * final (delivered / failed / unavailable, i.e. submitted, recorded `sent` and its signed receipt
 * applied). Once with 1 worker, once with 2. Prints accept msg/s, end-to-end msg/s (from the first
 * accept to the last final status) and dispatch msg/s (from the first to the last `sent_at`).
 * Run: `node bench/dispatch.mjs` (PostgreSQL and Redis as for npm start). BENCH_MESSAGES (20000),
 * BENCH_WORKERS ("1,2,4"), BENCH_CONCURRENCY (DISPATCH_CONCURRENCY, 32), SIMULATOR_DELAY_MS (50).
 * BENCH_REDIS=cluster runs it on a Redis Cluster of its own (3 masters, 3 replicas on loopback,
 * tests/support/redis-cluster.mjs) with the job streams in BENCH_SHARDS (3) shards (ADR 028).
 * Scaling efficiency = (msg/s with n workers / msg/s with the first row's) / (n / its workers).
 */
import { onExit, freePort, sleep, up } from "./lib.mjs";
import { benchStack } from "./stack.mjs";
import { RedisCluster } from "../tests/support/redis-cluster.mjs";

const N = Number(process.env.BENCH_MESSAGES ?? 20000);
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2,4").split(",").map(Number);
const dbName = "mensageria_bench_dispatch";
const cluster = process.env.BENCH_REDIS === "cluster" ? await RedisCluster.start() : null;
if (cluster) onExit(() => void cluster.stop());

const simPort = await freePort();
const { env, db, api, token, start, finish } = await benchStack(dbName, "dispatch", {
  ...(cluster ? { REDIS_URL: cluster.url, STREAM_SHARDS: process.env.BENCH_SHARDS ?? "3" } : {}),
  SIMULATOR_PORT: String(simPort),
  SIMULATOR_URL: `http://127.0.0.1:${simPort}`,
  SIMULATOR_DELAY_MS: process.env.SIMULATOR_DELAY_MS ?? "50",
  DISPATCH_CONCURRENCY: process.env.BENCH_CONCURRENCY ?? "32",
  OUTBOX_POLL_MS: "50",
});
start("api/simulator/server.ts");
await up(`http://127.0.0.1:${simPort}/health`);
const [{ account_id: accountId }] = (await db.query(`SELECT m.account_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1`)).rows;

let serial = 0;
/** The demo tenant's seeded short code (seeds/demo.ts): a send may only use the account's own senders (api/sms/senders.ts). */
const DEMO_SHORT_CODE = "29094";
const results = [];
for (const workers of WORKERS) {
  await db.query("UPDATE account_balances SET balance = 1000000000 WHERE account_id = $1", [accountId]);
  const ws = Array.from({ length: workers }, () => start("api/worker.ts"));
  await sleep(1500);
  const t0 = Date.now();
  const ids = [];
  const batches = Array.from({ length: Math.ceil(N / 1000) }, (_, i) => Math.min(1000, N - i * 1000));
  for (let i = 0; i < batches.length; i += 2) {
    const answers = await Promise.all(
      batches
        .slice(i, i + 2)
        .map((n) =>
          api(
            "/api/sms/messages",
            { to: Array.from({ length: n }, () => `+55119${String(10000000 + serial++).padStart(8, "0")}`), body: "Bench de envio", from: DEMO_SHORT_CODE },
            token,
          ),
        ),
    );
    for (const a of answers) for (const m of a.data) ids.push(m.id);
  }
  const accepted = Date.now();
  for (;;) {
    const { rows } = await db.query(
      "SELECT count(*) FILTER (WHERE status IN ('delivered','failed','unavailable')) AS final, min(sent_at) AS first, max(sent_at) AS last FROM messages WHERE id = ANY($1::uuid[])",
      [ids],
    );
    if (Number(rows[0].final) === ids.length) {
      const end = Date.now();
      const dispatchSeconds = (rows[0].last - rows[0].first) / 1000;
      results.push({
        workers,
        messages: ids.length,
        acceptPerSec: Math.round(ids.length / ((accepted - t0) / 1000)),
        endToEndSeconds: (end - t0) / 1000,
        endToEndPerSec: Math.round(ids.length / ((end - t0) / 1000)),
        dispatchPerSec: Math.round(ids.length / dispatchSeconds),
      });
      break;
    }
    if (Date.now() - t0 > 600_000) throw new Error("not finished in 10 minutes");
    await sleep(250);
  }
  for (const w of ws) w.kill("SIGTERM");
  await sleep(1000);
}

const redisLabel = cluster ? `Redis Cluster 3+3, ${env.STREAM_SHARDS} stream shards` : "one Redis server";
console.log(`\nSMS dispatch end to end (${N} messages, ${redisLabel}, DISPATCH_CONCURRENCY ${env.DISPATCH_CONCURRENCY}, simulator delay ${env.SIMULATOR_DELAY_MS} ms)\n`);
console.log("| workers | messages | accept msg/s | end-to-end s | end-to-end msg/s | dispatch msg/s (sent_at) | scaling efficiency |");
console.log("|---:|---:|---:|---:|---:|---:|---:|");
const base = results[0];
for (const r of results) {
  const efficiency = (r.dispatchPerSec / base.dispatchPerSec / (r.workers / base.workers)) * 100;
  console.log(`| ${r.workers} | ${r.messages} | ${r.acceptPerSec} | ${r.endToEndSeconds.toFixed(1)} | ${r.endToEndPerSec} | ${r.dispatchPerSec} | ${efficiency.toFixed(0)} % |`);
}
const sim = await (await fetch(`http://127.0.0.1:${simPort}/v1/stats`, { headers: { Authorization: `Bearer ${env.SIMULATOR_API_KEY}` } })).json();
console.log(
  `\nsimulator: ${sim.accepted} submits accepted (${sim.unique} unique), ${sim.throttled} throttled, ${sim.receiptsPosted} receipts posted in ${sim.receiptAttempts} attempts`,
);
await cluster?.stop();
await finish();
