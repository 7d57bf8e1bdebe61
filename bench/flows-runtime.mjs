#!/usr/bin/env node
/**
 * The flow runtime (issue 20, ADR 054) on the real api and ONE worker process of a fresh
 * `mensageria_bench_flows` database (production mode):
 *  - BENCH_STREAMS (10000) streams of one published flow wait on a question in as many BOT rooms
 *    (rooms and streams written straight into the tables, as visitors' first messages would leave them);
 *  - visitors answer at BENCH_RATE (333) answers/s, i.e. 1,000 flow steps/s, for BENCH_SECONDS (30), round robin over the
 *    rooms: each answer is what visitorMessage writes for a BOT room (the visitor's live message and
 *    the stream's input, one transaction) followed by the {stream_id} entry on flows:events;
 *  - each answer takes 3 steps (the question's answer, the echo "ok <n>", the question again) and
 *    2 bot messages, in one runner transaction.
 * Latency: from the answer's COMMIT (the driver's INSERT returned) to the bot's echo seen on the
 * account's live stream, which the runner publishes only after ITS commit; p50/p99 over the answers
 * after BENCH_WARMUP_SECONDS (5), and the worst answer of each second (warm-up included).
 * Throughput: flow steps written per second during the window, and the backlog left at its end.
 * Run: `node bench/flows-runtime.mjs` (PostgreSQL and Redis as for npm start).
 */
import Redis from "ioredis";
import { redisKey, sleep } from "./lib.mjs";
import { benchStack } from "./stack.mjs";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 333);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
/** Answers of the first seconds (connections opened, code warmed) are sent but not counted in the percentiles. */
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const dbName = "mensageria_bench_flows";

const { env, db, api, token, start, finish } = await benchStack(dbName, "flows", { FLOW_SWEEP_MS: process.env.FLOW_SWEEP_MS ?? "1000" }, { poolSize: 24 });
const [{ id: accountId }] = (await db.query("SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda'")).rows;
await db.query(`UPDATE flows SET status = 'inactive' WHERE account_id = $1 AND status = 'active'`, [accountId]);

const edges = [
  ["start", "next", "q"],
  ["q", "answer", "echo"],
  ["echo", "next", "q"],
].map(([source, output, target], i) => ({ id: `e${i}`, source, output, target }));
const draft = {
  nodes: [
    { id: "start", type: "start", data: {} },
    { id: "q", type: "question", data: { text: "Pergunta", check: "text", store: { kind: "variable", name: "a" } } },
    { id: "echo", type: "message", data: { text: "ok {{a}}" } },
  ],
  edges,
};
const flow = (await api("/api/flow/flows", { name: "Bench", channel: "webchat", trigger: "api", draft }, token)).data;
await api(`/api/flow/flows/${flow.id}/publish`, {}, token);

// The rooms and their streams, waiting on the question (steps 1 and 2 taken).
const t = Date.now();
await db.query(
  `INSERT INTO live_rooms (account_id, channel, external_id, username, protocol, status)
   SELECT $1, 'webchat', 'bench-' || i, 'Visitante ' || i, 'B' || lpad(i::text, 12, '0'), 'BOT' FROM generate_series(1, $2) i`,
  [accountId, STREAMS],
);
const streams = (
  await db.query(
    `INSERT INTO flow_streams (account_id, flow_id, version, room_id, channel, status, node_id, waiting, retries_left, steps)
     SELECT account_id, $2, 1, id, 'webchat', 'waiting', 'q', 'answer', 2, 2 FROM live_rooms WHERE account_id = $1 AND external_id LIKE 'bench-%'
     RETURNING id, room_id`,
    [accountId, flow.id],
  )
).rows;
await db.query(
  `INSERT INTO flow_steps (account_id, stream_id, seq, node_id, node_type, output)
   SELECT $1, s.id, x.seq, x.node, x.type, x.out FROM flow_streams s, (VALUES (1, 'start', 'start', 'next'), (2, 'q', 'question', NULL)) x(seq, node, type, out)
    WHERE s.account_id = $1`,
  [accountId],
);
console.log(`${streams.length} streams waiting on a question (${Date.now() - t} ms to write)`);

