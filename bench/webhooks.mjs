#!/usr/bin/env node
/**
 * Customer webhook sending (issue 12 item 7), on the real api and worker processes of a fresh
 * `mensageria_bench_webhooks` database, to a fast loopback receiver in this process (answers 200 at
 * once, keep-alive). Deliveries are written straight into webhook_deliveries (what the fan-out
 * makes), so only the sender is measured:
 *  1. throughput: BENCH_DELIVERIES (20000) due at once, to 1 endpoint, then spread over 100;
 *     deliveries/s from the first POST started to the last recorded;
 *  2. isolation: a steady flow (BENCH_RATE/s, 500, for BENCH_SECONDS, 10) over 100 live endpoints,
 *     latency = arrival at the receiver - creation of the delivery, p50/p99; then the same flow
 *     with one more endpoint that accepts connections and never answers (WEBHOOK_TIMEOUT_MS 10 s)
 *     getting its share (alternated, twice each). The live endpoints' p99 should barely move.
 * The worker runs with NODE_ENV=development and OUTBOUND_ALLOW_PRIVATE=true: production mode
 * refuses loopback targets (ADR 021); every request still goes through the guarded client.
 * Run: `node bench/webhooks.mjs` (PostgreSQL and Redis as for npm start).
 */
import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { freePort, sleep } from "./lib.mjs";
import { benchStack } from "./stack.mjs";

const N = Number(process.env.BENCH_DELIVERIES ?? 20000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const dbName = "mensageria_bench_webhooks";

const { env, db, api, token, start, finish } = await benchStack(
  dbName,
  "webhooks",
  { NODE_ENV: "development", OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_SWEEP_MS: "100", WEBHOOK_TIMEOUT_MS: "10000" },
  { poolSize: 3 },
);

// The receiver: 200 at once; arrival times by webhook-id.
const arrivals = new Map();
const receiver = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    arrivals.set(String(req.headers["webhook-id"]), Date.now());
    res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
  });
});
receiver.keepAliveTimeout = 30_000;
const receiverPort = await freePort();
await new Promise((r) => receiver.listen(receiverPort, "127.0.0.1", r));
// The dead endpoint: accepts, reads, never answers.
const hanging = new Set();
const dead = createTcpServer((s) => {
  hanging.add(s);
  s.on("data", () => undefined);
  s.on("close", () => hanging.delete(s));
});
const deadPort = await freePort();
await new Promise((r) => dead.listen(deadPort, "127.0.0.1", r));

// One endpoint through the API (its secret sealed as usual); the others are copies of its row
// with their own URLs (the API allows 20 per account; the sender does not care whose they are).
const first = (await api("/api/webhooks", { url: `http://127.0.0.1:${receiverPort}/e/0`, events: ["message.status_changed"], description: "bench" }, token)).data.id;
const endpoint = async (url) =>
  (
    await db.query(
      `INSERT INTO webhook_endpoints (account_id, url, description, events, secret_sealed) SELECT account_id, $2, description, events, secret_sealed FROM webhook_endpoints WHERE id = $1 RETURNING id`,
      [first, url],
    )
  ).rows[0].id;
const live = [first];
for (let i = 1; i < 100; i++) live.push(await endpoint(`http://127.0.0.1:${receiverPort}/e/${i}`));
const deadId = await endpoint(`http://127.0.0.1:${deadPort}/dead`);
// Only the endpoints a scenario names get deliveries; the dead one is disabled until its scenario.
await db.query("UPDATE webhook_endpoints SET enabled = false WHERE id = $1", [deadId]);

let serial = 0;
/** Inserts one due delivery per endpoint id given (repeat an id for more), returns their event ids. */
async function deliver(endpointIds) {
  const ids = endpointIds.map(() => `evt_bench_${serial++}`);
  await db.query(
    `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, payload, next_attempt_at)
     SELECT e.id, w.account_id, e.event_id, 'message.status_changed', jsonb_build_object('type', 'message.status_changed', 'data', jsonb_build_object('n', e.event_id)), now()
     FROM unnest($1::uuid[], $2::text[]) AS e(id, event_id) JOIN webhook_endpoints w ON w.id = e.id`,
    [endpointIds, ids],
  );
  return ids;
}

