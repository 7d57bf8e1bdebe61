/**
 * The import job (worker process, stream "jobs:imports"). For each file: stream it through
 * csv-parse, turn each record into a staging line (api/imports/rows.ts) and COPY the lines into
 * contact_import_rows (one COPY per STAGE_ROWS lines); rejected lines go to the error report on
 * disk. Meanwhile, on MERGERS other connections (one per hash partition of the numbers), merge
 * the committed staging lines into contacts in batches of MERGE_BATCH lines, in line order, with
 * one set-based upsert per batch (the last occurrence of a number wins; existing values are kept
 * where the file has none; tags and custom values are united; a contact the line leaves as it was
 * is not rewritten) and add them to the chosen group.
 * Reading (JavaScript) and merging (PostgreSQL) so keep both cores busy. Nothing is held in
 * memory beyond a few buffers. docs/decisions/003-csv-import.md explains the choices.
 *
 * Idempotent: a redelivered job of a finished import does nothing; one of a running import
 * (its worker died) starts over cleanly: staging rows and counters reset, the merge by mobile
 * number gives the same contacts again. A PostgreSQL advisory lock keeps two workers off the
 * same import.
 */
import { openSession } from "../lib/pg-session";
import { once } from "node:events";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { finished } from "node:stream/promises";
import { CsvError, parse } from "csv-parse";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { IMPORT_MAX_ROWS } from "../../models/constants";
import { AppError, isAppError } from "../lib/errors";
import { publishJob } from "../jobs/publish";
import { notify } from "../notifications/services";
import { absolute, errorReportPath, importDir, parserOptions, removeImportFiles, type StoredFile } from "./files";
import { RowBuilder, stagingColumns, type CustomDef, type StagingColumn } from "./rows";
import { IMPORT_STREAM } from "./services";
import { exec, rows } from "../lib/sql";

/** Staged lines per merge transaction (each merger takes its partition of them). */
export const MERGE_BATCH = 100_000;
/**
 * Merge connections per import. Each takes the numbers of one hash partition, in line order, so
 * the last occurrence of a number still wins and two mergers never touch the same contact.
 */
export const MERGERS = 2;
/** Valid lines per COPY (each committed one is ready for the mergers). */
const STAGE_ROWS = Math.max(1000, Math.floor(MERGE_BATCH / 2));
const PROGRESS_MS = 500;
const COPY_CHUNK = 256 * 1024;

type JobRow = {
  id: string;
  account_id: string;
  user_id: string | null;
  status: string;
  files: StoredFile[];
  mapping: Record<string, string>;
  group_id: string | null;
};

