/**
 * The monthly partitions of `messages` and `message_events` (migration 0040, ADR 029), kept by the
 * worker (`maintainPartitions`, every MESSAGE_PARTITIONS_SWEEP_SECONDS):
 *
 * 1. Ahead: the months from the current one to MESSAGE_PARTITIONS_AHEAD_MONTHS ahead exist
 *    (`message_partitions_ensure`, the migration's function; lock wait 1 s, retried, see
 *    retryOnLockTimeout). There is no DEFAULT partition.
 * 2. Behind: a month that ended more than the retention ago (the longest
 *    `plans.history_retention_months`: a partition holds every account) leaves the database:
 *    a. exported, before anything changes, from one REPEATABLE READ snapshot: the month's
 *       messages, message_events and the rows keyed by those messages (message_parts,
 *       smpp_messages, moderation_holds, email_engagements), each as `<dir>/<YYYY_MM>/<table>.csv.gz` (CSV with a
 *       header, as COPY writes it), written to `.part`, read back and its records counted
 *       against COPY's row count, then renamed;
 *    b. detached in one short transaction (lock_timeout 1 s, up to 5 attempts; else the next run):
 *       the keyed rows are deleted (as many as were exported, else it rolls back), the month's
 *       message_provider_ids too, the events partition detached (its foreign key dropped), the
 *       messages partition detached;
 *    c. dropped only once the detached tables (frozen now: nothing can reach them through the
 *       parent) hold exactly the rows exported; if a row came in between a and b, the month is
 *       exported again from the detached tables, verified, and then dropped. A run that died after
 *       b finds the detached tables (no longer partitions) and finishes c.
 *
 * One run at a time over every worker: a session advisory lock on the job's own connection
 * (`pg_try_advisory_lock`); a worker that does not get it skips the run.
 */
import { openSession } from "../lib/pg-session";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { env } from "../lib/env";

/** When no plan says otherwise (the column's default too). */
export const DEFAULT_RETENTION_MONTHS = 13;
/** pg_try_advisory_lock key of the job (per database). */
const LOCK_KEY = 29_040_001;

export type ArchivedMonth = { month: string; files: Record<string, { path: string; rows: number }> };
export type PartitionReport = { skipped: "locked" } | { skipped?: undefined; created: number; retentionMonths: number; cutoff: string; archived: ArchivedMonth[] };

export type PartitionOptions = {
  /** The job's clock (tests move it); default now. */
  now?: Date;
  aheadMonths?: number;
  dir?: string;
  databaseUrl?: string;
};

const monthStart = (d: Date, add = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1));
const fromSuffix = (s: string) => new Date(Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, 1));

export function archiveDir(): string {
  return resolve(env().MESSAGE_ARCHIVE_DIR || join(env().UPLOAD_DIR, "message-archive"));
}

/** The SELECTs of one month's archive, by file name. Timestamps are literals: COPY cannot bind. */
function monthSelects(s: string, opts: { detached?: boolean } = {}) {
  const from = `'${fromSuffix(s).toISOString()}'::timestamptz`;
  const to = `'${monthStart(fromSuffix(s), 1).toISOString()}'::timestamptz`;
  const keyed = (table: string) => `SELECT * FROM ${table} WHERE message_created_at >= ${from} AND message_created_at < ${to}`;
  const all: Record<string, string> = {
    messages: `SELECT * FROM messages_p${s}`,
    message_events: `SELECT * FROM message_events_p${s}`,
  };
  // Once detached, the keyed rows are gone from their tables: their files from the export stand.
  if (!opts.detached) {
    all.message_parts = keyed("message_parts");
    all.smpp_messages = keyed("smpp_messages");
    all.moderation_holds = keyed("moderation_holds");
    all.email_engagements = keyed("email_engagements");
  }
  return { all, from, to };
}

/** CSV records in a gzip file (quote-aware: a body may hold newlines), without the header. */
export async function countCsvRecords(path: string): Promise<number> {
  let quoted = false;
  let lines = 0;
  for await (const chunk of createReadStream(path).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    for (const b of chunk) {
      if (b === 34) quoted = !quoted;
      else if (b === 10 && !quoted) lines++;
    }
  }
  return Math.max(0, lines - 1);
}

/** COPY one SELECT into `<path>.part` gzipped; answers COPY's row count. */
async function copyOut(client: pg.Client, select: string, path: string): Promise<number> {
  const source = client.query(copyTo(`COPY (${select}) TO STDOUT WITH (FORMAT csv, HEADER)`));
  await pipeline(source, createGzip(), createWriteStream(`${path}.part`));
  return source.rowCount ?? 0;
}

/** Exports a month (the partitions attached or, with `detached`, frozen) and verifies every file. */
async function exportMonth(client: pg.Client, dir: string, s: string, opts: { detached?: boolean } = {}): Promise<ArchivedMonth> {
  const monthDir = join(dir, s);
  await mkdir(monthDir, { recursive: true });
  const files: ArchivedMonth["files"] = {};
  const { all } = monthSelects(s, opts);
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  try {
    for (const [name, select] of Object.entries(all)) {
      const path = join(monthDir, `${name}.csv.gz`);
      files[name] = { path, rows: await copyOut(client, select, path) };
    }
  } finally {
    await client.query("COMMIT");
  }
  for (const f of Object.values(files)) {
    const counted = await countCsvRecords(`${f.path}.part`);
    if (counted !== f.rows) throw new Error(`partition export ${f.path}: ${counted} records read back, COPY wrote ${f.rows}`);
    await rename(`${f.path}.part`, f.path);
  }
  return { month: s, files };
}

