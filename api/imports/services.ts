/**
 * CSV import of contacts (spec sections 5, 8 and 9): up to 10 .csv files of up to 1,000,000 rows
 * each, streamed to disk, mapped column by column, then merged into the account's contacts by a
 * worker job (api/imports/job.ts) whose progress these views show. Every query is scoped by the
 * acting account; the screens and the API call these same functions.
 */
import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { sequelize } from "../../models";
import { IMPORT_MAX_FILES, type ImportStatus } from "../../models/constants";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError, type FieldErrors } from "../lib/errors";
import { publishJob } from "../jobs/publish";
import { keyset, pageInput } from "../lib/page";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { timeCursor, tsText } from "../contacts/time-cursor";
import { can } from "../policy/policy";
import { errorReportPath, importDir, isCsvName, readHead, removeImportFiles, storeUpload, type StoredFile } from "./files";
import { isValidTarget, suggestMapping } from "./mapping";
import { startImportSchema } from "./schemas";
import { exec, rows } from "../lib/sql";

export const IMPORT_STREAM = "jobs:imports";
/** Share of the progress bar given to reading the files; the rest is the merge into contacts (which runs alongside and takes longer). */
export const READ_SHARE = 0.2;

export type ImportFileView = { name: string; size: number; columns: string[]; preview: string[][]; delimiter: "," | ";" };
export type ImportView = {
  id: string;
  status: ImportStatus;
  files: ImportFileView[];
  mapping: Record<string, string>;
  suggestedMapping: Record<string, string>;
  groupId: string | null;
  totalRows: number;
  processedRows: number;
  insertedRows: number;
  mergedRows: number;
  errorCount: number;
  percent: number;
  rowsPerSecond: number;
  /** An errors.* key, e.g. "errors.IMPORT_LAYOUT". */
  failure: string | null;
  /** Parameters of the failure's message (IMPORT_LAYOUT and IMPORT_TOO_MANY_ROWS name the file). */
  failureParams: Record<string, string | number>;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
};
/** One uploaded file: its name and its bytes as a stream (a File or Blob is accepted too). */
export type ImportUpload = { name: string; stream: ReadableStream<Uint8Array> | Blob; size?: number };

type ImportRow = {
  id: string;
  account_id: string;
  user_id: string | null;
  status: ImportStatus;
  files: StoredFile[];
  mapping: Record<string, string>;
  group_id: string | null;
  total_rows: number;
  processed_rows: number;
  inserted_rows: number;
  merged_rows: number;
  error_count: number;
  failure: string | null;
  failure_params: Record<string, string | number> | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function assertAllowed(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/contacts/import")) throw new AppError("FORBIDDEN");
}

type CustomDefRow = { key: string; label: string; type: string; options: string[] };
async function customFields(accountId: string) {
  return rows<CustomDefRow>(`SELECT key, label, type, options FROM custom_fields WHERE account_id = $1 ORDER BY position, key`, [accountId]);
}

/** Share of the job done: reading the files, then merging the valid rows into contacts. */
export function progressPercent(r: Pick<ImportRow, "status" | "total_rows" | "processed_rows" | "inserted_rows" | "merged_rows" | "error_count">) {
  if (r.status === "completed") return 100;
  if (r.status !== "running" || !r.total_rows) return 0;
  const read = Math.min(1, r.processed_rows / r.total_rows);
  const valid = r.total_rows - r.error_count;
  const merged = valid > 0 ? Math.min(1, (r.inserted_rows + r.merged_rows) / valid) : read;
  return Math.min(99, Math.floor(100 * (READ_SHARE * read + (1 - READ_SHARE) * merged)));
}

function rowsPerSecond(r: ImportRow) {
  if (!r.started_at) return 0;
  const end = r.finished_at ? r.finished_at.getTime() : Date.now();
  const seconds = (end - r.started_at.getTime()) / 1000;
  const rows = r.status === "completed" ? r.total_rows : r.processed_rows;
  return seconds > 0 ? Math.round(rows / seconds) : 0;
}

function toView(r: ImportRow, custom: CustomDefRow[]): ImportView {
  const headers = [...new Set(r.files.flatMap((f) => f.columns))];
  return {
    id: r.id,
    status: r.status,
    files: r.files.map((f) => ({ name: f.name, size: f.size, columns: f.columns, preview: f.preview, delimiter: f.delimiter })),
    mapping: r.mapping ?? {},
    suggestedMapping: suggestMapping(headers, custom),
    groupId: r.group_id,
    totalRows: r.total_rows,
    processedRows: r.processed_rows,
    insertedRows: r.inserted_rows,
    mergedRows: r.merged_rows,
    errorCount: r.error_count,
    percent: progressPercent(r),
    rowsPerSecond: rowsPerSecond(r),
    failure: r.failure,
    failureParams: r.failure_params ?? {},
    startedAt: r.started_at?.toISOString() ?? null,
    finishedAt: r.finished_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
  };
}

const COLUMNS = `id, account_id, user_id, status, files, mapping, group_id, total_rows, processed_rows, inserted_rows, merged_rows, error_count,
  failure, failure_params, started_at, finished_at, created_at`;

async function findRow(accountId: string, id: string, opts: { lock?: boolean; transaction?: import("sequelize").Transaction } = {}) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const [row] = await rows<ImportRow>(`SELECT ${COLUMNS} FROM contact_imports WHERE id = $1 AND account_id = $2${opts.lock ? " FOR UPDATE" : ""}`, [id, accountId], {
    transaction: opts.transaction,
  });
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}

