#!/usr/bin/env node
/**
 * Workflow boards (issue 22, ADR 056): how fast a move is, through the real api process in
 * production mode on a fresh `mensageria_bench_pipelines` database, as the demo owner:
 *   1. a board of 5 columns holding BENCH_DEALS deals (default 2,000), created over the API;
 *   2. BENCH_MOVES moves (default 2,000) of random deals to random places (before a random deal
 *      of a random column), BENCH_CONCURRENCY at once (default 8), each with the version its mover
 *      read: moves per second, latency p50/p95/p99, how many were conflicts (two movers picked the
 *      same deal), and a check that every column's order is strict (no equal positions) after;
 *   3. GET of the whole board: its latency with every deal on it.
 * Run: `node bench/pipelines.mjs` (PostgreSQL and Redis as for npm start). Stops by itself.
 */
import pg from "pg";
import { benchPlatform, dropDatabase, sleep, startBun, up } from "./lib.mjs";

const DEALS = Number(process.env.BENCH_DEALS ?? 2000);
const MOVES = Number(process.env.BENCH_MOVES ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const dbName = "mensageria_bench_pipelines";
const { databaseUrl, apiPort, env } = await benchPlatform(dbName, `bench:pipelines:${Date.now()}:`, { LOGIN_MAX_FAILS_PER_IP: "1000" }, { fresh: true });
const base = `http://127.0.0.1:${apiPort}`;
const children = [startBun("api/server.ts", env)];
await up(`${base}/api/health`);
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });

const login = await fetch(`${base}/api/auth/login`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ email: "owner@demo.example", password: "Demo!Mensa#2026" }),
}).then((r) => r.json());
const headers = { Authorization: `Bearer ${login.token}`, "Content-Type": "application/json" };
const call = async (method, path, body) => {
  const res = await fetch(`${base}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};

const board = (await call("POST", "/pipelines/boards", { name: `Bench ${Date.now()}`, columns: ["A", "B", "C", "D", "E"] })).body.data;
const columns = (await call("GET", `/pipelines/boards/${board.id}`)).body.data.columns.map((c) => c.id);
const deals = [];
const t0 = Date.now();
for (let i = 0; i < DEALS; i += CONCURRENCY) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, DEALS - i) }, (_, j) =>
      call("POST", `/pipelines/boards/${board.id}/deals`, {
        lead_name: `Lead ${i + j}`,
        description: "bench",
        priority: "normal",
        due_date: "2026-12-31",
        value_cents: 1000,
        column_id: columns[(i + j) % columns.length],
      }),
    ),
  );
  for (const r of batch) deals.push({ id: r.body.data.id, version: r.body.data.version, column: r.body.data.column_id });
}
const createSeconds = (Date.now() - t0) / 1000;

const pick = (a) => a[Math.floor(Math.random() * a.length)];
const latencies = [];
let conflicts = 0;
let done = 0;
const m0 = Date.now();
async function mover() {
  while (done < MOVES) {
    done++;
    const d = pick(deals);
    const target = pick(columns);
    const before = pick(deals.filter((x) => x.column === target && x.id !== d.id).slice(0, 200));
    const s = performance.now();
    const r = await call("POST", `/pipelines/deals/${d.id}/move`, { to_column_id: target, before_deal_id: before?.id, expected_version: d.version });
    latencies.push(performance.now() - s);
    if (r.status === 200) {
      d.version = r.body.deal.version;
      d.column = target;
    } else if (r.status === 409) {
      conflicts++;
      d.version = r.body.current.version;
      d.column = r.body.current.column_id;
    } else throw new Error(`move: ${r.status} ${JSON.stringify(r.body)}`);
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, mover));
const moveSeconds = (Date.now() - m0) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
const {
  rows: [{ dupes }],
} = await db.query(
  `SELECT count(*)::int AS dupes FROM (SELECT column_id, position FROM pipeline_deals WHERE board_id = $1 AND archived_at IS NULL GROUP BY 1, 2 HAVING count(*) > 1) x`,
  [board.id],
);
const g0 = performance.now();
const view = await call("GET", `/pipelines/boards/${board.id}`);
const getMs = performance.now() - g0;
const onBoard = view.body.data.columns.reduce((n, c) => n + c.deals.length, 0);

const f = (x, d = 0) => x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
console.log(`\nWorkflow boards, api in production mode, ${new Date().toISOString()}`);
console.log("| what | figure |");
console.log("|---|---:|");
console.log(`| deals created (${f(DEALS)}, ${CONCURRENCY} at once) | ${f(DEALS / createSeconds)} /s |`);
console.log(`| moves (${f(MOVES)}, ${CONCURRENCY} movers) | ${f(MOVES / moveSeconds)} /s |`);
console.log(`| move latency p50 / p95 / p99 | ${f(pct(50), 1)} / ${f(pct(95), 1)} / ${f(pct(99), 1)} ms |`);
console.log(`| conflicts (409, same deal picked by two movers) | ${f(conflicts)} |`);
console.log(`| equal positions in a column after | ${dupes} |`);
console.log(`| GET the board (${f(onBoard)} deals) | ${f(getMs, 1)} ms |`);
await db.end();
for (const p of children) p.kill("SIGTERM");
await sleep(1000);
if (!process.env.BENCH_KEEP_DB) await dropDatabase(dbName).catch(() => undefined);
process.exit(dupes === 0 && onBoard === DEALS ? 0 : 1);
