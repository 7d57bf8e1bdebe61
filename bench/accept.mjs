#!/usr/bin/env node
/**
 * Accepted SMS per second through the API (issue 4 target: ≥ 5,000 messages/s in bulk on 2 cores).
 * Runs the real api process (production mode) on a fresh `mensageria_bench_accept` database, signs
 * in as the demo owner and gives the demo account a large balance (bench only), then for
 * BENCH_SECONDS each:
 *   - single: `connections` clients POST /api/sms/messages with one recipient each, back to back;
 *   - bulk:   BENCH_BULK_CONNECTIONS clients POST 1,000 recipients per request.
 * Every message is really accepted (priced, debited, written with its outbox row and event); the
 * worker is not running, so this measures the accept step alone. The script checks at the end that
 * the balance moved by exactly the price of the messages written. Run: `node bench/accept.mjs`.
 *
 * BENCH_APIS ("1", e.g. "1,2,4"): the passes again with that many api processes side by side
 * behind a round-robin TCP balancer on loopback (bench/balancer.mjs), scaling efficiency printed
 * against the first. BENCH_REDIS=cluster: on a Redis Cluster of its own (3 masters, 3 replicas,
 * tests/support/redis-cluster.mjs) instead of the local Redis server.
 */
import pg from "pg";
import { Agent, request } from "undici";
import { RedisCluster } from "../tests/support/redis-cluster.mjs";
import { startBalancer } from "./balancer.mjs";
import { benchPlatform, freePort, onExit, startBun, up } from "./lib.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
/** The demo tenant's seeded short code (seeds/demo.ts): a send may only use the account's own senders (api/sms/senders.ts). */
const DEMO_SHORT_CODE = "29094";
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const bulkConnections = Number(process.env.BENCH_BULK_CONNECTIONS ?? 4);
const APIS = (process.env.BENCH_APIS ?? "1").split(",").map(Number);
const cluster = process.env.BENCH_REDIS === "cluster" ? await RedisCluster.start() : null;
if (cluster) onExit(() => void cluster.stop());

const { databaseUrl, env } = await benchPlatform("mensageria_bench_accept", "bench-accept:", cluster ? { REDIS_URL: cluster.url } : {});
const apiPort = env.API_PORT;
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
await db.query(`UPDATE account_balances SET balance = 10000000000 WHERE account_id = (SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda')`);
const before = await db
  .query(`SELECT a.id, (SELECT balance FROM account_balances b WHERE b.account_id = a.id)::bigint AS balance, (SELECT count(*) FROM messages m WHERE m.account_id = a.id)::int AS messages,
  (SELECT coalesce(sum(price), 0) FROM messages m WHERE m.account_id = a.id)::bigint AS spent FROM accounts a WHERE a.name = 'Demo Comércio Ltda'`)
  .then((r) => r.rows[0]);

/** `n` api processes on ports of their own behind a balancer on apiPort (one: on apiPort itself); answers a stop. */
async function startApis(n) {
  if (n === 1) {
    const child = startBun("api/server.ts", env);
    await up(`http://127.0.0.1:${apiPort}/api/health`);
    return async () => child.kill("SIGTERM");
  }
  const ports = await Promise.all(Array.from({ length: n }, () => freePort()));
  const children = ports.map((port) => startBun("api/server.ts", { ...env, API_PORT: String(port) }));
  await Promise.all(ports.map((port) => up(`http://127.0.0.1:${port}/api/health`)));
  const balancer = await startBalancer(Number(apiPort), ports);
  return async () => {
    await balancer.close();
    for (const c of children) c.kill("SIGTERM");
  };
}
let stopApis = await startApis(APIS[0]);
const login = await fetch(`http://127.0.0.1:${apiPort}/api/auth/login`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ email: "owner@demo.example", password: "Demo!Mensa#2026" }),
}).then((r) => r.json());
const headers = { "content-type": "application/json", authorization: `Bearer ${login.token}` };
const target = new URL(`http://127.0.0.1:${apiPort}/api/sms/messages`);

let counter = 0;
const number = () => `+55119${String(10_000_000 + (counter++ % 89_999_999)).padStart(8, "0")}`;

async function pass(label, clients, perRequest) {
  const agent = new Agent({ connections: clients, pipelining: 1, keepAliveTimeout: 10_000 });
  const latencies = [];
  let accepted = 0,
    failed = 0;
  const until = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        const to = Array.from({ length: perRequest }, number);
        const body = JSON.stringify({ to: perRequest === 1 ? to[0] : to, body: "Bench: seu pedido 1234 saiu para entrega.", from: DEMO_SHORT_CODE });
        const t0 = performance.now();
        const res = await request(target, { dispatcher: agent, method: "POST", headers, body });
        const text = await res.body.text();
        latencies.push(performance.now() - t0);
        if (res.statusCode === 200) accepted += JSON.parse(text).data.length;
        else {
          failed++;
          if (failed < 3) console.error(res.statusCode, text.slice(0, 300));
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await agent.close();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { label, clients, perRequest, mps: accepted / elapsed, accepted, failed, requests: latencies.length, p50: pct(0.5), p99: pct(0.99) };
}

const runs = [];
for (const [i, n] of APIS.entries()) {
  if (i > 0) {
    await stopApis();
    await new Promise((r) => setTimeout(r, 1000)); // the previous processes' port
    stopApis = await startApis(n);
  }
  runs.push({ apis: n, single: await pass("single (1 recipient per request)", connections, 1), bulk: await pass("bulk (1,000 recipients per request)", bulkConnections, 1000) });
}
await stopApis();
const after = await db
  .query(
    `SELECT (SELECT balance FROM account_balances b WHERE b.account_id = a.id)::bigint AS balance, (SELECT count(*) FROM messages m WHERE m.account_id = a.id)::int AS messages,
  (SELECT coalesce(sum(price), 0) FROM messages m WHERE m.account_id = a.id)::bigint AS spent FROM accounts a WHERE a.id = $1`,
    [before.id],
  )
  .then((r) => r.rows[0]);
await db.end();

const f = (x) => Math.round(x).toLocaleString("en-US");
console.log(`\n${seconds} s per pass, loopback, ${cluster ? "Redis Cluster 3+3" : "one Redis server"}, ${new Date().toISOString()}`);
console.log("| api processes | pass | clients | messages/s | requests | p50 / p99 ms per request | errors | scaling efficiency |");
console.log("|---:|---|---:|---:|---:|---:|---:|---:|");
const efficiency = (r, kind) => `${Math.round((r[kind].mps / runs[0][kind].mps / (r.apis / runs[0].apis)) * 100)} %`;
for (const r of runs)
  for (const kind of ["single", "bulk"]) {
    const x = r[kind];
    console.log(`| ${r.apis} | ${x.label} | ${x.clients} | ${f(x.mps)} | ${f(x.requests)} | ${x.p50.toFixed(1)} / ${x.p99.toFixed(1)} | ${x.failed} | ${efficiency(r, kind)} |`);
  }
const answered = runs.reduce((a, r) => a + r.single.accepted + r.bulk.accepted, 0);
const written = after.messages - before.messages;
const debited = Number(before.balance) - Number(after.balance);
const priced = Number(after.spent) - Number(before.spent);
console.log(
  `messages written ${f(written)} (answered ${f(answered)}); balance debited ${f(debited)} centavos = sum of prices ${f(priced)}: ${debited === priced ? "exact" : "MISMATCH"}`,
);
if (debited !== priced || written !== answered) process.exitCode = 1;
process.exit();