const csvField = (v: string | number) => {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The error report, written as lines are rejected (buffered, with backpressure). */
class ErrorReport {
  private out: WriteStream;
  private buf = "";
  private failure: unknown = null;
  count = 0;
  constructor(path: string) {
    this.out = createWriteStream(path);
    this.out.on("error", (e) => (this.failure ??= e));
    this.buf = "file,line,column,value,error\n";
  }
  async add(file: string, line: number, column: string, value: string, error: string) {
    this.count++;
    this.buf += `${csvField(file)},${line},${csvField(column)},${csvField(value.slice(0, 200))},${error}\n`;
    if (this.buf.length > 64 * 1024) await this.flush();
  }
  async flush() {
    if (this.failure) throw this.failure;
    if (!this.buf) return;
    const ok = this.out.write(this.buf);
    this.buf = "";
    if (!ok) await once(this.out, "drain");
  }
  async close() {
    await this.flush();
    this.out.end();
    await finished(this.out);
  }
  destroy() {
    this.out.destroy();
  }
}

class ImportJob {
  private processed = 0;
  private errors!: ErrorReport;
  private lastProgress = 0;
  private lastTouch = Date.now();
  /** Lines committed to the staging table so far (sequence numbers 1..staged). */
  private staged = 0;
  private readingDone = false;
  private failed: unknown = null;
  private wakers: Array<() => void> = [];

  constructor(
    /** Runs the COPYs. */
    private readonly reader: pg.Client,
    /** Run the merge batches (one per hash partition of the numbers), while the reader goes on. */
    private readonly mergers: pg.Client[],
    private readonly row: JobRow,
    private readonly touch?: () => Promise<void>,
  ) {}

  private signal() {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  private async keepAlive() {
    const now = Date.now();
    if (this.touch && now - this.lastTouch > 5000) {
      this.lastTouch = now;
      await this.touch().catch(() => undefined);
    }
  }

  private async progress(force = false) {
    const now = Date.now();
    if (!force && now - this.lastProgress < PROGRESS_MS) return;
    this.lastProgress = now;
    await exec(`UPDATE contact_imports SET processed_rows = $2, error_count = $3, updated_at = now() WHERE id = $1`, [this.row.id, this.processed, this.errors.count]);
    await this.keepAlive();
  }

  /**
   * Stream one file into the staging table, committing every STAGE_ROWS valid lines (one COPY
   * each) so the merger can take them while the file is still being read. Answers the last
   * sequence number used.
   */
  private async stageFile(file: StoredFile, builder: RowBuilder, staging: StagingColumn[], seq: number) {
    const sql = `COPY contact_import_rows (import_id, line, ${staging.join(", ")}) FROM STDIN`;
    const source = createReadStream(absolute(file.path), { highWaterMark: 1 << 20 });
    const parser = source.pipe(parse({ ...parserOptions(file), info: true }));
    source.on("error", (e) => parser.destroy(e)); // a missing or unreadable file fails the import
    let copy: ReturnType<typeof copyFrom> | null = null;
    let inCopy = 0;
    let header = true;
    let rows = 0;
    let buf = "";
    const commit = async () => {
      if (!copy) return;
      copy.end(buf);
      buf = "";
      await finished(copy);
      copy = null;
      inCopy = 0;
      this.staged = seq;
      this.signal();
    };
    try {
      for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        if (header) {
          header = false;
          continue;
        }
        if (this.failed) throw this.failed; // the merger stopped
        if (++rows > IMPORT_MAX_ROWS) throw new AppError("IMPORT_TOO_MANY_ROWS", { params: { file: file.name } });
        const out = builder.line(record, seq + 1);
        if (typeof out === "string") {
          seq++;
          copy ??= this.reader.query(copyFrom(sql));
          buf += out;
          if (buf.length > COPY_CHUNK) {
            const ok = copy.write(buf);
            buf = "";
            if (!ok) await once(copy, "drain");
          }
          if (++inCopy >= STAGE_ROWS) await commit();
        } else {
          await this.errors.add(file.name, info.lines, out.column, out.value, "errors.IMPORT_INVALID_NUMBER");
        }
        this.processed++;
        if ((this.processed & 0xfff) === 0) await this.progress();
      }
      await commit();
    } catch (e) {
      source.destroy();
      const open = copy as ReturnType<typeof copyFrom> | null;
      if (open) {
        open.destroy(e instanceof Error ? e : new Error(String(e)));
        await finished(open).catch(() => undefined);
      }
      if (e instanceof CsvError) throw new AppError("IMPORT_LAYOUT", { params: { file: file.name, line: Number((e as CsvError & { lines?: number }).lines ?? 0) } });
      throw e;
    }
    return seq;
  }

  /** Merge the staged lines of one partition in line order, MERGE_BATCH lines at a time, as the reader commits them. */
  private async mergeLoop(staging: StagingColumn[], partition: number) {
    let merged = 0;
    for (;;) {
      if (this.failed) return;
      const ready = this.staged - merged;
      if (ready >= MERGE_BATCH || (this.readingDone && ready > 0)) {
        const hi = merged + Math.min(ready, MERGE_BATCH);
        await this.mergeBatch(staging, partition, merged, hi);
        merged = hi;
        continue;
      }
      if (this.readingDone) return;
      await new Promise<void>((resolve) => this.wakers.push(resolve));
    }
  }

  /** One set-based upsert of the staged lines (lo, hi] of one partition, with the group membership, in one transaction. */
  private async mergeBatch(staging: StagingColumn[], partition: number, lo: number, hi: number) {
    const cols = staging;
    const pick = cols.map((c) => (c === "custom" ? "COALESCE(custom, '{}'::jsonb) AS custom" : c === "tags" ? "COALESCE(tags, '{}') AS tags" : c)).join(", ");
    const set = cols
      .filter((c) => c !== "mobile_number")
      .map((c) =>
        c === "custom"
          ? "custom = contacts.custom || EXCLUDED.custom"
          : c === "tags"
            ? "tags = CASE WHEN cardinality(EXCLUDED.tags) = 0 THEN contacts.tags ELSE ARRAY(SELECT DISTINCT unnest(contacts.tags || EXCLUDED.tags)) END"
            : `${c} = COALESCE(EXCLUDED.${c}, contacts.${c})`,
      );
    // Write a contact only when a value changes (a re-import of the same list leaves most of them
    // as they are: no new row version, no index entries, no WAL); unchanged ones still join the group.
    const changed = cols
      .filter((c) => c !== "mobile_number")
      .map((c) =>
        c === "custom"
          ? "contacts.custom || EXCLUDED.custom IS DISTINCT FROM contacts.custom"
          : c === "tags"
            ? "NOT (contacts.tags @> EXCLUDED.tags)"
            : `(EXCLUDED.${c} IS NOT NULL AND EXCLUDED.${c} IS DISTINCT FROM contacts.${c})`,
      );
    const part = MERGERS > 1 ? ` AND (hashtext(mobile_number) & 2147483647) % ${MERGERS} = ${partition}` : "";
    const sql = `
      WITH lines AS (
        SELECT * FROM contact_import_rows WHERE import_id = $1 AND line > $2 AND line <= $3${part}
      ), src AS (
        SELECT DISTINCT ON (mobile_number) ${pick} FROM lines ORDER BY mobile_number, line DESC
      ), up AS (
        INSERT INTO contacts (account_id, ${cols.join(", ")})
        SELECT $4, ${cols.join(", ")} FROM src
        ON CONFLICT (account_id, mobile_number) WHERE mobile_number IS NOT NULL
        DO UPDATE SET ${[...set, "updated_at = now()"].join(", ")}${changed.length ? ` WHERE ${changed.join(" OR ")}` : " WHERE false"}
        RETURNING id, (xmax = 0) AS inserted
      ), member AS (
        INSERT INTO contact_group_members (group_id, contact_id, account_id)
        SELECT g.id, up.id, $4 FROM up JOIN contact_groups g ON g.id = $5::uuid AND g.account_id = $4
        ON CONFLICT DO NOTHING
      )
      SELECT (SELECT count(*) FILTER (WHERE inserted) FROM up)::int AS inserted, (SELECT count(*) FROM up)::int AS written,
             (SELECT count(*) FROM src)::int AS numbers, (SELECT count(*) FROM lines)::int AS lines`;
    // The numbers the upsert left as they were (none on a first import) still join the group: a
    // second statement, only then, with one index probe per number of the batch (joining them to
    // the upsert's RETURNING in the same statement nest-looped over both: a first import took 325 s instead of 38 s).
    const kept = `
      INSERT INTO contact_group_members (group_id, contact_id, account_id)
      SELECT g.id, c.id, $4
        FROM (SELECT DISTINCT mobile_number FROM contact_import_rows WHERE import_id = $1 AND line > $2 AND line <= $3${part}) src
        JOIN LATERAL (SELECT id FROM contacts WHERE account_id = $4 AND contacts.mobile_number = src.mobile_number) c ON true
        JOIN contact_groups g ON g.id = $5::uuid AND g.account_id = $4
      ON CONFLICT DO NOTHING`;
    const db = this.mergers[partition];
    let counts: { inserted: number; written: number; numbers: number; lines: number };
    // Direct pg: a merger is its own raw pg client with its own BEGIN/SET LOCAL/COMMIT, outside the Sequelize pool api/lib/sql.ts uses.
    await db.query("BEGIN");
    try {
      // Staging statistics lag behind the COPYs: the (import_id, line) index is always the way in.
      await db.query("SET LOCAL enable_seqscan = off");
      const { rows } = await db.query<typeof counts>(sql, [this.row.id, lo, hi, this.row.account_id, this.row.group_id]);
      counts = rows[0];
      if (this.row.group_id && counts.written < counts.numbers) await db.query(kept, [this.row.id, lo, hi, this.row.account_id, this.row.group_id]);
      await db.query("COMMIT");
    } catch (e) {
      await db.query("ROLLBACK").catch(() => undefined);
      throw e;
    }
    // Every valid line either made a new contact or merged into one (an earlier line or an existing contact).
    // Counted after the commit: the mergers never wait on each other for the import's row.
    await db.query(`UPDATE contact_imports SET inserted_rows = inserted_rows + $2, merged_rows = merged_rows + $3, updated_at = now() WHERE id = $1`, [
      this.row.id,
      counts.inserted,
      counts.lines - counts.inserted,
    ]);
    await this.keepAlive();
  }

  async run() {
    const { id, account_id: accountId } = this.row;
    // Direct pg: the reader is the raw pg client that also runs the COPY stream; api/lib/sql.ts only speaks to the Sequelize pool.
    await this.reader.query(`DELETE FROM contact_import_rows WHERE import_id = $1`, [id]);
    await this.reader.query(
      `UPDATE contact_imports SET status = 'running', started_at = now(), finished_at = NULL, processed_rows = 0, inserted_rows = 0,
         merged_rows = 0, error_count = 0, failure = NULL, failure_params = '{}'::jsonb, updated_at = now() WHERE id = $1`,
      [id],
    );
    await mkdir(importDir(id), { recursive: true });
    this.errors = new ErrorReport(errorReportPath(id));
    try {
      const defs = await this.reader.query<CustomDef>(`SELECT key, type, options FROM custom_fields WHERE account_id = $1`, [accountId]);
      const customDefs = new Map(defs.rows.map((d) => [d.key, d]));
      const staging = stagingColumns(this.row.mapping);
      const merging = Promise.all(
        this.mergers.map((_, partition) =>
          this.mergeLoop(staging, partition).catch((e) => {
            this.failed ??= e;
            this.signal();
          }),
        ),
      );
      try {
        let seq = 0;
        for (const file of this.row.files) {
          const builder = new RowBuilder(id, file.columns, this.row.mapping, staging, customDefs);
          seq = await this.stageFile(file, builder, staging, seq);
        }
        await this.errors.close();
        await this.progress(true);
      } catch (e) {
        this.failed ??= e;
      } finally {
        this.readingDone = true;
        this.signal();
      }
      await merging;
      if (this.failed) throw this.failed;
      await this.reader.query(`DELETE FROM contact_import_rows WHERE import_id = $1`, [id]);
      const { rows } = await this.reader.query<{ inserted_rows: number; merged_rows: number; error_count: number }>(
        `UPDATE contact_imports SET status = 'completed', finished_at = now(), processed_rows = $2, error_count = $3, updated_at = now()
         WHERE id = $1 RETURNING inserted_rows, merged_rows, error_count`,
        [id, this.processed, this.errors.count],
      );
      await removeImportFiles(id, { keepReport: true });
      const done = rows[0];
      await notify(
        {},
        {
          accountId,
          userId: this.row.user_id,
          kind: "import_completed",
          params: { inserted: Number(done.inserted_rows), merged: Number(done.merged_rows), errors: Number(done.error_count) },
          link: `/contacts/import/${id}`,
        },
      );
    } catch (e) {
      if (isAppError(e) && e.code === "IMPORT_LAYOUT")
        await this.errors.add(String(e.params?.file ?? ""), Number(e.params?.line ?? 0), "", "", "errors.IMPORT_LAYOUT").catch(() => undefined);
      await this.errors.close().catch(() => this.errors.destroy());
      const code = isAppError(e) && e.code.startsWith("IMPORT_") ? e.code : "IMPORT_FAILED";
      if (!isAppError(e)) console.error(`import ${id} failed`, e);
      // The job's connections may be mid-COPY: the pool records the failure.
      await exec(`DELETE FROM contact_import_rows WHERE import_id = $1`, [id]);
      await exec(
        `UPDATE contact_imports SET status = 'failed', failure = $2, failure_params = $3::jsonb, finished_at = now(), processed_rows = $4,
           error_count = $5, updated_at = now() WHERE id = $1`,
        [id, `errors.${code}`, JSON.stringify(isAppError(e) ? (e.params ?? {}) : {}), this.processed, this.errors.count],
      );
      await removeImportFiles(id, { keepReport: true });
    }
  }
}

/**
 * Run (or resume) one import. `touch` tells the job queue the job is alive (a long import is not
 * reclaimed by another worker while it runs).
 */
export async function runImport(id: string, touch?: () => Promise<void>) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return;
  const client = await openSession("mensageria-import");
  const mergers: pg.Client[] = [];
  try {
    // Direct pg: the advisory lock is held by this session (client), which api/lib/sql.ts's pooled connections cannot hold.
    const { rows: lock } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok`, [`import:${id}`]);
    if (!lock[0].ok) return; // another worker runs it right now
    const { rows } = await client.query<JobRow>(`SELECT id, account_id, user_id, status, files, mapping, group_id FROM contact_imports WHERE id = $1`, [id]);
    const row = rows[0];
    if (!row || (row.status !== "queued" && row.status !== "running")) return;
    for (let i = 0; i < MERGERS; i++) {
      mergers.push(await openSession("mensageria-import-merge"));
    }
    await new ImportJob(client, mergers, row, touch).run();
  } finally {
    await Promise.all(mergers.map((m) => m.end().catch(() => undefined)));
    await client.end().catch(() => undefined); // the session's end releases the advisory lock
  }
}

/**
 * Announce again the imports whose job was lost: queued for 10 minutes (the announcement never
 * reached Redis) or running without progress for 2 minutes (its worker died and the entry is
 * gone). Each is re-announced at most once per period (the row is touched); the advisory lock
 * keeps a duplicate from running it twice.
 */
export async function sweepImports() {
  const found = await rows<{ id: string }>(`UPDATE contact_imports SET updated_at = now()
     WHERE (status = 'queued' AND updated_at < now() - interval '10 minutes') OR (status = 'running' AND updated_at < now() - interval '2 minutes')
     RETURNING id`);
  for (const r of found) await publishJob(IMPORT_STREAM, r.id, { id: r.id });
  // Uploads nobody started within a day: their files are personal data we no longer need.
  const abandoned = await rows<{ id: string }>(`DELETE FROM contact_imports WHERE status = 'uploaded' AND created_at < now() - interval '24 hours' RETURNING id`);
  for (const r of abandoned) await removeImportFiles(r.id);
  return found.length + abandoned.length;
}