async function until(ids, ms) {
  const end = Date.now() + ms;
  while (ids.some((id) => !arrivals.has(id))) {
    if (Date.now() > end) throw new Error(`${ids.filter((id) => !arrivals.has(id)).length} deliveries not received in ${ms} ms`);
    await sleep(50);
  }
}

start("api/worker.ts");
await sleep(2000);

const throughput = [];
for (const spread of [1, 100]) {
  const t0 = Date.now();
  const ids = await deliver(Array.from({ length: N }, (_, i) => live[i % spread]));
  await until(ids, 600_000);
  const received = Date.now();
  for (;;) {
    const { rows } = await db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = ANY($1::text[]) AND status = 'succeeded'`, [ids]);
    if (Number(rows[0].n) === ids.length) break;
    await sleep(50);
  }
  const recorded = Date.now();
  throughput.push({ spread, n: ids.length, receivedPerSec: Math.round(ids.length / ((received - t0) / 1000)), recordedPerSec: Math.round(ids.length / ((recorded - t0) / 1000)) });
}

const pct = (list, p) => list.slice().sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))];
async function steadyFlow(withDead) {
  const created = new Map();
  const perTick = Math.max(1, Math.round(RATE / 10));
  const targets = withDead ? [...live, deadId] : live;
  let k = 0;
  for (let tick = 0; tick < SECONDS * 10; tick++) {
    const started = Date.now();
    const ids = await deliver(Array.from({ length: perTick }, () => targets[k++ % targets.length]));
    for (const id of ids) created.set(id, started);
    await sleep(Math.max(0, 100 - (Date.now() - started)));
  }
  const mine = [...created.keys()];
  const liveIds = [];
  const { rows } = await db.query(`SELECT event_id FROM webhook_deliveries WHERE event_id = ANY($1::text[]) AND endpoint_id <> $2`, [mine, deadId]);
  for (const r of rows) liveIds.push(r.event_id);
  await until(liveIds, 120_000);
  const latencies = liveIds.map((id) => arrivals.get(id) - created.get(id));
  return { withDead, live: liveIds.length, p50: pct(latencies, 50), p99: pct(latencies, 99), max: Math.max(...latencies), deadHanging: hanging.size };
}
// Alternated, twice each, so a change of the machine's load does not pass for the dead endpoint's effect.
const flows = [];
for (let round = 0; round < 2; round++) {
  await db.query("UPDATE webhook_endpoints SET enabled = false WHERE id = $1", [deadId]);
  flows.push(await steadyFlow(false));
  await db.query("UPDATE webhook_endpoints SET enabled = true WHERE id = $1", [deadId]);
  flows.push(await steadyFlow(true));
}

console.log(
  `\nCustomer webhooks, sender only (WEBHOOK_CONCURRENCY ${env.WEBHOOK_CONCURRENCY ?? 256}, WEBHOOK_ENDPOINT_CONCURRENCY ${env.WEBHOOK_ENDPOINT_CONCURRENCY ?? 16}, 1 worker)\n`,
);
console.log("| endpoints | deliveries | received/s | recorded (succeeded)/s |");
console.log("|---:|---:|---:|---:|");
for (const r of throughput) console.log(`| ${r.spread} | ${r.n} | ${r.receivedPerSec} | ${r.recordedPerSec} |`);
console.log(`\nSteady flow ${RATE}/s for ${SECONDS} s over 100 live endpoints; latency = received - created (ms)\n`);
console.log("| dead endpoint | live deliveries | p50 ms | p99 ms | max ms | dead POSTs hanging at the end |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const f of flows) console.log(`| ${f.withDead ? "yes (1 of 101, never answers)" : "no"} | ${f.live} | ${f.p50} | ${f.p99} | ${f.max} | ${f.deadHanging} |`);
const worst = (dead) => Math.max(...flows.filter((f) => f.withDead === dead).map((f) => f.p99));
console.log(`\np99 ratio (worst with the dead endpoint / worst without): ${(worst(true) / worst(false)).toFixed(2)}`);

for (const s of hanging) s.destroy();
dead.close();
receiver.close();
receiver.closeAllConnections?.();
await finish();
