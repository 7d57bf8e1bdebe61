#!/usr/bin/env node
/**
 * Provider receipt webhooks per second, with latency percentiles (issue 4 target: ≥ 5,000/s with
 * p99 ≤ 50 ms on 2 cores). Runs the real api process (production mode) on a fresh
 * `mensageria_bench_receipts` database; `BENCH_MESSAGES` (default 60,000) SMS of the demo account
 * are written `sent` through SQL (the state the dispatcher leaves them in), then `connections`
 * clients post one Standard-Webhooks-signed `delivered` receipt per message back to back, like a
 * provider catching up. Every receipt must answer 200 `applied`; a second pass re-posts the same
 * receipts (duplicates: `duplicate`, nothing changes). Run: `node bench/receipts.mjs`.
 */
import { createHmac, randomUUID } from "node:crypto";
import pg from "pg";
import { Agent, request } from "undici";
import { benchPlatform, startBun, up } from "./lib.mjs";

const total = Number(process.env.BENCH_MESSAGES ?? 60_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const secret = "bench-simulator-webhook-secret-0123456789";

const { databaseUrl, env } = await benchPlatform("mensageria_bench_receipts", "bench-receipts:", { SIMULATOR_WEBHOOK_SECRET: secret });
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
  [total],
);
await db.query(`ANALYZE messages`);

startBun("api/server.ts", env);
await up(`http://127.0.0.1:${apiPort}/api/health`);

const target = new URL(`http://127.0.0.1:${apiPort}/api/webhooks/providers/simulator`);
const sign = (id, ts, body) => `v1,${createHmac("sha256", Buffer.from(secret, "utf8")).update(`${id}.${ts}.${body}`).digest("base64")}`;

async function pass(label) {
  const agent = new Agent({ connections, pipelining: 1, keepAliveTimeout: 10_000 });
  const results = new Map();
  const latencies = [];
  let next = 1;
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, async () => {
    for (let i = next++; i <= total; i = next++) {
      const eventId = `bench_ev_${run}_${i}`;
      const body = JSON.stringify({ event_id: eventId, message_id: `bench_${run}_${i}`, status: "delivered", occurred_at: new Date().toISOString() });
      const ts = Math.floor(Date.now() / 1000);
      const t0 = performance.now();
      const res = await request(target, {
        dispatcher: agent, method: "POST", body,
        headers: { "content-type": "application/json", "webhook-id": eventId, "webhook-timestamp": String(ts), "webhook-signature": sign(eventId, ts, body) },
      });
      const text = await res.body.text();
      latencies.push(performance.now() - t0);
      const key = res.statusCode === 200 ? JSON.parse(text).result : `http_${res.statusCode}`;
      results.set(key, (results.get(key) ?? 0) + 1);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { label, rps: total / seconds, seconds, p50: pct(0.5), p95: pct(0.95), p99: pct(0.99), results: Object.fromEntries(results) };
}

const first = await pass("new receipts (sent → delivered)");
const second = await pass("the same receipts again (duplicates)");
const { rows: [check] } = await db.query(`SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*)::int AS n FROM messages WHERE provider_message_id LIKE $1`, [`bench_${run}_%`]);
await db.end();

const f = (x) => Math.round(x).toLocaleString("en-US");
console.log(`\n${f(total)} receipts per pass, ${connections} connections, loopback, ${new Date().toISOString()}`);
console.log("| pass | receipts/s | p50 / p95 / p99 ms | answers |");
console.log("|---|---:|---:|---|");
for (const r of [first, second]) {
  console.log(`| ${r.label} | ${f(r.rps)} | ${r.p50.toFixed(1)} / ${r.p95.toFixed(1)} / ${r.p99.toFixed(1)} | ${Object.entries(r.results).map(([k, v]) => `${k} ${f(v)}`).join(", ")} |`);
}
console.log(`messages delivered afterwards: ${f(check.delivered)} of ${f(check.n)}`);
if (check.delivered !== total || first.results.applied !== total) process.exitCode = 1;
process.exit();