const jobStream = redisKey(env, "jobStream", "flows:events", "0");
const liveStream = redisKey(env, "accountLiveStream", accountId);
const pub = new Redis(env.REDIS_URL);
const sub = new Redis(env.REDIS_URL);
start("api/worker.ts");
await sleep(3000);

// The bot's echoes as the runner announces them (after its commit).
const sentAt = new Map();
/** The worst latency of the answers sent in each second of the window (is a slow answer periodic?). */
const perSecond = [];
let began = 0;
let warmup = 0;
const latencies = [];
let listening = true;
let last = (await pub.xrevrange(liveStream, "+", "-", "COUNT", 1))[0]?.[0] ?? "0-0";
const listener = (async () => {
  while (listening) {
    const res = await sub.xread("COUNT", 1000, "BLOCK", 500, "STREAMS", liveStream, last);
    const now = performance.now();
    for (const [, entries] of res ?? [])
      for (const [id, fields] of entries) {
        last = id;
        const i = fields.indexOf("data");
        if (fields[fields.indexOf("event") + 1] !== "send" || i < 0) continue;
        const body = JSON.parse(fields[i + 1])?.message?.body ?? "";
        const m = /^ok (\d+)$/.exec(body);
        const t0 = m ? sentAt.get(Number(m[1])) : undefined;
        if (t0 !== undefined) {
          const sec = Math.floor((t0 - began) / 1000);
          if (sec >= WARMUP) latencies.push(now - t0);
          else warmup++;
          perSecond[sec] = Math.max(perSecond[sec] ?? 0, now - t0);
          sentAt.delete(Number(m[1]));
        }
      }
  }
})();

/** One visitor answer: what visitorMessage writes for a BOT room, then the wake-up. */
async function answer(n) {
  const s = streams[n % streams.length];
  await db.query(
    `WITH m AS (INSERT INTO live_messages (account_id, room_id, author, body) VALUES ($1, $2, 'visitor', $3) RETURNING id)
     INSERT INTO flow_inputs (account_id, stream_id, kind, body, live_message_id) SELECT $1, $4, 'message', $3, m.id FROM m`,
    [accountId, s.room_id, String(n), s.id],
  );
  sentAt.set(n, performance.now());
  await pub.xadd(jobStream, "*", "stream_id", s.id);
}

const [{ n: stepsBefore }] = (await db.query(`SELECT count(*)::int AS n FROM flow_steps WHERE account_id = $1`, [accountId])).rows;
began = performance.now();
let sent = 0;
const inflight = new Set();
while (performance.now() - began < SECONDS * 1000) {
  const due = Math.floor(((performance.now() - began) / 1000) * RATE);
  while (sent < due) {
    const p = answer(sent++).finally(() => inflight.delete(p));
    inflight.add(p);
  }
  await sleep(5);
}
await Promise.all(inflight);
const window = (performance.now() - began) / 1000;
const [{ n: stepsAtEnd }] = (await db.query(`SELECT count(*)::int AS n FROM flow_steps WHERE account_id = $1`, [accountId])).rows;
const [{ n: backlog }] = (await db.query(`SELECT count(*)::int AS n FROM flow_inputs WHERE account_id = $1 AND consumed_at IS NULL`, [accountId])).rows;
// Let the backlog drain (bounded) so every answer's latency is counted.
for (let i = 0; i < 600 && sentAt.size > 0; i++) await sleep(100);
listening = false;
await listener;

latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(1);
console.log(
  JSON.stringify(
    {
      streams: STREAMS,
      offered_answers_per_s: RATE,
      answers_sent: sent,
      window_s: Number(window.toFixed(1)),
      steps_per_s: Math.round((stepsAtEnd - stepsBefore) / window),
      answers_per_s: Math.round((stepsAtEnd - stepsBefore) / 3 / window),
      backlog_at_end: backlog,
      answered: latencies.length + warmup,
      counted: latencies.length,
      warmup_s: WARMUP,
      unanswered: sentAt.size,
      latency_ms: { p50: pct(50), p90: pct(90), p99: pct(99), max: latencies.at(-1)?.toFixed(1) },
      worst_ms_per_second: perSecond.map((x) => Math.round(x ?? 0)).join(" "),
    },
    null,
    2,
  ),
);
await pub.quit();
sub.disconnect();
await finish();
