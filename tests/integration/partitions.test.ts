/**
 * Monthly partitions of messages / message_events (issue 15, ADR 029), on a database of this file's
 * own (created here, migrated with the same script as every run, dropped at the end): the job
 * detaches and drops months, which must never touch the run's shared database.
 *
 * 1. Pruning: EXPLAIN of the very SQL the history, reports, insights and exports run (their
 *    exported builders) scans only the monthly partitions of the requested period.
 * 2. The worker's job (api/messages/partitions.ts, run through tests/support/partitions-run.ts):
 *    months created ahead; a month past retention exported (files exist, record counts match),
 *    then detached and dropped; months within retention untouched; two runs at once archive a
 *    month once; the longest retention of all plans decides.
 *
 * SQL is written inline here on purpose: the statements and the partitions they touch are what is
 * tested, and the database is not the run's (no factory writes to it).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createReadStream, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createGunzip } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { smsHistoryQueries, smsHistorySchema } from "../../api/sms/history";
import { CARRIERS_SQL, INSIGHTS_ERRORS_SQL, INSIGHTS_TOTALS_SQL, PER_DAY_SQL } from "../../api/sms/reports";
import { exportSelect } from "../../api/sms/export-job";
import { validate } from "../../api/lib/validate";

const root = resolve(__dirname, "..", "..");
const bun = resolve(root, "node_modules", ".bin", "bun");
const dbName = `mensageria_partitions_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
let admin: pg.Client;
let db: pg.Pool;
let url: string;
let accountId: string;
const archive = mkdtempSync(join(tmpdir(), "partitions-archive-"));

/** UTC month start, `add` months from now's month. */
const month = (add: number, from = new Date()) => new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + add, 1));
const suffix = (d: Date) => `${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
const day = (d: Date) => d.toISOString().slice(0, 10);

function run(cmd: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(bun, cmd, { cwd: root, env: { ...process.env, NODE_ENV: "test", DATABASE_URL: url, ...env } });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => process.stderr.write(c));
    child.on("close", (code) => (code === 0 ? done(out) : fail(new Error(`${cmd.join(" ")} exited ${code}`))));
  });
}

type Report = { skipped?: "locked"; created?: number; archived?: Array<{ month: string; files: Record<string, { path: string; rows: number }> }> };
const maintain = async (now: Date, ahead = 3): Promise<Report> =>
  JSON.parse((await run(["tests/support/partitions-run.ts", now.toISOString(), archive, String(ahead)])).trim().split("\n").pop()!);

const q = async <T = Record<string, unknown>>(sql: string, bind: unknown[] = []) => (await db.query(sql, bind)).rows as T[];
const partitionsOf = async (table: string) =>
  (await q<{ name: string }>(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`, [table])).map(
    (r) => r.name,
  );

/** Every table an EXPLAIN of `sql` would read (partitions by name). */
async function scanned(sql: string, bind: unknown[] = []): Promise<string[]> {
  const [{ "QUERY PLAN": plan }] = await q<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, bind);
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      const n = node as Record<string, unknown>;
      if (typeof n["Relation Name"] === "string") found.add(n["Relation Name"]);
      Object.values(n).forEach(walk);
    }
  };
  walk(plan);
  return [...found].filter((t) => t.startsWith("messages")).sort();
}

/** The partitions a São Paulo day range [from, to] overlaps (its UTC bounds: 03:00 of `from` to 03:00 after `to`). */
function expectedPartitions(from: string, to: string): string[] {
  const start = new Date(`${from}T03:00:00Z`);
  const end = new Date(Date.parse(`${to}T03:00:00Z`) + 86_400_000 - 1);
  const out: string[] = [];
  for (let m = month(0, start); m <= end; m = month(1, m)) out.push(`messages_p${suffix(m)}`);
  return out;
}

