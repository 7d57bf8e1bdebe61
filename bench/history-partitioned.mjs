#!/usr/bin/env node
/**
 * SMS history on monthly partitions (issue 15, ADR 029): one account with BENCH_ROWS (20,000,000)
 * SMS spread over the last BENCH_MONTHS (6) months, in a dedicated database
 * (mensageria_bench_history_partitioned; filled once with generate_series, reused while it holds
 * the rows — BENCH_REFILL=1 fills it again). Then, on the real api process: GET /api/sms/messages
 * p50/p95 at page 1 and at page 5,000 (keyset cursor) for the last 31 days and for 31 days three
 * months back, and GET /api/sms/messages/:id (a lookup by id alone, which reads every month's
 * primary key). Each case: 20 warm-up requests, then BENCH_REQUESTS (200) one after the other.
 * Run: `node bench/history-partitioned.mjs` (PostgreSQL and Redis as for npm start).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { benchPlatform, onExit, startBun, up } from "./lib.mjs";

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000_000);
const MONTHS = Number(process.env.BENCH_MONTHS ?? 6);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const DB = "mensageria_bench_history_partitioned";
const TZ = "America/Sao_Paulo";
const DAY = 86_400_000;

const work = mkdtempSync(join(tmpdir(), "bench-history-partitioned-"));
onExit(() => rmSync(work, { recursive: true, force: true }));

const { databaseUrl, apiPort, env } = await benchPlatform(DB, `bench-history-partitioned-${Date.now()}:`, { UPLOAD_DIR: join(work, "uploads") });

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const one = async (sql, bind = []) => (await db.query(sql, bind)).rows[0];
const account = await one(`SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda'`);
const { n: have } = await one(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND channel = 'sms'`, [account.id]);
const { today } = await one(`SELECT to_char((now() AT TIME ZONE '${TZ}')::date, 'YYYY-MM-DD') AS today`);
const span = `${MONTHS} months`;

if (have !== ROWS || process.env.BENCH_REFILL) {
  console.log(`Filling ${ROWS.toLocaleString("en-US")} messages over ${span} (had ${have.toLocaleString("en-US")})…`);
  const t0 = Date.now();
  await db.query(`DELETE FROM messages WHERE account_id = $1`, [account.id]);
  await db.query(`SELECT message_partitions_ensure(now() - interval '${span}', now())`);
  await db.query(`SET synchronous_commit = off`);
  await db.query(`SET maintenance_work_mem = '256MB'`);
  // Bulk load without the big indexes (dropped on the parent, so on every month), then build them once.
  const { rows: indexes } = await db.query(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'messages' AND indexname <> 'messages_pkey' AND indexdef NOT LIKE '% WHERE %'`,
  );
  for (const ix of indexes) await db.query(`DROP INDEX ${ix.indexname}`);
  // The webhook and provider-id triggers have nothing to do for these rows (no endpoint, no provider id).
  await db.query(`ALTER TABLE messages DISABLE TRIGGER USER`);
  const batch = 500_000;
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
              LATERAL (SELECT now() - (interval '${span}') * (g::float8 / $4) AS t) tt`,
      [account.id, from, to, ROWS],
    );
    process.stdout.write(`  ${to.toLocaleString("en-US")}\r`);
  }
  await db.query(`ALTER TABLE messages ENABLE TRIGGER USER`);
  for (const ix of indexes) {
    const t = Date.now();
    // pg_indexes says "ON ONLY messages" for a partitioned index: built that way it would cover no month.
    await db.query(ix.indexdef.replace(" ON ONLY ", " ON "));
    console.log(`  ${ix.indexname} built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  await db.query(`VACUUM ANALYZE messages`);
  console.log(`Filled in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
const { rows: parts } = await db.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'messages'::regclass`);

startBun("api/server.ts", env);
const base = `http://127.0.0.1:${apiPort}/api`;
await up(`${base}/health`);
const login = await fetch(`${base}/auth/login`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ email: "owner@demo.example", password: "Demo!Mensa#2026" }),
}).then((r) => r.json());
const auth = { Authorization: `Bearer ${login.token}` };

/** The keyset cursor that opens page `page` of the range starting on São Paulo day `first` (the row just before it). */
async function cursorAt(page, first, last) {
  const row = await one(
    `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM messages
      WHERE account_id = $1 AND channel = 'sms' AND created_at >= ($2::date)::timestamp AT TIME ZONE '${TZ}'
        AND created_at < ($3::date + 1)::timestamp AT TIME ZONE '${TZ}'
      ORDER BY created_at DESC, id DESC OFFSET $4 LIMIT 1`,
    [account.id, first, last, (page - 1) * 50 - 1],
  );
  return row ? Buffer.from(JSON.stringify({ t: row.t, i: row.id, p: page, d: "desc" })).toString("base64url") : null;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
async function measure(label, path) {
  if (path === null) {
    console.log(`${label.padEnd(52)} skipped: fewer rows than this page needs`);
    return;
  }
  const once = async () => {
    const t = performance.now();
    const res = await fetch(`${base}${path}`, { headers: auth });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 20; i++) await once();
  const times = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await once());
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(52)} p50 ${pct(times, 50).toFixed(1).padStart(6)}  p95 ${pct(times, 95).toFixed(1).padStart(6)}  max ${times.at(-1).toFixed(1).padStart(6)}`);
}

const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);
const todayMs = Date.parse(`${today}T00:00:00Z`);
const list = (first, last, cursor) => `/sms/messages?${new URLSearchParams({ "created_at[gte]": first, "created_at[lte]": last, ...(cursor ? { cursor } : {}) })}`;
console.log(`\n${ROWS.toLocaleString("en-US")} SMS of one account over ${span}, ${parts[0].n} monthly partitions; ${REQUESTS} requests per case\n`);
for (const [label, lastMs] of [
  ["last 31 days", todayMs],
  ["31 days, 3 months back", todayMs - 90 * DAY],
]) {
  const first = dayOf(lastMs - 30 * DAY);
  const last = dayOf(lastMs);
  await measure(`${label}, page 1`, list(first, last));
  const c = await cursorAt(5000, first, last);
  await measure(`${label}, page 5,000 (keyset cursor)`, c ? list(first, last, c) : null);
}
const { rows: ids } = await db.query(`SELECT id FROM messages WHERE account_id = $1 AND created_at < now() - interval '2 months' LIMIT 1`, [account.id]);
await measure("one message by id (GET /sms/messages/:id)", `/sms/messages/${ids[0].id}`);
await db.end();
process.exit(0);