async function* uploads(files: ImportUpload[] | AsyncIterable<ImportUpload>): AsyncGenerator<ImportUpload> {
  if (Array.isArray(files)) yield* files;
  else yield* files as AsyncIterable<ImportUpload>;
}

/**
 * Receive the files of a new import (status "uploaded"): each is streamed to disk, counted and
 * its head read for the preview and the suggested mapping. Too many files, a name that is not
 * .csv, a file over 1,000,000 rows or one that is not a CSV with a header refuse the whole
 * upload, and nothing is kept (no row, no file). A list is checked before any byte is written;
 * files arriving one by one (a streamed multipart body) are checked as they come.
 */
export async function createImport(ctx: SignedInCtx, files: ImportUpload[] | AsyncIterable<ImportUpload>): Promise<ImportView> {
  assertAllowed(ctx);
  if (Array.isArray(files)) {
    if (files.length > IMPORT_MAX_FILES) throw new AppError("IMPORT_TOO_MANY_FILES");
    const bad = files.find((f) => !isCsvName(f.name));
    if (bad) throw new AppError("IMPORT_NOT_CSV", { params: { file: bad.name } });
  }
  const id = randomUUID();
  const stored: StoredFile[] = [];
  try {
    for await (const upload of uploads(files)) {
      if (stored.length >= IMPORT_MAX_FILES) throw new AppError("IMPORT_TOO_MANY_FILES");
      const name = upload.name
        .trim()
        .replace(/^.*[\\/]/, "")
        .slice(0, 255);
      if (!isCsvName(name)) throw new AppError("IMPORT_NOT_CSV", { params: { file: name } });
      const n = stored.length + 1;
      const path = `imports/${id}/${n}.csv`;
      const abs = `${importDir(id)}/${n}.csv`;
      const stream = upload.stream instanceof Blob ? (upload.stream.stream() as ReadableStream<Uint8Array>) : upload.stream;
      const { size, rows, encoding } = await storeUpload(stream, abs, name);
      const head = await readHead(abs, name, encoding);
      stored.push({ name, path, size, rows, columns: head.columns, delimiter: head.delimiter, encoding, preview: head.preview });
    }
    if (!stored.length) throw new AppError("VALIDATION", { fields: { files: ["validation.required"] } });
    const total = stored.reduce((s, f) => s + f.rows, 0);
    await sequelize().transaction(async (transaction) => {
      await exec(
        `INSERT INTO contact_imports (id, account_id, user_id, status, files, total_rows) VALUES ($1, $2, $3, 'uploaded', $4::jsonb, $5)`,
        [id, ctx.actor.accountId, ctx.actor.userId, JSON.stringify(stored), total],
        { transaction },
      );
      await recordAudit({ ...ctx, transaction }, "contacts.import_created", { meta: { importId: id, files: stored.map((f) => f.name), rows: total } });
    });
  } catch (e) {
    await removeImportFiles(id);
    throw e;
  }
  return getImport(ctx, id);
}

export async function getImport(ctx: SignedInCtx, id: string): Promise<ImportView> {
  assertAllowed(ctx);
  const row = await findRow(ctx.actor.accountId, id);
  return toView(row, await customFields(ctx.actor.accountId));
}

const importListSchema = z.object(pageInput);

/**
 * The account's imports, newest first (created_at, id), keyset paged: `limit` (50 by default) and
 * `cursor` (the `next_cursor` of the previous page).
 */
