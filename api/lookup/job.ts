/**
 * The list lookup job (worker process, stream "jobs:lookups"; ADR 058). Reads the list's numbers
 * — the stored CSV streamed through csv-parse with the contact import's options, or the group's
 * contacts in pages — and asks the provider LOOKUP_BATCH numbers at a time, LOOKUP_CONCURRENCY
 * requests in flight; each answered batch is one multi-row INSERT (unnest of arrays) into
 * lookup_results. A cell that is no phone number is kept as a bad line (not asked, not charged).
 * Progress is written every half second.
 *
 * When it ends (in one transaction, only from `running`): the lines not looked up are refunded
 * through the ledger, the counts written, and the group cleaned if the list was asked to. A
 * provider that stays down (3 tries per batch) fails the list: what was looked up is kept and
 * charged, the rest refunded.
 *
 * Idempotent: a redelivered job of a finished list does nothing; one of a running list (its worker
 * died) starts over (its results deleted). A PostgreSQL advisory lock keeps two workers off a list.
 */
import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse";
import type pg from "pg";
import { sequelize } from "../../models";
import { creditBalance } from "../accounts/balance";
import { parserOptions, uploadRoot, type StoredFile } from "../imports/files";
import { publishJob } from "../jobs/publish";
import { env } from "../lib/env";
import { isAppError } from "../lib/errors";
import { openSession } from "../lib/pg-session";
import { exec, rows } from "../lib/sql";
import { notify } from "../notifications/services";
import { cellToE164 } from "./number";
import { type LookupAnswer, type LookupProvider, requireLookupProvider } from "./provider";
import { cleanGroupWith, LOOKUP_STREAM, listDir } from "./services";

const PROGRESS_MS = 500;
const TRIES = 3;

type ListRow = {
  id: string;
  account_id: string;
  user_id: string | null;
  status: string;
  source: "file" | "group";
  file: StoredFile | null;
  number_column: string | null;
  group_id: string | null;
  clean_group_id: string | null;
  unit_price: string;
  currency: string;
  charged: string;
};

