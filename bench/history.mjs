#!/usr/bin/env node
/**
 * SMS history at depth (issue 4): one account with 5,000,000 SMS spread over the last 30 São
 * Paulo days, in a dedicated database (mensageria_bench_history; filled once with generate_series,
 * reused while it holds the rows — BENCH_REFILL=1 fills it again). Then GET /api/sms/messages on
 * the real api process: p50/p95 at page 1 and at page 5,000 (keyset cursor) with and without
 * filters, and a few OFFSET pages. Each case: 20 warm-up requests, then BENCH_REQUESTS (200) one
 * after the other. Also: one export of a whole day through the worker (COPY to CSV).
 * Run: `node bench/history.mjs` (PostgreSQL and Redis as for npm start).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { benchPlatform, onExit, sleep, startBun, up } from "./lib.mjs";

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const DB = "mensageria_bench_history";
const TZ = "America/Sao_Paulo";

const work = mkdtempSync(join(tmpdir(), "bench-history-"));
onExit(() => rmSync(work, { recursive: true, force: true }));

const { databaseUrl, apiPort, env } = await benchPlatform(DB, `bench-history-${Date.now()}:`, { UPLOAD_DIR: join(work, "uploads") });

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const {
  rows: [account],
} = await db.query(`SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda'`);
const {
  rows: [{ n: have }],
} = await db.query(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND channel = 'sms'`, [account.id]);
const {
  rows: [{ today }],
} = await db.query(`SELECT to_char((now() AT TIME ZONE '${TZ}')::date, 'YYYY-MM-DD') AS today`);
const {
  rows: [{ oldest }],
} = await db.query(`SELECT to_char(min(created_at) AT TIME ZONE '${TZ}', 'YYYY-MM-DD') AS oldest FROM messages WHERE account_id = $1`, [account.id]);
const first = new Date(Date.parse(`${today}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);

if (have !== ROWS || process.env.BENCH_REFILL || (oldest && oldest < new Date(Date.parse(`${today}T00:00:00Z`) - 45 * 86_400_000).toISOString().slice(0, 10))) {
  console.log(`Filling ${ROWS.toLocaleString("en-US")} messages (had ${have.toLocaleString("en-US")})…`);
  const t0 = Date.now();
  await db.query(`DELETE FROM messages WHERE account_id = $1`, [account.id]);
  await db.query(`SET synchronous_commit = off`);
  await db.query(`SET maintenance_work_mem = '256MB'`);
  // Bulk load without the big indexes, then build them once (their definitions read back from the catalog).
  const { rows: indexes } = await db.query(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'messages' AND indexname <> 'messages_pkey' AND indexdef NOT LIKE '% WHERE %'`,
  );
  for (const ix of indexes) await db.query(`DROP INDEX ${ix.indexname}`);
  const batch = 500_000;
  // Newest first in id order does not matter: created_at spreads the rows over the last 30 days up to now.
  for (let from = 1; from <= ROWS; from += batch) {
    const to = Math.min(ROWS, from + batch - 1);
    await db.query(
      `INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, coding, status, route, price, currency,
                             created_at, sent_at, delivered_at, error_code, carrier)
       SELECT $1, 'sms', 'outbound',
              (ARRAY['LOJA','AVISO','PROMO','BANCO','SAUDE'])[1 + g % 5],
              '+55' || (11 + g % 80)::text || '9' || lpad(((g::bigint * 7919) % 100000000)::text, 8, '0'),
              'Mensagem de teste número ' || g, 1 + (g % 7 = 0)::int, 'GSM7',
              CASE WHEN g % 10000 = 3 THEN 'optout' WHEN g % 100 < 85 THEN 'delivered' WHEN g % 100 < 95 THEN 'failed' ELSE 'unavailable' END,
              'T1', 8 * (1 + (g % 7 = 0)::int), 'BRL', t, t + interval '1 second', t + interval '4 seconds',
              CASE WHEN g % 100 BETWEEN 85 AND 94 THEN 'UNDELIV' WHEN g % 100 >= 95 THEN 'EXPIRED' END,
              (ARRAY['Vivo','Claro','TIM','Oi'])[1 + g % 4]
         FROM generate_series($2::int, $3::int) g,
              LATERAL (SELECT now() - (interval '30 days') * (g::float8 / $4) AS t) tt`,
      [account.id, from, to, ROWS],
    );
    process.stdout.write(`  ${to.toLocaleString("en-US")}\r`);
  }
  for (const ix of indexes) {
    const t = Date.now();
    await db.query(ix.indexdef);
    console.log(`  ${ix.indexname} built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  await db.query(`VACUUM ANALYZE messages`);
  console.log(`Filled in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

startBun("api/server.ts", env);
startBun("api/worker.ts", env);
const base = `http://127.0.0.1:${apiPort}/api`;
await up(`${base}/health`);
const login = await fetch(`${base}/auth/login`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ email: "owner@demo.example", password: "Demo!Mensa#2026" }),
}).then((r) => r.json());
const auth = { Authorization: `Bearer ${login.token}` };

/** The keyset cursor that opens page `page` of a filtered listing (the row just before it, as the API encodes it). */
async function cursorAt(page, where = "", bind = []) {
  const {
    rows: [row],
  } = await db.query(
    `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM messages
      WHERE account_id = $1 AND channel = 'sms' AND created_at >= ($2::date)::timestamp AT TIME ZONE '${TZ}' ${where}
      ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT 1`,
    [account.id, first, (page - 1) * 50 - 1, ...bind],
  );
  if (!row) return null;
  return Buffer.from(JSON.stringify({ t: row.t, i: row.id, p: page, d: "desc" })).toString("base64url");
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
async function measure(label, params) {
  if ("cursor" in params && params.cursor === null) {
    // A small table (BENCH_ROWS) has no such page: said, not measured.
    console.log(`${label.padEnd(58)} skipped: fewer rows than this page needs`);
    return null;
  }
  const url = `${base}/sms/messages?${new URLSearchParams(params)}`;
  const once = async () => {
    const t = performance.now();
    const res = await fetch(url, { headers: auth });
    const body = await res.json();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { ms, body };
  };
  for (let i = 0; i < 20; i++) await once();
  const times = [];
  let last;
  for (let i = 0; i < REQUESTS; i++) {
    const r = await once();
    times.push(r.ms);
    last = r.body;
  }
  times.sort((a, b) => a - b);
  const row = { case: label, page: last.page, rows: last.data.length, "p50 ms": pct(times, 50).toFixed(1), "p95 ms": pct(times, 95).toFixed(1), "max ms": times.at(-1).toFixed(1) };
  console.log(
    `${row.case.padEnd(58)} page ${String(row.page).padStart(5)}  rows ${String(row.rows).padStart(2)}  p50 ${row["p50 ms"].padStart(6)}  p95 ${row["p95 ms"].padStart(6)}  max ${row["max ms"].padStart(6)}`,
  );
  return row;
}

const range = { "created_at[gte]": first, "created_at[lte]": today };
const results = [];
console.log(`\n${ROWS.toLocaleString("en-US")} SMS of one account, ${first} .. ${today}; ${REQUESTS} requests per case\n`);
results.push(await measure("default (today), page 1", {}));
results.push(await measure("31 days, page 1", range));
results.push(await measure("31 days, page 20 (OFFSET)", { ...range, page: "20" }));
results.push(await measure("31 days, page 5,000 (keyset cursor)", { ...range, cursor: await cursorAt(5000) }));
results.push(await measure("31 days, status=failed, page 1", { ...range, status: "failed" }));
results.push(await measure("31 days, status=failed, page 5,000 (keyset)", { ...range, status: "failed", cursor: await cursorAt(5000, "AND status = $4", ["failed"]) }));
results.push(await measure("31 days, status=optout (rare, 0.01%), page 1", { ...range, status: "optout" }));
results.push(await measure("31 days, sender=PROMO, page 1", { ...range, from: "PROMO" }));
results.push(await measure("31 days, sender=PROMO, page 5,000 (keyset)", { ...range, from: "PROMO", cursor: await cursorAt(5000, "AND sender = $4", ["PROMO"]) }));
results.push(await measure("31 days, sender=RARO (no match), page 1", { ...range, from: "RARO" }));
const {
  rows: [r],
} = await db.query(`SELECT recipient FROM messages WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1`, [account.id]);
results.push(await measure("31 days, one recipient, page 1", { ...range, to: r.recipient }));

// One export of yesterday (about 1/30 of the rows) through the worker.
const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const t0 = performance.now();
const created = await fetch(`${base}/sms/reports`, {
  method: "POST",
  headers: { ...auth, "Content-Type": "application/json" },
  body: JSON.stringify({ sent_at: { from: yesterday, to: yesterday } }),
}).then((x) => x.json());
let done;
for (;;) {
  done = (await fetch(`${base}/sms/reports/${created.data.id}`, { headers: auth }).then((x) => x.json())).data;
  if (done.status === "done" || done.status === "failed") break;
  await sleep(100);
}
const seconds = (performance.now() - t0) / 1000;
console.log(
  `\nexport of ${yesterday}: ${done.status}, ${done.rows.toLocaleString("en-US")} rows, ${(done.file_size / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s (${Math.round(done.rows / seconds).toLocaleString("en-US")} rows/s)`,
);
await db.end();
process.exit(0);
