/**
 * Flow streams over the API (issue 20, spec section 7; ADR 054): list the runs, read one with its
 * path, cancel one (its room goes to the queue), start a flow on an open room (the API trigger),
 * and the funnel per flow and per step. The people who reach /flows do all of it, in their account.
 */
import { sequelize } from "../../models/db";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { publishLive } from "../live/streams";
import { changeRoom, lockRoom, type RoomWork } from "../live/rooms/transition";
import { decide, refusal } from "../policy/policy";
import { STREAM_STATUSES } from "./engine";
import { endStream } from "./runtime";
import { liveStreamOf, startStream, wakeStreams } from "./triggers";

function assertAllowed(ctx: SignedInCtx) {
  const d = decide(ctx.actor, "/flows");
  if (!d.allowed) throw refusal(d);
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const date = z.iso.datetime({ offset: true, error: "validation.date" }).or(z.iso.date({ error: "validation.date" }));

export const listStreamsSchema = z.object({
  ...pageInput,
  flow_id: z.uuid({ error: "validation.invalid" }).optional(),
  status: z.enum(STREAM_STATUSES, { error: "validation.option" }).optional(),
  from: date.optional(),
  to: date.optional(),
});
export const cancelStreamSchema = z.object({ status: z.literal("cancelled", { error: "validation.option" }) });
export const startStreamSchema = z.object({ room_id: z.uuid({ error: "validation.invalid" }) });
export const insightsSchema = z.object({ flow_id: z.uuid({ error: "validation.invalid" }).optional(), from: date.optional(), to: date.optional() });

type StreamRow = {
  id: string;
  flow_id: string;
  flow_name: string;
  version: number;
  room_id: string;
  contact_id: string | null;
  channel: string;
  status: string;
  node_id: string | null;
  waiting: string | null;
  wake_at: Date | null;
  vars: Record<string, string>;
  steps: number;
  reason: string | null;
  started_at: Date;
  ended_at: Date | null;
  updated_at: Date;
};
const COLUMNS = `s.id, s.flow_id, f.name AS flow_name, s.version, s.room_id, s.contact_id, s.channel, s.status, s.node_id, s.waiting, s.wake_at, s.vars, s.steps, s.reason, s.started_at, s.ended_at, s.updated_at`;

function streamOut(s: StreamRow) {
  return {
    id: s.id,
    flow_id: s.flow_id,
    flow_name: s.flow_name,
    version: s.version,
    room_id: s.room_id,
    contact_id: s.contact_id,
    channel: s.channel,
    status: s.status,
    node_id: s.node_id,
    waiting: s.waiting,
    wake_at: iso(s.wake_at),
    vars: s.vars,
    steps: s.steps,
    reason: s.reason,
    started_at: iso(s.started_at)!,
    ended_at: iso(s.ended_at),
    updated_at: iso(s.updated_at)!,
  };
}

/** The account's streams, newest first, keyset paged by (started_at, id); filters flow, status, from, to (started_at). */
export async function listStreams(ctx: SignedInCtx, input: unknown = {}) {
  assertAllowed(ctx);
  const q = validate(listStreamsSchema, input ?? {});
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const found = await rows<StreamRow & { key: string }>(
    `SELECT ${COLUMNS}, to_char(s.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS key
       FROM flow_streams s JOIN flows f ON f.account_id = s.account_id AND f.id = s.flow_id
      WHERE s.account_id = $1 AND ($2::uuid IS NULL OR s.flow_id = $2) AND ($3::text IS NULL OR s.status = $3)
        AND ($4::timestamptz IS NULL OR s.started_at >= $4) AND ($5::timestamptz IS NULL OR s.started_at < $5)
        AND ($6::timestamptz IS NULL OR (s.started_at, s.id) < ($6::timestamptz, $7::uuid))
      ORDER BY s.started_at DESC, s.id DESC LIMIT $8`,
    [ctx.actor.accountId, q.flow_id ?? null, q.status ?? null, q.from ?? null, q.to ?? null, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  return keyset(found, q.limit, (s) => [s.key, s.id], streamOut);
}

async function streamOf(ctx: SignedInCtx, id: string) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const s = await row<StreamRow>(`SELECT ${COLUMNS} FROM flow_streams s JOIN flows f ON f.account_id = s.account_id AND f.id = s.flow_id WHERE s.account_id = $1 AND s.id = $2`, [
    ctx.actor.accountId,
    id,
  ]);
  if (!s) throw new AppError("NOT_FOUND");
  return s;
}

/** One stream and its path (every step, in order). */
export async function getStream(ctx: SignedInCtx, id: string) {
  assertAllowed(ctx);
  const s = await streamOf(ctx, id);
  const steps = await rows<{
    seq: number;
    node_id: string;
    node_type: string;
    output: string | null;
    detail: Record<string, unknown>;
    vars: Record<string, string>;
    created_at: Date;
  }>(`SELECT seq, node_id, node_type, output, detail, vars, created_at FROM flow_steps WHERE account_id = $1 AND stream_id = $2 ORDER BY seq`, [ctx.actor.accountId, s.id]);
  return { data: { ...streamOut(s), path: steps.map((p) => ({ ...p, created_at: iso(p.created_at)! })) } };
}

/** Cancels a live stream: it stops, and its room joins the queue. 409 FLOW_STREAM_ENDED when it had ended. */
export async function updateStream(ctx: SignedInCtx, id: string, input: unknown) {
  assertAllowed(ctx);
  validate(cancelStreamSchema, input);
  const s = await streamOf(ctx, id);
  const ended = await endStream(s.id, "cancelled", "cancelled", ctx.actor.accountId);
  if (!ended) throw new AppError("FLOW_STREAM_ENDED");
  await recordAudit(ctx, "flows.stream_cancelled", { meta: { id: s.id, flow_id: s.flow_id } });
  return getStream(ctx, s.id);
}

/**
 * The API trigger: starts the flow's published version on an open room of the account (queued or
 * attended: the room becomes the bot's). 422 when the flow is not active or the room is on another
 * channel; 409 FLOW_STREAM_LIVE when the room already has a live stream; 409 LIVE_ROOM_STATE when it is closed.
 */
export async function startFlowStream(ctx: SignedInCtx, flowId: string, input: unknown) {
  assertAllowed(ctx);
  const { room_id } = validate(startStreamSchema, input);
  if (!UUID.test(flowId)) throw new AppError("NOT_FOUND");
  const notices: RoomWork["notices"] = [];
  const streamId = await sequelize().transaction(async (transaction) => {
    const flow = await row<{ id: string; channel: string; status: string; version: number | null }>(
      `SELECT id, channel, status, published_version AS version FROM flows WHERE account_id = $1 AND id = $2`,
      [ctx.actor.accountId, flowId],
      { transaction },
    );
    if (!flow) throw new AppError("NOT_FOUND");
    if (flow.status !== "active" || flow.version === null) throw new AppError("VALIDATION", { fields: { id: ["validation.flowNotPublished"] } });
    const w: RoomWork = { transaction, notices, distribute: new Set() };
    let room = await lockRoom(ctx.actor.accountId, room_id, transaction);
    if (room.channel !== flow.channel) throw new AppError("VALIDATION", { fields: { room_id: ["validation.option"] } });
    if (room.status === "CLOSED") throw new AppError("LIVE_ROOM_STATE");
    if (await liveStreamOf(room.account_id, room.id, transaction)) throw new AppError("FLOW_STREAM_LIVE");
    if (room.status !== "BOT")
      room = await changeRoom(w, room, {
        move: "bot",
        set: { agent_id: null, locked: false, idle: false },
        log: { type: "bot", actor: ctx.actor.userId, payload: { flow_id: flow.id, from: room.status, agent_id: room.agent_id } },
        notify: { event: "room_updated", to: "*", visitor: true },
      });
    const id = await startStream(transaction, room, { id: flow.id, version: flow.version });
    await recordAudit({ ...ctx, transaction }, "flows.stream_started", { meta: { id, flow_id: flow.id, room_id: room.id } });
    return id;
  });
  await publishLive(notices);
  await wakeStreams([streamId]);
  return getStream(ctx, streamId);
}

/**
 * The funnel: per flow, the streams that entered and how they ended (finished, dropped, handed
 * off, cancelled, failed, still live); per step, how many streams reached it and how many ended
 * there, by how. `from`/`to` bound the streams' start.
 */
export async function streamInsights(ctx: SignedInCtx, input: unknown = {}) {
  assertAllowed(ctx);
  const q = validate(insightsSchema, input ?? {});
  const params = [ctx.actor.accountId, q.flow_id ?? null, q.from ?? null, q.to ?? null];
  const scope = `s.account_id = $1 AND ($2::uuid IS NULL OR s.flow_id = $2) AND ($3::timestamptz IS NULL OR s.started_at >= $3) AND ($4::timestamptz IS NULL OR s.started_at < $4)`;
  const counts = `count(*)::int AS entered,
      count(*) FILTER (WHERE s.status = 'finished')::int AS finished,
      count(*) FILTER (WHERE s.status = 'dropped')::int AS dropped,
      count(*) FILTER (WHERE s.status = 'handed_off')::int AS handed_off,
      count(*) FILTER (WHERE s.status = 'cancelled')::int AS cancelled,
      count(*) FILTER (WHERE s.status = 'failed')::int AS failed,
      count(*) FILTER (WHERE s.status IN ('running', 'waiting'))::int AS live`;
  type Counts = { entered: number; finished: number; dropped: number; handed_off: number; cancelled: number; failed: number; live: number };
  const flows = await rows<{ flow_id: string; name: string } & Counts>(
    `SELECT s.flow_id, f.name, ${counts} FROM flow_streams s JOIN flows f ON f.account_id = s.account_id AND f.id = s.flow_id
      WHERE ${scope} GROUP BY s.flow_id, f.name ORDER BY f.name, s.flow_id`,
    params,
  );
  const nodes = await rows<{ flow_id: string; node_id: string; node_type: string; entered: number; finished: number; dropped: number; handed_off: number }>(
    `SELECT s.flow_id, p.node_id, min(p.node_type) AS node_type, count(DISTINCT s.id)::int AS entered,
            count(DISTINCT s.id) FILTER (WHERE s.node_id = p.node_id AND s.status = 'finished')::int AS finished,
            count(DISTINCT s.id) FILTER (WHERE s.node_id = p.node_id AND s.status = 'dropped')::int AS dropped,
            count(DISTINCT s.id) FILTER (WHERE s.node_id = p.node_id AND s.status = 'handed_off')::int AS handed_off
       FROM flow_streams s JOIN flow_steps p ON p.account_id = s.account_id AND p.stream_id = s.id
      WHERE ${scope} GROUP BY s.flow_id, p.node_id ORDER BY s.flow_id, entered DESC, p.node_id`,
    params,
  );
  return {
    data: flows.map((f) => ({
      ...f,
      nodes: nodes.filter((n) => n.flow_id === f.flow_id).map(({ flow_id: _, ...n }) => n),
    })),
  };
}

// ---- the web screens: the stream view and the reports (issue 20) ---------------------------------------

/** The stream view (/flows/{flow}/stream/{id}): the stream of that flow with its path, its contact's name, and whether the reader may open the room's transcript. 404 for a stream of another flow or account. */
export async function streamView(ctx: SignedInCtx, flowId: string, id: string) {
  const { data } = await getStream(ctx, id);
  if (data.flow_id !== flowId) throw new AppError("NOT_FOUND");
  const who = await row<{ contact: string | null; visitor: string | null; protocol: string | null }>(
    `SELECT nullif(trim(concat_ws(' ', c.first_name, c.last_name)), '') AS contact, nullif(r.username, '') AS visitor, r.protocol::text AS protocol
       FROM live_rooms r LEFT JOIN contacts c ON c.account_id = r.account_id AND c.id = $3
      WHERE r.account_id = $1 AND r.id = $2`,
    [ctx.actor.accountId, data.room_id, data.contact_id],
  );
  return {
    data: {
      ...data,
      contact_name: who?.contact ?? who?.visitor ?? null,
      room_protocol: who?.protocol ?? null,
      can_see_room: decide(ctx.actor, `/live/history/${data.room_id}`).allowed,
      live: data.status === "running" || data.status === "waiting",
    },
  };
}

export const REPORT_DAYS = 30;
export const REPORT_TIME_ZONE = "America/Sao_Paulo";
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return DAY.test(v) && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};
const saoPauloDay = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: REPORT_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** The start of a São Paulo day (UTC-3 all year since 2019). */
const dayStart = (day: string) => new Date(`${day}T00:00:00-03:00`).toISOString();

export const flowReportSchema = z.object({
  flow: z.string().trim().optional(),
  from: z.string().trim().optional(),
  to: z.string().trim().optional(),
  status: z.string().trim().optional(),
  cursor: z.string().trim().optional(),
});

/** Node ids of a definition in path order: from the start, breadth-first along the edges (in the definition's order), then any unreachable ones. */
export function pathOrder(def: { nodes: Array<{ id: string; type: string }>; edges: Array<{ source: string; target: string }> } | null): string[] {
  if (!def) return [];
  const start = def.nodes.find((n) => n.type === "start");
  const seen: string[] = [];
  const queue = start ? [start.id] : [];
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.includes(id)) continue;
    seen.push(id);
    for (const e of def.edges) if (e.source === id && !seen.includes(e.target)) queue.push(e.target);
  }
  for (const n of def.nodes) if (!seen.includes(n.id)) seen.push(n.id);
  return seen;
}

