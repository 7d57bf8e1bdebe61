/** Reading rooms: the workspace's lists and counts, one room, its messages, the agent's load. */
import type { SignedInCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { assertId } from "../../lib/owned";
import { keyset, pageInput } from "../../lib/page";
import { intParam, pageParam, validate } from "../../lib/validate";
import { z } from "../../lib/zod";
import { isSupervisor } from "../../policy/policy";
import { sortTime, timeIdCursor } from "../keyset";
import { agentLoad } from "./distribution";
import { assertAttendant } from "./guards";
import { row, rows } from "../../lib/sql";
import { sequelize } from "../../../models";
import type { LiveMessage, Room } from "./types";
import { messageView, roomSummary } from "./views";

export const ROOMS_PER_PAGE = 20;
export const MESSAGES_PER_PAGE = 80;
export type RoomList = "queue" | "me" | "closed" | "offline" | "idle" | "all";

/** Each list's condition (w.uid = the acting user, w.sup = a supervisor). */
const LIST_WHERE: Record<RoomList, string> = {
  queue: `r.status = 'QUEUE'`,
  me: `r.status = 'OPEN' AND r.agent_id = w.uid`,
  idle: `r.status = 'OPEN' AND r.idle AND (w.sup OR r.agent_id = w.uid)`,
  closed: `r.status = 'CLOSED' AND NOT r.offline AND (w.sup OR r.agent_id = w.uid)`,
  offline: `r.status = 'CLOSED' AND r.offline AND NOT r.solved`,
  all: `w.sup OR r.agent_id = w.uid OR r.status = 'QUEUE'`,
};

const roomsQuerySchema = z.object({ page: pageParam() });
const roomsPageSchema = z.object({ ...pageInput, page: intParam(1, 100_000, undefined) });
const messagesQuerySchema = z.object({ limit: intParam(1, MESSAGES_PER_PAGE, MESSAGES_PER_PAGE) });

/** Each list's sort key and direction: the queue oldest first, the others by last activity, newest first. */
const listOrder = (list: RoomList) =>
  list === "queue" ? { key: `COALESCE(r.queued_at, r.created_at)`, dir: "ASC" as const } : { key: `COALESCE(r.last_message_at, r.created_at)`, dir: "DESC" as const };

export type RoomPageQuery = { cursor?: string; limit?: unknown; page?: unknown };

/**
 * A page of a room list for the acting agent (supervisors see everyone's), by keyset: `limit`
 * rooms (default 50) after `cursor` (the `next_cursor` of the previous page). The deprecated
 * `page` pages by OFFSET instead (20 a page unless `limit`) and adds page, last_page and total.
 */
export async function roomPage(ctx: SignedInCtx, list: RoomList, query: RoomPageQuery = {}) {
  assertAttendant(ctx);
  const q = validate(roomsPageSchema, { cursor: query.cursor, limit: query.limit, page: query.page });
  const after = timeIdCursor(q.cursor);
  const offsetPage = after ? undefined : q.page;
  const limit = offsetPage !== undefined && (query.limit === undefined || query.limit === "") ? ROOMS_PER_PAGE : q.limit;
  return fetchRooms(ctx, list, { after, limit, page: offsetPage });
}

async function fetchRooms(ctx: SignedInCtx, list: RoomList, opts: { after: [string, string] | null; limit: number; page?: number }) {
  const { accountId, userId } = ctx.actor;
  const { key, dir } = listOrder(list);
  const bind: unknown[] = [accountId, userId, isSupervisor(ctx.actor)];
  let seek = "";
  if (opts.after) {
    bind.push(opts.after[0], opts.after[1]);
    seek = `AND (${key}, r.id) ${dir === "ASC" ? ">" : "<"} ($4::timestamptz, $5::uuid)`;
  }
  const offset = opts.page !== undefined ? (opts.page - 1) * opts.limit : 0;
  const found = await rows<Room & { sort_key: string; total: number }>(
    `WITH w AS (SELECT $2::uuid AS uid, $3::boolean AS sup)
     SELECT r.*, ${sortTime(key)} AS sort_key${opts.page !== undefined ? ", count(*) OVER ()::int AS total" : ""}
       FROM live_rooms r, w WHERE r.account_id = $1 AND (${LIST_WHERE[list]}) ${seek}
      ORDER BY ${key} ${dir}, r.id ${dir} LIMIT ${opts.limit + 1} OFFSET ${offset}`,
    bind,
  );
  const page = keyset(found, opts.limit, (r) => [r.sort_key, r.id], roomSummary);
  if (opts.page === undefined) return page;
  const total = found[0]?.total ?? 0;
  return { ...page, page: opts.page, last_page: Math.max(1, Math.ceil(total / opts.limit)), total };
}

/** Rooms of a list for the acting agent (the workspace screen: page of 20, `page` as the query string has it). */
export async function listRooms(ctx: SignedInCtx, list: RoomList, page: unknown = 1) {
  assertAttendant(ctx);
  const { page: p } = validate(roomsQuerySchema, { page });
  const out = await fetchRooms(ctx, list, { after: null, limit: ROOMS_PER_PAGE, page: p });
  return out as typeof out & { page: number; last_page: number; total: number };
}

/** One room the actor may see (their own, queued, or any for a supervisor). */
export async function getRoom(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  assertId(roomId);
  const room = await row<Room>(`SELECT * FROM live_rooms WHERE id = $1 AND account_id = $2`, [roomId, ctx.actor.accountId]);
  if (!room) throw new AppError("NOT_FOUND");
  if (
    !isSupervisor(ctx.actor) &&
    room.agent_id !== ctx.actor.userId &&
    room.status !== "QUEUE" &&
    room.transfer_to_user_id !== ctx.actor.userId &&
    !(room.offline && room.status === "CLOSED")
  ) {
    throw new AppError("FORBIDDEN");
  }
  return room;
}

/**
 * A page of a room's messages, oldest first within the page: the newest `limit` (80; 30 for the
 * initial history) before `before` (a message id), so the thread loads upwards.
 */
export async function roomMessages(accountId: string, roomId: string, opts: { before?: string | null; limit?: unknown } = {}) {
  assertId(roomId);
  const { limit } = validate(messagesQuerySchema, { limit: opts.limit });
  if (opts.before) assertId(opts.before);
  const found = await rows<LiveMessage>(
    `SELECT m.* FROM live_messages m WHERE m.room_id = $1 AND m.account_id = $2
       AND ($3::uuid IS NULL OR (m.created_at, m.id) < (SELECT created_at, id FROM live_messages WHERE id = $3))
     ORDER BY m.created_at DESC, m.id DESC LIMIT ${limit + 1}`,
    [roomId, accountId, opts.before ?? null],
  );
  const more = found.length > limit;
  return { data: found.slice(0, limit).reverse().map(messageView), more };
}

/** The agent's load for the workspace header: open rooms and capacity. */
export async function myLoad(ctx: SignedInCtx) {
  assertAttendant(ctx);
  return sequelize().transaction((t) => agentLoad(ctx.actor.accountId, ctx.actor.userId, t));
}

/** How many rooms each list holds for the acting agent (the workspace's tab counts) and the unread messages of my open rooms, in one scan. */
export async function roomCounts(ctx: SignedInCtx): Promise<Record<Exclude<RoomList, "all">, number> & { unread: number }> {
  assertAttendant(ctx);
  const lists = ["queue", "me", "closed", "offline", "idle"] as const;
  const counts = await row<Record<(typeof lists)[number] | "unread", number>>(
    `WITH w AS (SELECT $2::uuid AS uid, $3::boolean AS sup)
     SELECT ${lists.map((l) => `count(*) FILTER (WHERE ${LIST_WHERE[l]})::int AS ${l}`).join(", ")},
       COALESCE(sum(r.unread_count) FILTER (WHERE ${LIST_WHERE.me}), 0)::int AS unread
     FROM live_rooms r, w WHERE r.account_id = $1`,
    [ctx.actor.accountId, ctx.actor.userId, isSupervisor(ctx.actor)],
  );
  return counts!;
}
