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
 */
import pg from "pg";
import { Agent, request } from "undici";
import { benchPlatform, startBun, up } from "./lib.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
/** The demo tenant's seeded short code (seeds/demo.ts): a send may only use the account's own senders (api/sms/senders.ts). */
const DEMO_SHORT_CODE = "29094";
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const bulkConnections = Number(process.env.BENCH_BULK_CONNECTIONS ?? 4);

const { databaseUrl, env } = await benchPlatform("mensageria_bench_accept", "bench-accept:");
const apiPort = env.API_PORT;
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
await db.query(`UPDATE account_balances SET balance = 10000000000 WHERE account_id = (SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda')`);
const before = await db
  .query(`SELECT a.id, (SELECT balance FROM account_balances b WHERE b.account_id = a.id)::bigint AS balance, (SELECT count(*) FROM messages m WHERE m.account_id = a.id)::int AS messages,
  (SELECT coalesce(sum(price), 0) FROM messages m WHERE m.account_id = a.id)::bigint AS spent FROM accounts a WHERE a.name = 'Demo Comércio Ltda'`)
  .then((r) => r.rows[0]);

startBun("api/server.ts", env);
await up(`http://127.0.0.1:${apiPort}/api/health`);
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

const single = await pass("single (1 recipient per request)", connections, 1);
const bulk = await pass("bulk (1,000 recipients per request)", bulkConnections, 1000);
const after = await db
  .query(
    `SELECT (SELECT balance FROM account_balances b WHERE b.account_id = a.id)::bigint AS balance, (SELECT count(*) FROM messages m WHERE m.account_id = a.id)::int AS messages,
  (SELECT coalesce(sum(price), 0) FROM messages m WHERE m.account_id = a.id)::bigint AS spent FROM accounts a WHERE a.id = $1`,
    [before.id],
  )
  .then((r) => r.rows[0]);
await db.end();

const f = (x) => Math.round(x).toLocaleString("en-US");
console.log(`\n${seconds} s per pass, loopback, ${new Date().toISOString()}`);
console.log("| pass | clients | messages/s | requests | p50 / p99 ms per request | errors |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const r of [single, bulk]) console.log(`| ${r.label} | ${r.clients} | ${f(r.mps)} | ${f(r.requests)} | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} | ${r.failed} |`);
const written = after.messages - before.messages;
const debited = Number(before.balance) - Number(after.balance);
const priced = Number(after.spent) - Number(before.spent);
console.log(
  `messages written ${f(written)} (answered ${f(single.accepted + bulk.accepted)}); balance debited ${f(debited)} centavos = sum of prices ${f(priced)}: ${debited === priced ? "exact" : "MISMATCH"}`,
);
if (debited !== priced || written !== single.accepted + bulk.accepted) process.exitCode = 1;
process.exit();