/** CSV records (without the header) of a gzip file, quote-aware. */
async function csvRecords(path: string): Promise<number> {
  let quoted = false;
  let lines = 0;
  for await (const chunk of createReadStream(path).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    for (const b of chunk) {
      if (b === 34) quoted = !quoted;
      else if (b === 10 && !quoted) lines++;
    }
  }
  return lines - 1;
}

/** `n` messages of the account on the 10th of `m` (one per hour), each with a 'sent' provider event and a provider id. */
async function fill(m: Date, n: number, body = "Oferta") {
  await q(
    `WITH m AS (
       INSERT INTO messages (account_id, channel, direction, sender, recipient, body, status, provider, provider_message_id, error_code, carrier, created_at)
       SELECT $1, 'sms', 'outbound', 'LOJA', '+5511900' || lpad(g::text, 6, '0'), $4 || E'\\nlinha 2, "aspas"', 'delivered', 'simulator',
              $2 || '-' || g, CASE WHEN g % 3 = 0 THEN 'E1' END, 'Vivo', $3::timestamptz + make_interval(hours => g)
         FROM generate_series(1, $5::int) g
       RETURNING id, created_at
     )
     INSERT INTO message_events (message_id, message_created_at, account_id, status, source) SELECT id, created_at, $1, 'delivered', 'provider' FROM m`,
    [accountId, suffix(m), new Date(m.getTime() + 9 * 86_400_000).toISOString(), body, n],
  );
}

beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(inject("databaseUrl"));
  u.pathname = `/${dbName}`;
  url = u.toString();
  await run(["models/migrate.ts", "up"]);
  db = new pg.Pool({ connectionString: url, max: 3 });
  // DROP DATABASE … WITH (FORCE) at the end terminates a connection still closing: not an error of the test.
  db.on("error", () => undefined);
  await q(`INSERT INTO currencies (code, name, name_plural, symbol, symbol_native, decimal_digits) VALUES ('BRL', 'Real', 'Reais', 'R$', 'R$', 2)`);
  [{ id: accountId }] = await q<{ id: string }>(`INSERT INTO accounts (name, auth_token) VALUES ('Partições', 'x') RETURNING id`);
  // Months from 16 back to the current one; data in the last 16 except the current.
  await q(`SELECT message_partitions_ensure($1, $2)`, [month(-16).toISOString(), month(0).toISOString()]);
  for (let i = -16; i <= -1; i++) await fill(month(i), 20 + (i + 16));
}, 120_000);

afterAll(async () => {
  await db?.end();
  await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin?.end();
  rmSync(archive, { recursive: true, force: true });
});

