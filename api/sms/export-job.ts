/**
 * The export job (worker process, stream "jobs:sms-exports"; every kind of export, see selectOf): PostgreSQL writes the CSV itself —
 * `COPY (SELECT … ORDER BY created_at DESC, id DESC) TO STDOUT WITH (FORMAT csv, HEADER)` streamed
 * through pg-copy-streams into `${UPLOAD_DIR}/sms-exports/<account>/<id>.csv.part`, renamed when
 * complete. Nothing but a socket buffer is in memory, whatever the row count; the rows come from
 * one snapshot (one statement). COPY takes no bind parameters, so the filter's values (validated
 * when the export was asked) are quoted with the driver's escapeLiteral.
 *
 * Idempotent: a finished export is skipped; a redelivered one (its worker died) is written again
 * from the start over the same `.part` file. Dates are São Paulo wall-clock times; the price is
 * in the account's currency (decimal, e.g. 0.08) with its code.
 */
import { openSession } from "../lib/pg-session";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { to as copyTo } from "pg-copy-streams";
import { env } from "../lib/env";
import { DEFAULT_LOCALE } from "../lib/i18n";
import { STORED_REASON_KEYS, errorMessageText } from "./error-message";
import { HISTORY_TIME_ZONE } from "./history";
import { liveRoomsExportSelect, type LiveExportFilter } from "../live/report-exports";
import { EXPORT_RETENTION_DAYS, announceExport, exportRelativePath, type ExportFilter, type ExportKind } from "./exports";
import { exec, rows } from "../lib/sql";
import { readerUrl } from "../lib/read-replica";
import type { ReportChannel } from "./report-constants";

/** The CSV's columns, in order (machine names; documented in ADR 009). */
export const EXPORT_COLUMNS = [
  "id",
  "created_at",
  "sent_at",
  "delivered_at",
  "direction",
  "type",
  "sender",
  "recipient",
  "body",
  "segments",
  "coding",
  "status",
  "error_code",
  "error_message",
  "carrier",
  "price",
  "currency",
] as const;

const TZ = `'${HISTORY_TIME_ZONE}'`;
const when = (col: string) => `to_char(${col} AT TIME ZONE ${TZ}, 'YYYY-MM-DD HH24:MI:SS')`;

/**
 * Free text a spreadsheet would run as a formula (a cell starting with = + - @, tab or CR: "CSV
 * injection") gets a leading apostrophe, which spreadsheet programs show as text.
 */
const safe = (column: string) => `CASE WHEN left(${column}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${column} ELSE ${column} END`;

/**
 * error_message as its reader reads it: our stored reasons (locale keys) in `locale`, a
 * provider's text as it came (either made safe for spreadsheets).
 */
const reasonText = (locale: string, lit: (v: string) => string) =>
  `CASE error_message ${STORED_REASON_KEYS.map((k) => `WHEN ${lit(k)} THEN ${lit(errorMessageText(k, locale) ?? k)}`).join(" ")} ELSE ${safe("error_message")} END`;

/**
 * The SELECT of an export (values quoted with `lit`, as COPY cannot bind), with error_message in
 * `locale` (the language of the person who asked for it). Exported for the bench and tests.
 */
export function exportSelect(accountId: string, f: ExportFilter, lit: (v: string) => string, locale: string = DEFAULT_LOCALE, channel: ReportChannel = "sms") {
  const where = [
    `account_id = ${lit(accountId)}::uuid`,
    `channel = ${lit(channel === "whatsapp" ? "whatsapp" : "sms")}`,
    `created_at >= (${lit(f.sent_at.from)}::date)::timestamp AT TIME ZONE ${TZ}`,
    `created_at < (${lit(f.sent_at.to)}::date + 1)::timestamp AT TIME ZONE ${TZ}`,
  ];
  if (f.id) where.push(`id = ${lit(f.id)}::uuid`);
  if (f.status) where.push(`status = ${lit(f.status)}`);
  if (f.from) where.push(`sender = ${lit(f.from)}`);
  if (f.to) where.push(`recipient = ${lit(f.to)}`);
  return `SELECT id, ${when("created_at")} AS created_at, ${when("sent_at")} AS sent_at, ${when("delivered_at")} AS delivered_at,
                 direction, type, sender, recipient, ${safe("body")} AS body, segments, coding, status, error_code, ${reasonText(locale, lit)} AS error_message, carrier,
                 to_char(price / 100.0, 'FM999999999990.00') AS price, trim(currency) AS currency
            FROM messages
           WHERE ${where.join(" AND ")}
           ORDER BY created_at DESC, id DESC`;
}

/** The e-mail export's columns, in order (ADR 009's, with the subject and the opening instead of the SMS parts). */
export const EMAIL_EXPORT_COLUMNS = [
  "id",
  "created_at",
  "sent_at",
  "delivered_at",
  "opened_at",
  "sender",
  "recipient",
  "subject",
  "status",
  "error_code",
  "error_message",
  "price",
  "currency",
] as const;

