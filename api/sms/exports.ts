/**
 * SMS and WhatsApp history exports (POST/GET /api/sms/reports, GET /api/sms/reports/:id/file; screens
 * /sms/exports, /sms/reports/exports and /whatsapp/exports; the channel is the row's `kind`). A request stores the filter — the history's filters,
 * resolved (default today, recipient in E.164) so a later run exports exactly what was asked —
 * as an `sms_exports` row in state `queued`; after the commit its id goes on the Redis stream
 * `jobs:sms-exports`, and the worker (./export-job) writes the CSV. A lost announcement is
 * re-sent by the sweep. docs/decisions/009-history-exports.md explains the choices.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { env } from "../lib/env";
import { AppError, isAppError, type FieldErrors } from "../lib/errors";
import { assertId } from "../lib/owned";
import { publishJob } from "../jobs/publish";
import { validate } from "../lib/validate";
import type { z } from "../lib/zod";
import { can } from "../policy/policy";
import { saoPauloToday, smsHistorySchema } from "./history";
import { validateEmailFilters } from "../email/history";
import { rows } from "../lib/sql";
import { CHANNEL_AREA, type ReportChannel } from "./report-constants";

export const EXPORT_STREAM = "jobs:sms-exports";
export const EXPORT_STATUSES = ["queued", "processing", "done", "failed"] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** What an export holds (migrations 0030, 0046): the SMS or WhatsApp history, or live chat conversations (api/live/report-exports). */
export type ExportKind = ReportChannel | "live_rooms";
/** Exports (and their files) are kept this many days, then the sweep removes them. */
export const EXPORT_RETENTION_DAYS = 7;

/** The stored filter: the spec's export filter {id, from, to, status, sent_at {from, to}}, resolved. */
export type ExportFilter = { id: string; from: string; to: string; status: string; sent_at: { from: string; to: string } };