export async function listImports(ctx: SignedInCtx, query: unknown = {}): Promise<{ data: ImportView[]; next_cursor: string | null }> {
  assertAllowed(ctx);
  const f = validate(importListSchema, query ?? {});
  const after = timeCursor(f.cursor);
  const page = await rows<ImportRow & { cursor_ts: string }>(
    `SELECT ${COLUMNS}, ${tsText("created_at")} AS cursor_ts FROM contact_imports
      WHERE account_id = $1 ${after ? "AND (created_at, id) < ($2::timestamptz, $3::uuid)" : ""}
      ORDER BY created_at DESC, id DESC LIMIT ${f.limit + 1}`,
    [ctx.actor.accountId, ...(after ?? [])],
  );
  const custom = await customFields(ctx.actor.accountId);
  return keyset(
    page,
    f.limit,
    (r) => [r.cursor_ts, r.id],
    (r) => toView(r, custom),
  );
}

/**
 * Start an uploaded import with its mapping: every file needs a column mapped to the mobile
 * number ('Missing Mobile Number column'); targets must be contact fields, "name", an existing
 * custom field or "" (ignored). The contacts may join an existing group or a new one (a name
 * that already exists reuses that group). The job is queued for the worker.
 */
export async function startImport(
  ctx: SignedInCtx,
  id: string,
  input: { mapping: Record<string, string>; groupId?: string | null; newGroupName?: string | null },
): Promise<ImportView> {
  assertAllowed(ctx);
  const data = validate(startImportSchema, input);
  const accountId = ctx.actor.accountId;
  await sequelize().transaction(async (transaction) => {
    const row = await findRow(accountId, id, { lock: true, transaction });
    if (row.status !== "uploaded") throw new AppError("IMPORT_NOT_READY");
    const custom = await customFields(accountId);
    const customKeys = new Set(custom.map((c) => c.key));
    const headers = new Set(row.files.flatMap((f) => f.columns));
    const mapping: Record<string, string> = {};
    const fields: FieldErrors = {};
    for (const [header, target] of Object.entries(data.mapping)) {
      if (!headers.has(header)) continue; // a column no file has: nothing to map
      if (!isValidTarget(target, customKeys)) fields[`mapping.${header}`] = ["validation.invalid"];
      else mapping[header] = target;
    }
    if (Object.keys(fields).length) throw new AppError("VALIDATION", { fields });
    const missing = row.files.find((f) => !f.columns.some((c) => mapping[c] === "mobile_number"));
    if (missing) throw new AppError("IMPORT_MISSING_MOBILE", { params: { file: missing.name }, fields: { mapping: ["errors.IMPORT_MISSING_MOBILE"] } });

    let groupId: string | null = null;
    if (data.groupId) {
      const [g] = await rows<{ id: string }>(`SELECT id FROM contact_groups WHERE id = $1 AND account_id = $2`, [data.groupId, accountId], { transaction });
      if (!g) throw new AppError("VALIDATION", { fields: { group_id: ["validation.invalid"] } });
      groupId = g.id;
    } else if (data.newGroupName) {
      // A name already taken (any case) reuses that group: importing twice into "Clientes" is one group.
      await exec(`INSERT INTO contact_groups (account_id, name) VALUES ($1, $2) ON CONFLICT (account_id, lower(name)) DO NOTHING`, [accountId, data.newGroupName], { transaction });
      const [g] = await rows<{ id: string }>(`SELECT id FROM contact_groups WHERE account_id = $1 AND lower(name) = lower($2)`, [accountId, data.newGroupName], { transaction });
      groupId = g.id;
    }
    await exec(`UPDATE contact_imports SET status = 'queued', mapping = $2::jsonb, group_id = $3, updated_at = now() WHERE id = $1`, [id, JSON.stringify(mapping), groupId], {
      transaction,
    });
    await recordAudit({ ...ctx, transaction }, "contacts.import_started", { meta: { importId: id, groupId } });
  });
  try {
    await publishJob(IMPORT_STREAM, id, { id });
  } catch (e) {
    // The job could not be announced: back to "uploaded" so the person can start it again.
    await exec(`UPDATE contact_imports SET status = 'uploaded', updated_at = now() WHERE id = $1 AND status = 'queued'`, [id]);
    throw e;
  }
  return getImport(ctx, id);
}

/**
 * The error report as CSV: header "file,line,column,value,error", one row per rejected line
 * (error is a locale key such as "errors.IMPORT_INVALID_NUMBER"). Not found until the job writes it.
 */
export async function errorReport(ctx: SignedInCtx, id: string): Promise<ReadableStream<Uint8Array>> {
  assertAllowed(ctx);
  const row = await findRow(ctx.actor.accountId, id);
  const path = errorReportPath(row.id);
  const exists = await stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!exists) throw new AppError("NOT_FOUND");
  return Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
}
