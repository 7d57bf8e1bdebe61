#!/usr/bin/env node
/**
 * Number lookup (issue 22, ADR 058): a CSV list of BENCH_ROWS (100,000) rows looked up end to end
 * through the real processes (production mode: api, worker and the simulator's loopback lookup
 * peer configured as the provider by LOOKUP_API_URL / LOOKUP_API_KEY) on a fresh
 * `mensageria_bench_lookup` database, as the demo owner:
 *   1. upload: POST /api/lookup/lists (multipart, streamed to disk, counted, charged) -> 201;
 *   2. lookup: the worker's job from the upload's answer until the list is `completed` (batches of
 *      LOOKUP_BATCH to the provider, LOOKUP_CONCURRENCY in flight, multi-row INSERTs): rows/s;
 *   3. export: GET /api/lookup/lists/{id}/results.csv streamed to the end: rows/s;
 * and whether the balance moved by exactly the lines looked up (the bad lines refunded).
 * Run: `node bench/lookup.mjs` (PostgreSQL and Redis as for npm start). Stops by itself.
 */
import pg from "pg";
import { benchPlatform, freePort, sleep, startBun, up } from "./lib.mjs";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
/** Every BAD-th line is no phone number (reported, refunded). */
const BAD = 1000;
const dbName = "mensageria_bench_lookup";
const simPort = await freePort();
const { databaseUrl, apiPort, env } = await benchPlatform(
  dbName,
  `bench:lookup:${Date.now()}:`,
  { SIMULATOR_PORT: String(simPort), SIMULATOR_URL: `http://127.0.0.1:${simPort}`, LOGIN_MAX_FAILS_PER_IP: "1000" },
  { fresh: true },
);
Object.assign(env, { LOOKUP_API_URL: `http://127.0.0.1:${simPort}/hlr`, LOOKUP_API_KEY: env.SIMULATOR_API_KEY, APP_URL: `http://127.0.0.1:${apiPort}` });
const base = `http://127.0.0.1:${apiPort}`;
const children = [startBun("api/simulator/server.ts", env), startBun("api/server.ts", env), startBun("api/worker.ts", env)];
await up(`http://127.0.0.1:${simPort}/health`);
await up(`${base}/api/health`);
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });

const login = await fetch(`${base}/api/auth/login`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ email: "owner@demo.example", password: "Demo!Mensa#2026" }),
}).then((r) => r.json());
const auth = { Authorization: `Bearer ${login.token}` };
const {
  rows: [{ id: accountId }],
} = await db.query(`SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda'`);
await db.query(`UPDATE account_balances SET balance = 1000000000 WHERE account_id = $1`, [accountId]);
const balance = async () => Number((await db.query(`SELECT balance FROM account_balances WHERE account_id = $1`, [accountId])).rows[0].balance);

// Mobiles, landlines (every 7th), VoIP (every 11th), unknown area codes (every 13th), bad lines (every BAD-th).
const DDD = [11, 21, 31, 41, 51, 61, 71, 81, 85, 91];
let csv = "nome;celular;cidade\n";
for (let i = 1; i <= ROWS; i++) {
  const ddd = i % 13 === 0 ? 20 : DDD[i % DDD.length];
  const n = String(i).padStart(7, "0");
  const phone = i % BAD === 0 ? "sem telefone" : i % 11 === 0 ? `(${ddd}) 39${n.slice(1)}` : i % 7 === 0 ? `(${ddd}) 3${n}` : `(${ddd}) 98${n}`;
  csv += `Pessoa ${i};${phone};Cidade ${i % 97}\n`;
}
const bad = Math.floor(ROWS / BAD);

const before = await balance();
const form = new FormData();
form.append("file", new Blob([csv], { type: "text/csv" }), "bench.csv");
const t0 = performance.now();
const res = await fetch(`${base}/api/lookup/lists`, { method: "POST", headers: auth, body: form });
const list = await res.json();
const uploadMs = performance.now() - t0;
if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(list).slice(0, 300)}`);
const t1 = performance.now();
let view = list;
while (view.status !== "completed" && view.status !== "failed") {
  await sleep(100);
  view = await fetch(`${base}/api/lookup/lists/${list.id}`, { headers: auth }).then((r) => r.json());
}
const lookupMs = performance.now() - t1;
const t2 = performance.now();
const exported = await fetch(`${base}/api/lookup/lists/${list.id}/results.csv`, { headers: auth });
let lines = 0;
for await (const chunk of exported.body) for (const b of chunk) if (b === 10) lines++;
const exportMs = performance.now() - t2;
const moved = before - (await balance());
const exact = view.status === "completed" && moved === (ROWS - bad) * view.unitPrice && view.badLines === bad && lines === ROWS + 1;

const f = (n) => Math.round(n).toLocaleString("en-US");
console.log(`\nNumber lookup, api + worker + simulator (lookup peer) in production mode, ${new Date().toISOString()}`);
console.log(`| step | rows | time | rows/s |`);
console.log(`|---|---:|---:|---:|`);
console.log(
  `| upload (${(csv.length / 1e6).toFixed(1)} MB multipart, stored, counted, charged) | ${f(ROWS)} | ${(uploadMs / 1000).toFixed(2)} s | ${f(ROWS / (uploadMs / 1000))} |`,
);
console.log(`| lookup (worker: provider batches + inserts, to completed) | ${f(ROWS)} | ${(lookupMs / 1000).toFixed(2)} s | ${f(ROWS / (lookupMs / 1000))} |`);
console.log(`| end to end (upload + lookup) | ${f(ROWS)} | ${((uploadMs + lookupMs) / 1000).toFixed(2)} s | ${f(ROWS / ((uploadMs + lookupMs) / 1000))} |`);
console.log(`| export (streamed CSV) | ${f(lines - 1)} | ${(exportMs / 1000).toFixed(2)} s | ${f((lines - 1) / (exportMs / 1000))} |`);
console.log(
  `status ${view.status}; valid ${f(view.validCount)}, invalid ${f(view.invalidCount)}, bad lines ${f(view.badLines)}; charged ${f(view.charged)}, refunded ${f(view.refunded)}; balance moved exactly by the lines looked up: ${exact}`,
);
await db.end();
for (const c of children) c.kill?.("SIGTERM");
process.exit(exact ? 0 : 1);