export type ExportView = {
  id: string;
  status: ExportStatus;
  filter: ExportFilter;
  rows: number;
  file_size: number | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

const FIELD_NAMES: Record<string, string> = { "created_at.gte": "sent_at.from", "created_at.lte": "sent_at.to" };

const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/**
 * Validate an export filter with the history's own rules (same errors, same 31-day limit). The
 * range may come nested (`sent_at: {from, to}`), flat (`sent_at[from]`) or as the history's
 * `created_at[gte]`/`created_at[lte]` (the export button of the history screen).
 */
export function parseExportFilter(raw: unknown, channel: ReportChannel = "sms"): ExportFilter {
  const input = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const sent = (input.sent_at && typeof input.sent_at === "object" ? input.sent_at : {}) as Record<string, unknown>;
  const created = (input.created_at && typeof input.created_at === "object" ? input.created_at : {}) as Record<string, unknown>;
  const gte = text(sent.from ?? input["sent_at[from]"] ?? created.gte ?? input["created_at[gte]"]);
  const lte = text(sent.to ?? input["sent_at[to]"] ?? created.lte ?? input["created_at[lte]"]);
  // E-mail's sender and recipient are addresses (the e-mail history's rule), the others' the SMS history's (recipient in E.164).
  const email = channel === "email";
  let q: z.infer<typeof smsHistorySchema>;
  let who = { from: "", to: "" };
  try {
    const filters = { id: text(input.id), status: text(input.status), from: text(input.from), to: text(input.to), created_at: { gte, lte } };
    if (email) {
      const found = validateEmailFilters({ ...filters, from: "", to: "" }, filters.from, filters.to);
      q = found.q;
      who = { from: found.who.from ?? "", to: found.who.to ?? "" };
    } else q = validate(smsHistorySchema, filters);
  } catch (e) {
    if (!isAppError(e) || !e.fields) throw e;
    const fields: FieldErrors = {};
    for (const [k, v] of Object.entries(e.fields)) fields[FIELD_NAMES[k] ?? k] = v;
    throw new AppError("VALIDATION", { fields });
  }
  const to = q.created_at.lte || saoPauloToday();
  const from = q.created_at.gte || (q.created_at.lte ? to : saoPauloToday());
  return { id: q.id, from: email ? who.from : q.from, to: email ? who.to : q.to, status: q.status, sent_at: { from, to } };
}

/** A channel's exports are its screen's: /sms/exports, /whatsapp/exports, /mail/exports. */
function assertAllowed(ctx: SignedInCtx, channel: ReportChannel) {
  if (!can(ctx.actor, `${CHANNEL_AREA[channel]}/exports`)) throw new AppError("FORBIDDEN");
}

export type Row = {
  id: string;
  kind: ExportKind;
  status: ExportStatus;
  filter: ExportFilter;
  rows: number;
  file_path: string | null;
  file_size: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

const view = (r: Row): ExportView => ({
  id: r.id,
  status: r.status,
  filter: r.filter,
  rows: r.rows,
  file_size: r.file_size === null ? null : Number(r.file_size),
  error: r.error,
  created_at: r.created_at,
  finished_at: r.finished_at,
});

export async function findRow(accountId: string, id: string, kind: ExportKind = "sms") {
  assertId(id);
  const [row] = await rows<Row>(`SELECT * FROM sms_exports WHERE id = $1 AND account_id = $2 AND kind = $3`, [id, accountId, kind]);
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}

/** Announce a queued export to the workers (idempotent: the job skips finished exports). */
export async function announceExport(id: string) {
  await publishJob(EXPORT_STREAM, id, { id });
}

/** Queue an export of the history of `channel` (the SMS history by default) with the history's filters. */
export async function createExport(ctx: SignedInCtx, input: unknown, channel: ReportChannel = "sms"): Promise<ExportView> {
  assertAllowed(ctx, channel);
  return view(await queueExport(ctx, channel, parseExportFilter(input, channel), `${channel}.export_requested`));
}

/** Stores a queued export of `kind` (with its audit entry) and announces it to the workers. Permission and filter are the caller's. */
export async function queueExport(ctx: SignedInCtx, kind: ExportKind, filter: object, auditAction: string): Promise<Row> {
  const row = await sequelize().transaction(async (transaction) => {
    const [r] = await rows<Row>(
      `INSERT INTO sms_exports (account_id, kind, filter, created_by) VALUES ($1, $2, $3::jsonb, $4) RETURNING *`,
      [ctx.actor.accountId, kind, JSON.stringify(filter), ctx.actor.userId],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, auditAction, { meta: { exportId: r.id, filter } });
    return r;
  });
  // After the commit; if Redis is down now the sweep announces it later (the row stays queued).
  await announceExport(row.id).catch((e) => console.error("export announce failed; the sweep will retry", row.id, e));
  return row;
}

/** The account's exports of `kind`, newest first. */
export async function exportRows(accountId: string, kind: ExportKind, limit = 50): Promise<Row[]> {
  return rows<Row>(`SELECT * FROM sms_exports WHERE account_id = $1 AND kind = $2 ORDER BY created_at DESC, id DESC LIMIT $3`, [
    accountId,
    kind,
    Math.min(Math.max(1, limit), 200),
  ]);
}

export async function listExports(ctx: SignedInCtx, limit = 50, channel: ReportChannel = "sms"): Promise<ExportView[]> {
  assertAllowed(ctx, channel);
  return (await exportRows(ctx.actor.accountId, channel, limit)).map(view);
}

export async function getExport(ctx: SignedInCtx, id: string, channel: ReportChannel = "sms"): Promise<ExportView> {
  assertAllowed(ctx, channel);
  return view(await findRow(ctx.actor.accountId, id, channel));
}

export function exportRoot() {
  return resolve(env().UPLOAD_DIR, "sms-exports");
}
/** Where an export's CSV lives, relative to UPLOAD_DIR (stored in sms_exports.file_path). */
export function exportRelativePath(accountId: string, id: string) {
  return join("sms-exports", accountId, `${id}.csv`);
}

export const exportFileName = (e: { id: string; filter: ExportFilter; kind?: ExportKind }) =>
  `${e.kind === "whatsapp" || e.kind === "email" ? e.kind : "sms"}-${e.filter.sent_at.from}_${e.filter.sent_at.to}-${e.id.slice(0, 8)}.csv`;

/** The CSV of a finished export of the acting account and `channel`: 404 for another's, 409 EXPORT_NOT_READY before it is done. */
export async function exportFile(ctx: SignedInCtx, id: string, channel: ReportChannel = "sms"): Promise<ExportFile> {
  assertAllowed(ctx, channel);
  const row = await findRow(ctx.actor.accountId, id, channel);
  return openExportFile(row, exportFileName);
}

export type ExportFile = { stream: ReadableStream<Uint8Array>; name: string; size: number };

/** An export's CSV as the download response (the API's and the web's file routes, SMS and conversations). */
export function csvDownload(file: ExportFile): Response {
  return new Response(file.stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${file.name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** A finished export's CSV as a stream (409 EXPORT_NOT_READY before it is done). */
export async function openExportFile(row: Row, nameOf: (row: Row) => string): Promise<ExportFile> {
  if (row.status !== "done" || !row.file_path) throw new AppError("EXPORT_NOT_READY", { params: { status: row.status } });
  const path = resolve(env().UPLOAD_DIR, row.file_path);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new AppError("NOT_FOUND");
  return { stream: Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>, name: nameOf(row), size: info.size };
}