/** The SELECT of an e-mail export (exportSelect's rules: values quoted with `lit`, São Paulo times, text made safe for spreadsheets). */
export function emailExportSelect(accountId: string, f: ExportFilter, lit: (v: string) => string, locale: string = DEFAULT_LOCALE) {
  const where = [
    `account_id = ${lit(accountId)}::uuid`,
    `channel = 'email'`,
    `created_at >= (${lit(f.sent_at.from)}::date)::timestamp AT TIME ZONE ${TZ}`,
    `created_at < (${lit(f.sent_at.to)}::date + 1)::timestamp AT TIME ZONE ${TZ}`,
  ];
  if (f.id) where.push(`id = ${lit(f.id)}::uuid`);
  if (f.status) where.push(`status = ${lit(f.status)}`);
  if (f.from) where.push(`sender = ${lit(f.from)}`);
  if (f.to) where.push(`recipient = ${lit(f.to)}`);
  return `SELECT id, ${when("created_at")} AS created_at, ${when("sent_at")} AS sent_at, ${when("delivered_at")} AS delivered_at, ${when("read_at")} AS opened_at,
                 sender, recipient, ${safe("(content->>'subject')")} AS subject, status, error_code, ${reasonText(locale, lit)} AS error_message,
                 to_char(price / 100.0, 'FM999999999990.00') AS price, trim(currency) AS currency
            FROM messages
           WHERE ${where.join(" AND ")}
           ORDER BY created_at DESC, id DESC`;
}

type JobRow = { id: string; account_id: string; kind: ExportKind; filter: ExportFilter; status: string; locale: string | null };

/** The SELECT each kind of export runs (migrations 0030, 0046, 0057): the SMS, WhatsApp or e-mail history, or live chat conversations. */
function selectOf(row: JobRow, lit: (v: string) => string) {
  if (row.kind === "live_rooms") return liveRoomsExportSelect(row.account_id, row.filter as unknown as LiveExportFilter, lit);
  if (row.kind === "email") return emailExportSelect(row.account_id, row.filter, lit, row.locale ?? DEFAULT_LOCALE);
  return exportSelect(row.account_id, row.filter, lit, row.locale ?? DEFAULT_LOCALE, row.kind);
}

export async function runExport(id: string, touch?: () => Promise<void>) {
  const [row] = await rows<JobRow>(
    `UPDATE sms_exports SET status = 'processing', started_at = now(), updated_at = now(), error = NULL
      WHERE id = $1 AND status IN ('queued','processing')
      RETURNING id, account_id, kind, filter, status, (SELECT locale FROM users WHERE users.id = sms_exports.created_by) AS locale`,
    [id],
  );
  if (!row) return; // finished (or removed) already: a repeated announcement does nothing
  const relative = exportRelativePath(row.account_id, row.id);
  const path = resolve(env().UPLOAD_DIR, relative);
  const part = `${path}.part`;
  await mkdir(dirname(path), { recursive: true });

  // The rows tolerate lag (ADR 030): the COPY reads the replica while it is healthy; the job's own row stays on the primary.
  const client = await openSession("mensageria-sms-export", readerUrl());
  try {
    const lit = (v: string) => client.escapeLiteral(v);
    const sql = `COPY (${selectOf(row, lit)}) TO STDOUT WITH (FORMAT csv, HEADER)`;
    // Direct pg: a COPY … TO STDOUT stream needs a raw pg client; api/lib/sql.ts cannot stream.
    const source = client.query(copyTo(sql));
    let last = Date.now();
    // A UTF-8 byte-order mark first, so spreadsheet programs read the accents right.
    let first = true;
    const heartbeat = new Transform({
      transform(chunk, _enc, done) {
        if (Date.now() - last > 10_000) {
          last = Date.now();
          void touch?.().catch(() => undefined);
          void exec(`UPDATE sms_exports SET updated_at = now() WHERE id = $1`, [row.id]).catch(() => undefined);
        }
        if (first) {
          first = false;
          done(null, Buffer.concat([Buffer.from("\uFEFF"), chunk]));
        } else done(null, chunk);
      },
    });
    await pipeline(source, heartbeat, createWriteStream(part));
    await rename(part, path);
    const size = (await stat(path)).size;
    await exec(`UPDATE sms_exports SET status = 'done', rows = $2, file_path = $3, file_size = $4, finished_at = now(), updated_at = now() WHERE id = $1`, [
      row.id,
      source.rowCount,
      relative,
      size,
    ]);
  } catch (e) {
    await rm(part, { force: true }).catch(() => undefined);
    throw e;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The job gave up (after the runner's attempts): say so on the export. */
export async function failExport(id: string, reason: string) {
  await exec(`UPDATE sms_exports SET status = 'failed', error = $2, finished_at = now(), updated_at = now() WHERE id = $1 AND status IN ('queued','processing')`, [
    id,
    reason.slice(0, 500),
  ]);
}

/**
 * Every 15 s (worker): re-announce exports still queued after a minute (the announcement was lost) or
 * processing without a heartbeat for 5 minutes (their worker died); remove exports older than
 * the retention with their files.
 */
export async function sweepExports() {
  const stale = await rows<{ id: string }>(`UPDATE sms_exports SET updated_at = now()
      WHERE (status = 'queued' AND updated_at < now() - interval '1 minute') OR (status = 'processing' AND updated_at < now() - interval '5 minutes')
      RETURNING id`);
  for (const r of stale) await announceExport(r.id);
  const old = await rows<{ id: string; file_path: string | null }>(`DELETE FROM sms_exports WHERE created_at < now() - make_interval(days => $1) RETURNING id, file_path`, [
    EXPORT_RETENTION_DAYS,
  ]);
  for (const r of old) if (r.file_path) await rm(resolve(env().UPLOAD_DIR, r.file_path), { force: true });
  return stale.length + old.length;
}