/** Detaches a month whose export is written (step b); answers false when a count moved (export again). */
async function detachMonth(client: pg.Client, s: string, exported: ArchivedMonth): Promise<boolean> {
  const { from, to } = monthSelects(s);
  await client.query("BEGIN");
  try {
    await client.query("SET LOCAL lock_timeout = '1s'");
    for (const table of ["message_parts", "smpp_messages", "moderation_holds", "email_engagements"]) {
      const deleted = await client.query(`DELETE FROM ${table} WHERE message_created_at >= ${from} AND message_created_at < ${to}`);
      if (deleted.rowCount !== exported.files[table].rows) {
        await client.query("ROLLBACK");
        return false;
      }
    }
    await client.query(`DELETE FROM message_provider_ids WHERE message_created_at >= ${from} AND message_created_at < ${to}`);
    await client.query(`ALTER TABLE message_events DETACH PARTITION message_events_p${s}`);
    await dropForeignKeys(client, `message_events_p${s}`);
    await client.query(`ALTER TABLE messages DETACH PARTITION messages_p${s}`);
    await client.query("COMMIT");
    return true;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  }
}

/**
 * Creating and detaching a partition both take an ACCESS EXCLUSIVE lock on the parent, and a
 * request waiting for it queues every other reader and writer of messages behind it (a long export
 * would stall every send). So each waits at most 1 s (`lock_timeout`, set by the caller's
 * transaction), then gives way and tries again, up to 5 times 2 s apart; after that the next run
 * tries (months are created three ahead, so there is time).
 */
async function retryOnLockTimeout<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if ((e as { code?: string }).code !== "55P03" || attempt >= 5) throw e; // lock_not_available
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

/** The months from `from` to `to` (message_partitions_ensure), in a transaction that waits 1 s at most for its locks. */
async function ensureMonths(client: pg.Client, from: Date, to: Date): Promise<number> {
  await client.query("BEGIN");
  try {
    await client.query("SET LOCAL lock_timeout = '1s'");
    const { rows } = await client.query<{ n: number }>(`SELECT message_partitions_ensure($1::timestamptz, $2::timestamptz) AS n`, [from.toISOString(), to.toISOString()]);
    await client.query("COMMIT");
    return Number(rows[0].n);
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  }
}

/** A detached events table still points at `messages`: its key would stop the messages partition's detach. */
async function dropForeignKeys(client: pg.Client, table: string) {
  const { rows } = await client.query<{ conname: string }>(`SELECT conname FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'f' AND conparentid = 0`, [table]);
  for (const r of rows) await client.query(`ALTER TABLE ${table} DROP CONSTRAINT ${client.escapeIdentifier(r.conname)}`);
}

/** Step c: the detached tables hold what was exported (else exported again from them), then dropped. */
async function dropDetached(client: pg.Client, dir: string, s: string, exported: ArchivedMonth | null): Promise<ArchivedMonth> {
  const count = async (t: string) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
  const same =
    exported !== null && (await count(`messages_p${s}`)) === exported.files.messages.rows && (await count(`message_events_p${s}`)) === exported.files.message_events.rows;
  let final = exported;
  if (!same) {
    const again = await exportMonth(client, dir, s, { detached: true });
    final = { month: s, files: { ...exported?.files, ...again.files } };
  }
  await client.query(`DROP TABLE IF EXISTS message_events_p${s}`);
  await client.query(`DROP TABLE IF EXISTS messages_p${s}`);
  return final!;
}

/** Tables named messages_pYYYY_MM: attached partitions, and detached ones a previous run left behind. */
async function monthTables(client: pg.Client): Promise<Array<{ suffix: string; attached: boolean }>> {
  const { rows } = await client.query<{ relname: string; relispartition: boolean }>(
    `SELECT c.relname, c.relispartition FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname ~ '^messages_p[0-9]{4}_[0-9]{2}$'
      ORDER BY c.relname`,
  );
  return rows.map((r) => ({ suffix: r.relname.slice("messages_p".length), attached: r.relispartition }));
}

/** One run of the job (see the module comment). */
export async function maintainPartitions(opts: PartitionOptions = {}): Promise<PartitionReport> {
  const now = opts.now ?? new Date();
  const ahead = opts.aheadMonths ?? env().MESSAGE_PARTITIONS_AHEAD_MONTHS;
  const dir = opts.dir ?? archiveDir();
  // Direct pg: a session advisory lock and COPY streams need one connection of their own; api/lib/sql.ts cannot stream.
  const client = await openSession("mensageria-partitions", opts.databaseUrl ?? env().DATABASE_URL);
  try {
    const locked = (await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [LOCK_KEY])).rows[0].ok;
    if (!locked) return { skipped: "locked" };
    try {
      const created = await retryOnLockTimeout(() => ensureMonths(client, monthStart(now), monthStart(now, ahead)));
      const retentionMonths = Number(
        (await client.query<{ n: number }>(`SELECT COALESCE(max(history_retention_months), $1)::int AS n FROM plans`, [DEFAULT_RETENTION_MONTHS])).rows[0].n,
      );
      // A month goes once it ended at or before the cutoff: the current month and `retention` full months before it stay.
      const cutoff = monthStart(now, -retentionMonths);
      const archived: ArchivedMonth[] = [];
      for (const t of await monthTables(client)) {
        if (monthStart(fromSuffix(t.suffix), 1) > cutoff) continue;
        if (!t.attached) {
          archived.push(await dropDetached(client, dir, t.suffix, null));
          continue;
        }
        const exported = await exportMonth(client, dir, t.suffix);
        if (!(await retryOnLockTimeout(() => detachMonth(client, t.suffix, exported)))) continue; // a keyed row came in meanwhile: next run
        archived.push(await dropDetached(client, dir, t.suffix, exported));
      }
      return { created, retentionMonths, cutoff: cutoff.toISOString(), archived };
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
