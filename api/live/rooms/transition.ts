/**
 * The one way a room changes (ADR 014): `changeRoom` checks the status move against MOVES, writes
 * the room row, its live_room_events rows (the audit trail and the reports' source) and queues the
 * stream notices that ./transaction publishes after COMMIT. Every use-case in this folder that
 * changes a room goes through it, inside `inRoomTransaction`, on a room it locked with `lockRoom`.
 */
import type { Transaction } from "sequelize";
import { AppError } from "../../lib/errors";
import { assertId } from "../../lib/owned";
import type { LivePublish } from "../streams";
import { exec, row } from "../../lib/sql";
import type { Room, RoomStatus } from "./types";
import { roomSummary } from "./views";

/**
 * The status moves of spec section 4, each with the statuses it may leave. Other changes (tags,
 * tabulation, a transfer offered or accepted, idle, solved, the last message) keep the status.
 */
export const MOVES = {
  /** To an agent: distribution, a take, a department transfer finishing. */
  assign: { from: ["QUEUE"], to: "OPEN" },
  /** Back to the queue: returned, refused, sent to a department, the agent left. */
  requeue: { from: ["OPEN"], to: "QUEUE" },
  /** Closed by the agent or a supervisor. */
  close: { from: ["QUEUE", "OPEN"], to: "CLOSED" },
  /** An offline contact taken up by an agent (same room, same protocol). */
  reopen: { from: ["CLOSED"], to: "OPEN" },
  /** A flow starts on an open room (the API trigger, ADR 054). */
  bot: { from: ["QUEUE", "OPEN"], to: "BOT" },
  /** The flow hands off, fails or is cancelled: the room joins the queue as a new one. */
  handoff: { from: ["BOT"], to: "QUEUE" },
  /** The flow ended (an end step, an output with no edge, the visitor never answered). */
  botClose: { from: ["BOT"], to: "CLOSED" },
} as const satisfies Record<string, { from: readonly RoomStatus[]; to: RoomStatus }>;
export type Move = keyof typeof MOVES;

/** LIVE_ROOM_STATE unless the room is in a status `move` leaves from. */
export function assertMove(room: Room, move: Move) {
  const from: readonly RoomStatus[] = MOVES[move].from;
  if (!from.includes(room.status)) throw new AppError("LIVE_ROOM_STATE");
}

/** What a room use-case's transaction carries (./transaction makes it). */
export type RoomWork = {
  transaction: Transaction;
  /** Published on the live streams after COMMIT, in this order. */
  notices: LivePublish[];
  /** Accounts whose queue is distributed again after COMMIT. */
  distribute: Set<string>;
};

export type RoomColumns = Partial<Record<keyof Room, unknown>>;
/** One live_room_events row. */
export type RoomLog = { type: string; actor: string | null; payload?: Record<string, unknown> };
/** One stream notice about the room; it carries the room's summary and `extra`. `visitor`: the room's visitor hears it too. */
export type RoomNotice = { event: LivePublish["event"]; to: LivePublish["to"]; extra?: Record<string, unknown>; visitor?: boolean };

export type RoomChange = {
  /** A status move, checked against MOVES. Without it the status stays. */
  move?: Move;
  /** The columns written (besides the status of `move`). */
  set?: RoomColumns;
  log?: RoomLog | RoomLog[];
  notify?: RoomNotice | RoomNotice[];
  /** The change queued a room or freed an agent: distribute the account's queue after COMMIT. */
  distribute?: boolean;
};

const list = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/** Applies `change` to the locked `room`; answers the room as written. */
export async function changeRoom(w: RoomWork, room: Room, change: RoomChange): Promise<Room> {
  if (change.move) assertMove(room, change.move);
  const set: RoomColumns = change.move ? { status: MOVES[change.move].to, ...change.set } : { ...change.set };
  const updated = await updateRoom(w.transaction, room.id, set);
  for (const entry of list(change.log)) await logRoomEvent(w.transaction, updated, entry);
  for (const notice of list(change.notify)) notify(w, updated, notice);
  if (change.distribute) w.distribute.add(updated.account_id);
  return updated;
}

/** A notice about a room that did not change (receipts). */
export function notify(w: RoomWork, room: Room, notice: RoomNotice) {
  w.notices.push(roomNotice(room, notice));
}

/** A notice as the live streams take it. */
export function roomNotice(room: Room, { event, to, extra = {}, visitor = false }: RoomNotice): LivePublish {
  return { accountId: room.account_id, roomId: room.id, event, to, visitor, data: { room: roomSummary(room), ...extra } };
}

/** The room's attending agent, else every agent of the account: who hears of a change only they act on. */
export const attendingAgent = (room: Room): LivePublish["to"] => (room.agent_id ? [room.agent_id] : "*");

/** Locks the account's room (404 when it is another account's or does not exist). */
export async function lockRoom(accountId: string, roomId: string, transaction: Transaction): Promise<Room> {
  assertId(roomId);
  const room = await row<Room>(`SELECT * FROM live_rooms WHERE id = $1 AND account_id = $2 FOR UPDATE`, [roomId, accountId], { transaction });
  if (!room) throw new AppError("NOT_FOUND");
  return room;
}

/** A live_room_events row; exported for a room's first event, written with its INSERT (./visitor). */
export async function logRoomEvent(transaction: Transaction, room: Pick<Room, "id" | "account_id">, { type, actor, payload = {} }: RoomLog) {
  await exec(
    `INSERT INTO live_room_events (account_id, room_id, type, actor_id, payload) VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [room.account_id, room.id, type, actor, JSON.stringify(payload)],
    { transaction },
  );
}

async function updateRoom(transaction: Transaction, id: string, set: RoomColumns): Promise<Room> {
  const keys = Object.keys(set);
  const sql = `UPDATE live_rooms SET ${keys.map((k, i) => `${k} = $${i + 2}`).join(", ")}, updated_at = now() WHERE id = $1 RETURNING *`;
  const updated = await row<Room>(sql, [id, ...keys.map((k) => (set as Record<string, unknown>)[k])], { transaction });
  if (!updated) throw new AppError("NOT_FOUND");
  return updated;
}