type Line = { line: number; number: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class LookupJob {
  private processed = 0;
  private lastProgress = 0;
  private lastTouch = Date.now();
  private inFlight = new Set<Promise<void>>();
  /** The session's statements, one after another (answered batches arrive side by side). */
  private queue: Promise<unknown> = Promise.resolve();
  private failed: unknown = null;
  private readonly price: number;
  private readonly currency: string;

  constructor(
    private readonly db: pg.Client,
    private readonly list: ListRow,
    private readonly provider: LookupProvider,
    private readonly touch?: () => Promise<void>,
  ) {
    this.price = Number(list.unit_price);
    this.currency = list.currency.trim();
  }

  private async progress(force = false) {
    const now = Date.now();
    if (!force && now - this.lastProgress < PROGRESS_MS) return;
    this.lastProgress = now;
    await this.serial(() => this.db.query(`UPDATE lookup_lists SET processed_rows = $2, updated_at = now() WHERE id = $1`, [this.list.id, this.processed]));
    if (this.touch && now - this.lastTouch > 5000) {
      this.lastTouch = now;
      await this.touch().catch(() => undefined);
    }
  }

  /** One multi-row INSERT of answered lines (or bad lines, `answers` null). */
  private async write(lines: Line[], answers: LookupAnswer[] | null) {
    if (!lines.length) return;
    const a = answers;
    // Direct pg: the job's own session (the one holding the advisory lock) writes its results.
    await this.serial(() =>
      this.db.query(
        `INSERT INTO lookup_results (account_id, list_id, line, number, status, valid, type, country, carrier, original_carrier, ported, price, currency)
       SELECT $1, $2, t.line, t.number, t.status, t.valid, t.type, t.country, t.carrier, t.original_carrier, t.ported, t.price, $3
         FROM unnest($4::int[], $5::text[], $6::text[], $7::bool[], $8::text[], $9::text[], $10::text[], $11::text[], $12::bool[], $13::bigint[])
           AS t(line, number, status, valid, type, country, carrier, original_carrier, ported, price)`,
        [
          this.list.account_id,
          this.list.id,
          this.currency,
          lines.map((l) => l.line),
          lines.map((l, i) => (a ? a[i].number : l.number.slice(0, 64))),
          lines.map((_, i) => (a ? (a[i].valid ? "ok" : "invalid") : "bad_line")),
          lines.map((_, i) => (a ? a[i].valid : false)),
          lines.map((_, i) => (a ? a[i].type : null)),
          lines.map((_, i) => (a ? a[i].country : null)),
          lines.map((_, i) => (a ? a[i].carrier : null)),
          lines.map((_, i) => (a ? a[i].originalCarrier : null)),
          lines.map((_, i) => (a ? a[i].ported : null)),
          lines.map(() => (a ? this.price : 0)),
        ],
      ),
    );
  }

  /** Run `f` on the session after the statements queued before it. */
  private serial<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f, f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async ask(batch: Line[]) {
    let answers: LookupAnswer[] | null = null;
    for (let attempt = 1; !answers; attempt++) {
      try {
        answers = await this.provider.lookup(batch.map((l) => l.number));
      } catch (e) {
        if (attempt >= TRIES) throw e;
        await sleep(200 * 2 ** attempt);
      }
    }
    await this.write(batch, answers);
  }

  /** Hand a batch to the provider, waiting while LOOKUP_CONCURRENCY are in flight. */
  private async dispatch(batch: Line[]) {
    while (this.inFlight.size >= env().LOOKUP_CONCURRENCY) await Promise.race(this.inFlight);
    if (this.failed) throw this.failed;
    const p: Promise<void> = this.ask(batch)
      .catch((e) => {
        this.failed ??= e;
      })
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** The list's lines in order: the CSV's data rows, or the group's numbers. */
  private async *lines(): AsyncGenerator<{ line: number; cell: string }> {
    if (this.list.source === "file") {
      const file = this.list.file!;
      const source = createReadStream(join(uploadRoot(), file.path), { highWaterMark: 1 << 20 });
      const parser = source.pipe(parse(parserOptions(file)));
      source.on("error", (e) => parser.destroy(e));
      let index = -1;
      let line = 0;
      for await (const record of parser as AsyncIterable<string[]>) {
        if (index < 0) {
          index = file.columns.indexOf(this.list.number_column ?? "");
          continue;
        }
        yield { line: ++line, cell: record[index] ?? "" };
      }
      return;
    }
    let after = "00000000-0000-0000-0000-000000000000";
    let line = 0;
    for (;;) {
      const { rows: page } = await this.serial(() =>
        this.db.query<{ id: string; mobile_number: string }>(
          `SELECT c.id, c.mobile_number FROM contact_group_members m JOIN contacts c ON c.id = m.contact_id AND c.account_id = $1
          WHERE m.group_id = $2 AND m.account_id = $1 AND c.mobile_number IS NOT NULL AND c.id > $3 ORDER BY c.id LIMIT 10000`,
          [this.list.account_id, this.list.group_id, after],
        ),
      );
      if (!page.length) return;
      for (const c of page) yield { line: ++line, cell: c.mobile_number };
      after = page[page.length - 1].id;
    }
  }

  async run() {
    const { id } = this.list;
    await this.db.query(`DELETE FROM lookup_results WHERE list_id = $1`, [id]);
    await this.db.query(
      `UPDATE lookup_lists SET status = 'running', started_at = now(), finished_at = NULL, processed_rows = 0, failure = NULL, updated_at = now() WHERE id = $1`,
      [id],
    );
    const size = env().LOOKUP_BATCH;
    let batch: Line[] = [];
    let bad: Line[] = [];
    try {
      for await (const { line, cell } of this.lines()) {
        const number = cellToE164(cell);
        if (number) batch.push({ line, number });
        else bad.push({ line, number: cell.trim() });
        this.processed++;
        if (batch.length >= size) {
          await this.dispatch(batch);
          batch = [];
        }
        if (bad.length >= size) {
          await this.write(bad, null);
          bad = [];
        }
        if ((this.processed & 0x3ff) === 0) await this.progress();
      }
      if (batch.length) await this.dispatch(batch);
      await this.write(bad, null);
    } catch (e) {
      this.failed ??= e;
    }
    await Promise.all(this.inFlight);
    await this.finish();
  }

  /** Refund what was not looked up, write the counts, clean the group: once, from `running`. */
  private async finish() {
    const { id, account_id: accountId } = this.list;
    const failure = this.failed ? `errors.${isAppError(this.failed) ? this.failed.code : "PROVIDER_UNAVAILABLE"}` : null;
    if (this.failed && !isAppError(this.failed)) console.error(`lookup list ${id} failed`, this.failed);
    let cleaned = 0;
    await sequelize().transaction(async (transaction) => {
      const [c] = await rows<{ looked: number; valid: number; invalid: number; bad: number; lines: number; spent: string }>(
        `SELECT count(*) FILTER (WHERE status <> 'bad_line')::int AS looked, count(*) FILTER (WHERE valid)::int AS valid,
                count(*) FILTER (WHERE status = 'invalid')::int AS invalid, count(*) FILTER (WHERE status = 'bad_line')::int AS bad,
                count(*)::int AS lines, coalesce(sum(price), 0) AS spent
           FROM lookup_results WHERE list_id = $1`,
        [id],
        { transaction },
      );
      const refund = Math.max(0, Number(this.list.charged) - Number(c.spent));
      const updated = await exec(
        `UPDATE lookup_lists SET status = $2, failure = $3, processed_rows = $4, valid_count = $5, invalid_count = $6, bad_lines = $7, refunded = $8,
                total_rows = CASE WHEN $2 = 'completed' THEN $4 ELSE total_rows END, finished_at = now(), updated_at = now()
          WHERE id = $1 AND status = 'running'`,
        [id, failure ? "failed" : "completed", failure, failure ? c.lines : this.processed, c.valid, c.invalid, c.bad, refund],
        { transaction },
      );
      if (!updated) return;
      await creditBalance(accountId, refund, transaction, { kind: "refund", reference: `lookup-list:${id}`, reason: "number lookup list: lines not looked up" });
      if (!failure && this.list.clean_group_id) cleaned = (await cleanGroupWith(accountId, id, this.list.clean_group_id, undefined, transaction)).moved;
    });
    if (this.list.source === "file") await rm(listDir(id), { recursive: true, force: true });
    await notify(
      {},
      {
        accountId,
        userId: this.list.user_id,
        kind: failure ? "lookup_failed" : "lookup_completed",
        params: { name: this.list.source === "file" ? (this.list.file?.name ?? "") : "", cleaned },
        link: "/lookup/list",
      },
    ).catch((e) => console.error(`lookup list ${id}: notification`, e));
  }
}

/** Run (or resume) one list. `touch` keeps the job queue from handing it to another worker. */
export async function runLookupList(id: string, touch?: () => Promise<void>) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return;
  const client = await openSession("mensageria-lookup");
  try {
    // Direct pg: the advisory lock is held by this session, which api/lib/sql.ts's pooled connections cannot hold.
    const { rows: lock } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok`, [`lookup:${id}`]);
    if (!lock[0].ok) return;
    const { rows: found } = await client.query<ListRow>(
      `SELECT id, account_id, user_id, status, source, file, number_column, group_id, clean_group_id, unit_price, currency, charged FROM lookup_lists WHERE id = $1`,
      [id],
    );
    const list = found[0];
    if (!list || (list.status !== "queued" && list.status !== "running")) return;
    await new LookupJob(client, list, requireLookupProvider(), touch).run();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Announce again the lists whose job was lost: queued for a minute, or running without progress for 2 minutes. */
export async function sweepLookupLists() {
  const found = await rows<{ id: string }>(`UPDATE lookup_lists SET updated_at = now()
     WHERE (status = 'queued' AND updated_at < now() - interval '1 minute') OR (status = 'running' AND updated_at < now() - interval '2 minutes')
     RETURNING id`);
  for (const r of found) await publishJob(LOOKUP_STREAM, r.id, { id: r.id });
  return found.length;
}