/**
 * /flows/reports: São Paulo days `from`..`to` (inclusive; default the last 30 days, `from` not after
 * `to`), an optional flow and a status for the list. Answers the account's flows (for the filter),
 * the counts per flow with each flow's funnel in the path order of the version it runs (steps of
 * older versions last), and a page of the streams. 422 with the field on a bad day, flow or status.
 */
export async function flowReport(ctx: SignedInCtx, input: unknown = {}) {
  assertAllowed(ctx);
  const q = validate(flowReportSchema, input ?? {});
  const today = saoPauloDay(new Date());
  const to = q.to || today;
  const from = q.from || addDays(to, -(REPORT_DAYS - 1));
  const fields: Record<string, string[]> = {};
  if (!isDay(from)) fields.from = ["validation.date"];
  if (!isDay(to)) fields.to = ["validation.date"];
  if (!fields.from && !fields.to && from > to) fields.to = ["validation.dateOrder"];
  if (q.flow && !UUID.test(q.flow)) fields.flow = ["validation.option"];
  if (q.status && !(STREAM_STATUSES as readonly string[]).includes(q.status)) fields.status = ["validation.option"];
  if (Object.keys(fields).length) throw new AppError("VALIDATION", { fields });
  const range = { from: dayStart(from), to: dayStart(addDays(to, 1)) };
  const flows = await rows<{ id: string; name: string; definition: { nodes: Array<{ id: string; type: string }>; edges: Array<{ source: string; target: string }> } | null }>(
    `SELECT f.id, f.name, v.definition FROM flows f LEFT JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
      WHERE f.account_id = $1 ORDER BY f.name, f.id LIMIT 500`,
    [ctx.actor.accountId],
  );
  if (q.flow && !flows.some((f) => f.id === q.flow)) throw new AppError("VALIDATION", { fields: { flow: ["validation.option"] } });
  const insights = (await streamInsights(ctx, { flow_id: q.flow, ...range })).data;
  const byFlow = insights.map((f) => {
    const order = pathOrder(flows.find((x) => x.id === f.flow_id)?.definition ?? null);
    const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
    const nodes = f.nodes.map((n) => ({ node_id: n.node_id, node_type: n.node_type, entered: n.entered, finished: n.finished, dropped: n.dropped, handed_off: n.handed_off }));
    return {
      flow_id: f.flow_id,
      name: f.name,
      ...{ entered: f.entered, finished: f.finished, dropped: f.dropped, handed_off: f.handed_off, cancelled: f.cancelled, failed: f.failed, live: f.live },
      nodes: nodes.sort((a, b) => rank(a.node_id) - rank(b.node_id) || b.entered - a.entered || a.node_id.localeCompare(b.node_id)),
    };
  });
  const page = await listStreams(ctx, { flow_id: q.flow, status: q.status, ...range, cursor: q.cursor, limit: "25" });
  return {
    data: {
      filters: { flow: q.flow ?? "", from, to, status: q.status ?? "" },
      flows: flows.map((f) => ({ id: f.id, name: f.name })),
      insights: byFlow,
      streams: page.data,
      next_cursor: page.next_cursor,
    },
  };
}