describe("queries of a period scan only its months", () => {
  const inside = day(new Date(month(-3).getTime() + 9 * 86_400_000)); // the 10th, 3 months ago
  const insideEnd = day(new Date(month(-3).getTime() + 19 * 86_400_000));
  const across = [day(new Date(month(-5).getTime() + 24 * 86_400_000)), day(new Date(month(-4).getTime() + 4 * 86_400_000))] as const;

  it("the SMS history: a page, its count, and a keyset page far in", async () => {
    for (const [gte, lte] of [[inside, insideEnd], across] as const) {
      const want = expectedPartitions(gte, lte);
      const h = smsHistoryQueries(accountId, validate(smsHistorySchema, { "created_at[gte]": gte, "created_at[lte]": lte }));
      expect(await scanned(h.list.sql, h.list.bind)).toEqual(want);
      expect(await scanned(h.count.sql, h.count.bind)).toEqual(want);
      const filtered = smsHistoryQueries(accountId, validate(smsHistorySchema, { created_at: { gte, lte }, status: "delivered", to: "+5511900000001" }));
      expect(await scanned(filtered.list.sql, filtered.list.bind)).toEqual(want);
      // The cursor of a page deep in the range (page 5,000 costs what page 1 costs).
      const [last] = await q<{ id: string; t: string }>(
        `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS t FROM messages WHERE account_id = $1 AND created_at >= $2 ORDER BY created_at LIMIT 1`,
        [accountId, `${gte}T03:00:00Z`],
      );
      const deep = smsHistoryQueries(accountId, { ...validate(smsHistorySchema, { created_at: { gte, lte } }), cursor: { t: last.t, i: last.id, p: 5000, d: "desc" } });
      expect(await scanned(deep.list.sql, deep.list.bind)).toEqual(want);
      expect((await q(deep.list.sql, deep.list.bind)).length).toBeGreaterThanOrEqual(0);
    }
    // A partition is more than the period: one month's history reads one partition only.
    expect(expectedPartitions(inside, insideEnd)).toHaveLength(1);
    expect(expectedPartitions(...across)).toHaveLength(2);
  });

  it("reports (per day, carriers) and insights (totals, top errors)", async () => {
    for (const [from, to] of [[inside, insideEnd], across] as const) {
      const want = expectedPartitions(from, to);
      for (const sql of [PER_DAY_SQL, CARRIERS_SQL, INSIGHTS_TOTALS_SQL, INSIGHTS_ERRORS_SQL]) expect(await scanned(sql, [accountId, from, to])).toEqual(want);
    }
    // And they answer the period's rows: 33 messages from 01:00 UTC of the 10th, one an hour; a São Paulo day
    // starts at 03:00 UTC, so the first two belong to the 9th.
    const [t] = await q<{ messages: string }>(INSIGHTS_TOTALS_SQL, [accountId, inside, insideEnd]);
    expect(Number(t.messages)).toBe(31);
  });

  it("the history export", async () => {
    const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
    for (const [from, to] of [[inside, insideEnd], across] as const) {
      const sql = exportSelect(accountId, { id: "", from: "", to: "", status: "", sent_at: { from, to } }, lit);
      expect(await scanned(sql)).toEqual(expectedPartitions(from, to));
    }
  });
});

