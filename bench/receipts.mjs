#!/usr/bin/env node
/**
 * Provider receipt webhooks per second, with latency percentiles (issue 4 target: ≥ 5,000/s with
 * p99 ≤ 50 ms on 2 cores). Runs the real api process (production mode) on a fresh
 * `mensageria_bench_receipts` database; `BENCH_MESSAGES` (default 60,000) SMS of the demo account
 * are written `sent` through SQL (the state the dispatcher leaves them in), then `connections`
 * clients post one Standard-Webhooks-signed `delivered` receipt per message back to back, like a
 * provider catching up. Every receipt must answer 200 `applied`; a second pass re-posts the same
 * receipts (duplicates: `duplicate`, nothing changes). A third pass posts receipts of another
 * `BENCH_MESSAGES` messages in batches (a JSON array of `BENCH_BATCH`, default 50, per signed post,
 * as high-volume providers deliver reports) over `BENCH_BATCH_CONNECTIONS` (default 4) clients.
 * Bodies are built and signed before the clock starts (signing is the provider's work, and the
 * generator shares the two cores with the platform). Run: `node bench/receipts.mjs`.
 */
import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { Agent, request } from "undici";
import { benchPlatform, startBun, up } from "./lib.mjs";

const total = Number(process.env.BENCH_MESSAGES ?? 60_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const batchSize = Number(process.env.BENCH_BATCH ?? 50);
const batchConnections = Number(process.env.BENCH_BATCH_CONNECTIONS ?? 4);
const { databaseUrl, env } = await benchPlatform("mensageria_bench_receipts", "bench-receipts:");
const secret = env.SIMULATOR_WEBHOOK_SECRET;
const apiPort = env.API_PORT;

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
await db.query(`DELETE FROM messages WHERE provider_message_id LIKE 'bench_%'`);
const run = randomUUID().slice(0, 8);
await db.query(
  `INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, coding, status, provider, route, provider_message_id, price, queued_at, sent_at)
   SELECT a.id, 'sms', 'outbound', 'BENCH', '+5511' || lpad((900000000 + g)::text, 9, '0'), 'Receipt bench', 1, 'GSM7', 'sent', 'simulator', 'T1',
          'bench_${run}_' || g, 7, now(), now()
   FROM accounts a, generate_series(1, $1) g WHERE a.name = 'Demo Comércio Ltda'`,
  [total * 2],
);
await db.query(`ANALYZE messages`);

const apiProcess = startBun("api/server.ts", env);
/** CPU seconds (user + system) the api process has used: a figure the other load on the machine barely moves. */
const apiCpu = () => {
  const f = readFileSync(`/proc/${apiProcess.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};
await up(`http://127.0.0.1:${apiPort}/api/health`);

const target = new URL(`http://127.0.0.1:${apiPort}/api/webhooks/providers/simulator`);
const sign = (id, ts, body) => `v1,${createHmac("sha256", Buffer.from(secret, "utf8")).update(`${id}.${ts}.${body}`).digest("base64")}`;

/** Signed posts built ahead: `count` posts, post k carrying receipts for messages from(k). */
function build(count, from) {
  return Array.from({ length: count }, (_, k) => {
    const items = from(k).map((i) => ({ event_id: `bench_ev_${run}_${i}`, message_id: `bench_${run}_${i}`, status: "delivered", occurred_at: new Date().toISOString() }));
    const body = JSON.stringify(items.length === 1 ? items[0] : items);
    const id = items.length === 1 ? items[0].event_id : `bench_batch_${run}_${k}`;
    const ts = Math.floor(Date.now() / 1000);
    return { body, headers: { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": sign(id, ts, body) } };
  });
}

async function pass(label, posts, clients, receipts) {
  const agent = new Agent({ connections: clients, pipelining: 1, keepAliveTimeout: 10_000 });
  const results = new Map();
  const latencies = [];
  let next = 0;
  const cpu0 = apiCpu();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < posts.length; i = next++) {
        const t0 = performance.now();
        const res = await request(target, { dispatcher: agent, method: "POST", body: posts[i].body, headers: posts[i].headers });
        const text = await res.body.text();
        latencies.push(performance.now() - t0);
        const answers = res.statusCode === 200 ? ((j) => (j.results ?? [j]).map((r) => r.result))(JSON.parse(text)) : [`http_${res.statusCode}`];
        for (const key of answers) results.set(key, (results.get(key) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = ((apiCpu() - cpu0) * 1000 * 1000) / receipts;
  await agent.close();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { label, rps: receipts / seconds, cpuMs, seconds, p50: pct(0.5), p95: pct(0.95), p99: pct(0.99), results: Object.fromEntries(results) };
}

const singles = build(total, (k) => [k + 1]);
const first = await pass("one receipt per post: new (sent → delivered)", singles, connections, total);
const second = await pass("one receipt per post: the same again (duplicates)", singles, connections, total);
const batches = build(Math.ceil(total / batchSize), (k) => Array.from({ length: Math.min(batchSize, total - k * batchSize) }, (_, j) => total + k * batchSize + j + 1));
const third = await pass(`${batchSize} receipts per post: new (sent → delivered)`, batches, batchConnections, total);
const {
  rows: [check],
} = await db.query(`SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*)::int AS n FROM messages WHERE provider_message_id LIKE $1`, [`bench_${run}_%`]);
await db.end();

const f = (x) => Math.round(x).toLocaleString("en-US");
console.log(`\n${f(total)} receipts per pass, ${connections} connections (${batchConnections} for batches), loopback, ${new Date().toISOString()}`);
console.log("| pass | receipts/s | p50 / p95 / p99 ms per post | api CPU ms per 1,000 receipts | answers |");
console.log("|---|---:|---:|---:|---|");
for (const r of [first, second, third]) {
  console.log(
    `| ${r.label} | ${f(r.rps)} | ${r.p50.toFixed(1)} / ${r.p95.toFixed(1)} / ${r.p99.toFixed(1)} | ${f(r.cpuMs)} | ${Object.entries(r.results)
      .map(([k, v]) => `${k} ${f(v)}`)
      .join(", ")} |`,
  );
}
console.log(`messages delivered afterwards: ${f(check.delivered)} of ${f(check.n)}`);
if (check.delivered !== 2 * total || first.results.applied !== total || third.results.applied !== total) process.exitCode = 1;
process.exit();
