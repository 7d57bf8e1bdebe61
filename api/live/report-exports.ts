/**
 * Live chat conversation exports (POST, GET /chat/reports; screen /chat/reports): the SMS export
 * machinery (api/sms/exports: the row, the `jobs:sms-exports` stream, the worker job, the sweep
 * and the download) with kind 'live_rooms' (migration 0030, ADR 019). A request validates and
 * stores the period (São Paulo days, at most 31, default today) and optional department/agent;
 * the worker COPYs liveRoomsExportSelect to a CSV, one row per room created in the period.
 */
import type { SignedInCtx } from "../lib/context";
import { keyset, pageInput } from "../lib/page";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { sortTime, timeIdCursor } from "./keyset";
import { exportRows, findRow, openExportFile, queueExport, type ExportStatus, type Row } from "../sms/exports";
import { assertPath } from "./access";
import { assertFilterOwned, parsePeriod, REPORT_TIME_ZONE, type ReportPeriod } from "./reports";
import { rows } from "../lib/sql";

export type LiveExportFilter = ReportPeriod;

export type LiveExportView = {
  id: string;
  status: ExportStatus;
  filter: LiveExportFilter;
  rows: number;
  file_size: number | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

/** The CSV's columns, in order. */
export const LIVE_EXPORT_COLUMNS = [
  "protocol",
  "channel",
  "visitor",
  "agent",
  "department",
  "tabulation",
  "tags",
  "created",
  "assigned",
  "closed",
  "wait_seconds",
  "service_seconds",
  "messages",
] as const;

const TZ = `'${REPORT_TIME_ZONE}'`;
const when = (col: string) => `to_char(${col} AT TIME ZONE ${TZ}, 'YYYY-MM-DD HH24:MI:SS')`;
/** Free text a spreadsheet would run as a formula gets a leading apostrophe (as SMS exports). */
const safe = (expr: string) => `CASE WHEN left(${expr}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${expr} ELSE ${expr} END`;

/**
 * One row per room created in the period (newest first). Waits and service times as the report
 * counts them (first queued -> first assigned; first assigned or resumed -> last closed); values
 * quoted with `lit` (COPY cannot bind).
 */
export function liveRoomsExportSelect(accountId: string, f: LiveExportFilter, lit: (v: string) => string) {
  const where = [
    `r.account_id = ${lit(accountId)}::uuid`,
    `r.created_at >= (${lit(f.begin)}::date)::timestamp AT TIME ZONE ${TZ}`,
    `r.created_at < (${lit(f.end)}::date + 1)::timestamp AT TIME ZONE ${TZ}`,
  ];
  if (f.department_id) where.push(`r.department_id = ${lit(f.department_id)}::uuid`);
  if (f.agent_id) where.push(`r.agent_id = ${lit(f.agent_id)}::uuid`);
  const visitor = `NULLIF(concat_ws(' ', NULLIF(r.username, ''), '<' || COALESCE(r.email, r.phone) || '>'), '')`;
  return `SELECT r.protocol, r.channel, ${safe(visitor)} AS visitor, ${safe("trim(u.first_name || ' ' || u.last_name)")} AS agent,
                 ${safe("d.name")} AS department, ${safe("tab.name")} AS tabulation, ${safe("NULLIF(array_to_string(r.tags, '; '), '')")} AS tags,
                 ${when("r.created_at")} AS created, ${when("ev.assigned")} AS assigned, ${when("ev.closed")} AS closed,
                 round(extract(epoch FROM ev.assigned - ev.queued))::int AS wait_seconds,
                 round(extract(epoch FROM ev.closed - ev.served))::int AS service_seconds,
                 (SELECT count(*) FROM live_messages m WHERE m.room_id = r.id)::int AS messages
            FROM live_rooms r
            LEFT JOIN users u ON u.id = r.agent_id
            LEFT JOIN departments d ON d.id = r.department_id
            LEFT JOIN live_tabulations tab ON tab.id = r.tabulation_id
            LEFT JOIN LATERAL (
              SELECT min(e.created_at) FILTER (WHERE e.type = 'queued') AS queued, min(e.created_at) FILTER (WHERE e.type = 'assigned') AS assigned,
                     min(e.created_at) FILTER (WHERE e.type IN ('assigned','resumed')) AS served, max(e.created_at) FILTER (WHERE e.type = 'closed') AS closed
                FROM live_room_events e WHERE e.room_id = r.id) ev ON true
           WHERE ${where.join(" AND ")}
           ORDER BY r.created_at DESC, r.id DESC`;
}

const view = (r: Row): LiveExportView => ({
  id: r.id,
  status: r.status,
  filter: r.filter as unknown as LiveExportFilter,
  rows: r.rows,
  file_size: r.file_size === null ? null : Number(r.file_size),
  error: r.error,
  created_at: r.created_at,
  finished_at: r.finished_at,
});

/** The /chat/reports route (omni plan; reports readers, ADR 019). */
function assertAllowed(ctx: SignedInCtx) {
  assertPath(ctx, "/chat/reports");
}

/** POST /chat/reports: queue the export of a period's conversations ('Report export: queued for processing'). */
export async function createLiveExport(ctx: SignedInCtx, input: unknown): Promise<LiveExportView> {
  assertAllowed(ctx);
  const filter = parsePeriod(input);
  await assertFilterOwned(ctx.actor.accountId, filter);
  return view(await queueExport(ctx, "live_rooms", filter, "live.export_requested"));
}

/** GET /chat/reports: the account's conversation exports, newest first. */
export async function listLiveExports(ctx: SignedInCtx, limit = 50): Promise<LiveExportView[]> {
  assertAllowed(ctx);
  return (await exportRows(ctx.actor.accountId, "live_rooms", limit)).map(view);
}

/** GET /chat/reports/{id}: one conversation export of the acting account (404 for another's or an SMS export). */
export async function getLiveExport(ctx: SignedInCtx, id: string): Promise<LiveExportView> {
  assertAllowed(ctx);
  return view(await findRow(ctx.actor.accountId, id, "live_rooms"));
}

const exportPageSchema = z.object(pageInput);

/**
 * GET /chat/reports: the account's conversation exports, newest first (created_at, id), by keyset:
 * `limit` (default 50) after `cursor` (the `next_cursor` of the previous page).
 */
export async function pageLiveExports(ctx: SignedInCtx, input: { cursor?: string; limit?: unknown }) {
  assertAllowed(ctx);
  const q = validate(exportPageSchema, { cursor: input.cursor, limit: input.limit });
  const after = timeIdCursor(q.cursor);
  const found = await rows<Row & { sort_key: string }>(
    `SELECT *, ${sortTime("created_at")} AS sort_key FROM sms_exports
      WHERE account_id = $1 AND kind = 'live_rooms' ${after ? "AND (created_at, id) < ($2::timestamptz, $3::uuid)" : ""}
      ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1}`,
    after ? [ctx.actor.accountId, after[0], after[1]] : [ctx.actor.accountId],
  );
  return keyset(found, q.limit, (r) => [r.sort_key, r.id], view);
}

export const liveExportFileName = (e: { id: string; filter: unknown }) => {
  const f = e.filter as LiveExportFilter;
  return `conversations-${f.begin}_${f.end}-${e.id.slice(0, 8)}.csv`;
};

/** The CSV of a finished export of the acting account: 404 for another's (or an SMS export), 409 EXPORT_NOT_READY before it is done. */
export async function liveExportFile(ctx: SignedInCtx, id: string) {
  assertAllowed(ctx);
  const row = await findRow(ctx.actor.accountId, id, "live_rooms");
  return openExportFile(row, liveExportFileName);
}