describe("the partition job", () => {
  it("creates months ahead, archives a month past retention once, keeps the others", async () => {
    const now = new Date();
    const countOf = async (m: Date) =>
      Number(
        (await q<{ n: string }>(`SELECT count(*) AS n FROM messages WHERE created_at >= $1 AND created_at < $2`, [month(0, m).toISOString(), month(1, m).toISOString()]))[0].n,
      );
    const before = new Map<string, number>();
    for (let i = -14; i <= -1; i++) before.set(suffix(month(i)), await countOf(month(i)));
    // A keyed row of the oldest month: it leaves with its message, in the archive.
    const [old] = await q<{ id: string }>(`SELECT id FROM messages WHERE created_at >= $1 AND created_at < $2 LIMIT 1`, [month(-16).toISOString(), month(-15).toISOString()]);
    await q(`INSERT INTO message_parts (message_id, part, total, provider, provider_message_id) VALUES ($1, 1, 1, 'smpp', 'part-old')`, [old.id]);
    // An open of an old e-mail too (ADR 039): it leaves with its message.
    await q(
      `INSERT INTO email_engagements (account_id, message_id, message_created_at, kind, recipient_domain) SELECT account_id, id, created_at, 'open', 'destino.test' FROM messages WHERE id = $1`,
      [old.id],
    );
    // The longest retention of every plan decides: 15 months keeps month -15 too.
    await q(`INSERT INTO plans (name, service, history_retention_months) VALUES ('Curto', 'sms', 2), ('Longo', 'sms', 15)`);

    // Two workers at once: one run does the work (advisory lock), the month is archived once.
    const [a, b] = await Promise.all([maintain(now), maintain(now)]);
    const archived = [...(a.archived ?? []), ...(b.archived ?? [])];
    expect(archived.map((m) => m.month)).toEqual([suffix(month(-16))]);
    expect([a, b].filter((r) => r.skipped === "locked").length + [a, b].filter((r) => r.archived?.length === 0).length).toBe(1);

    const [done] = archived;
    for (const [name, f] of Object.entries(done.files)) {
      expect(existsSync(f.path), name).toBe(true);
      expect(await csvRecords(f.path), name).toBe(f.rows);
    }
    expect(done.files.messages.rows).toBe(20);
    expect(done.files.message_events.rows).toBe(20);
    expect(done.files.message_parts.rows).toBe(1);
    expect(done.files.email_engagements.rows).toBe(1);
    expect(await partitionsOf("messages")).not.toContain(`messages_p${suffix(month(-16))}`);
    expect(await partitionsOf("message_events")).not.toContain(`message_events_p${suffix(month(-16))}`);
    expect(await q(`SELECT 1 FROM pg_class WHERE relname = $1`, [`messages_p${suffix(month(-16))}`])).toHaveLength(0);
    expect(await q(`SELECT 1 FROM message_provider_ids WHERE message_created_at < $1`, [month(-15).toISOString()])).toHaveLength(0);
    expect(await q(`SELECT 1 FROM message_parts WHERE provider_message_id = 'part-old'`)).toHaveLength(0);
    expect(await q(`SELECT 1 FROM email_engagements WHERE message_id = $1`, [old.id])).toHaveLength(0);

    // Ahead: this month and the next three exist for both tables.
    for (let i = 0; i <= 3; i++) {
      expect(await partitionsOf("messages")).toContain(`messages_p${suffix(month(i))}`);
      expect(await partitionsOf("message_events")).toContain(`message_events_p${suffix(month(i))}`);
    }

    // Retention 14 (the longest now): month -15 goes the same way; -14 and later stay whole.
    await q(`UPDATE plans SET history_retention_months = 14 WHERE name = 'Longo'`);
    const second = await maintain(now);
    expect(second.archived?.map((m) => m.month)).toEqual([suffix(month(-15))]);
    expect(second.archived?.[0].files.messages.rows).toBe(21);
    expect(await csvRecords(second.archived![0].files.messages.path)).toBe(21);
    for (const [m, n] of before) expect(await countOf(new Date(`${m.replace("_", "-")}-01T00:00:00Z`)), m).toBe(n);
    expect(await q(`SELECT count(*)::int AS n FROM message_events`)).toEqual([{ n: [...before.values()].reduce((s, n) => s + n, 0) }]);

    // A third run has nothing to archive.
    expect((await maintain(now)).archived).toEqual([]);

    // A long reader of messages holds off the creation of a month and the detach (both need the parent's
    // ACCESS EXCLUSIVE lock): the job gives way (1 s lock timeout), tries again and does both once the
    // reader is gone; the reader is neither blocked nor cancelled.
    await q(`UPDATE plans SET history_retention_months = 13 WHERE name = 'Longo'`);
    const reader = await db.connect();
    await reader.query("BEGIN");
    await reader.query("SELECT count(*) FROM messages");
    const job = maintain(now, 4); // a month more ahead: its creation waits for the reader too
    const waiting = async () =>
      (
        await q<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE NOT l.granted AND a.application_name = 'mensageria-partitions' AND a.datname = current_database()`,
        )
      )[0].n;
    await expect.poll(waiting, { timeout: 30_000, interval: 50 }).toBe(1); // the detach waits behind the reader…
    await expect.poll(waiting, { timeout: 5_000, interval: 50 }).toBe(0); // …and gives way after its 1 s lock timeout
    expect((await reader.query("SELECT count(*)::int AS n FROM messages WHERE created_at >= $1", [month(-13).toISOString()])).rows[0].n).toBeGreaterThan(0);
    await reader.query("COMMIT");
    reader.release();
    const third = await job;
    expect(third.archived?.map((m) => m.month)).toEqual([suffix(month(-14))]);
    expect(third.created).toBe(1);
    expect(await partitionsOf("messages")).toContain(`messages_p${suffix(month(4))}`);
    expect(await csvRecords(third.archived![0].files.messages.path)).toBe(before.get(suffix(month(-14))));
  }, 120_000);
});
