/**
 * Live chat's Redis Streams (ARCHITECTURE.md "Real time", ADR 014). The use-cases publish after
 * their transaction commits; the realtime processes read and push to browsers. Two streams:
 *
 * (Both carry the account's realtime shard tag, api/lib/redis-keys.ts, so one event's two entries
 * share a slot.)
 *
 *  - `live:account:{accountId}`: everything agents and supervisors see. Each entry has
 *    `event`, `room_id`, `to` ("*" = every agent of the account, or a comma list of user ids;
 *    supervisors — ADMINISTRATOR/MANAGER profiles — receive every entry) and `data` (JSON).
 *  - `live:room:{roomId}`: what the room's visitor (widget, hosted webchat) sees.
 *
 * Event names are the spec's (section 7, real time) plus a few of ours for state the screens need.
 */
import { perSlot, redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";

export const accountLiveStream = (accountId: string) => keys.accountLiveStream(accountId);
export const roomLiveStream = (accountId: string, roomId: string) => keys.roomLiveStream(accountId, roomId);

/**
 * Redis's clock in ms. Stream ids start with the ms of the write, so an id made from a mark read
 * before a query (`streamMark`) is a resume point that loses nothing written after that query began.
 */
export async function redisMs(): Promise<number> {
  const [sec, usec] = await redis().time();
  return Number(sec) * 1000 + Math.floor(Number(usec) / 1000);
}
/** A resume point just before now: every entry written from now on comes after it. */
export const streamMark = async () => `${(await redisMs()) - 1}-0`;

/** Entries kept per stream: enough for a reconnecting client to catch up on several minutes. */
const MAXLEN = 50_000;
const ROOM_MAXLEN = 2_000;

export const LIVE_EVENTS = [
  // spec section 7
  "next",
  "heart_beat",
  "send",
  "close",
  "return_to_queue",
  "transfer_agent",
  "transfer_department",
  "transfer_accept",
  "transfer_refused",
  "room_refused",
  "send-historic",
  "delivered",
  "read",
  // ours: a room entered the queue, was assigned, changed (tags, tabulation, lock), a message was
  // edited or deleted, the visitor's place in line, an agent's status, a transfer finished, and
  // the "connected elsewhere" take-over.
  "queued",
  "assigned",
  "room_updated",
  "edited",
  "deleted",
  "queue_position",
  "agent_status",
  "transfer_finished",
  "disconnect",
  "typing",
  // a channel could not deliver the agent's message (status FAIL, with the error)
  "failed",
] as const;
export type LiveEvent = (typeof LIVE_EVENTS)[number];

export type LivePublish = {
  accountId: string;
  roomId?: string | null;
  event: LiveEvent;
  data: Record<string, unknown>;
  /** Agents who receive it on the account stream: "*" (all) or user ids. Supervisors get all. */
  to?: "*" | string[];
  /** Also to the room's visitor. */
  visitor?: boolean;
  /** False: only to the room's visitor (nothing on the account stream). */
  agents?: boolean;
};

/** What a visitor may see of a room: never the agents' fields (tags, tabulation, transfers, contact). */
const VISITOR_ROOM_FIELDS = ["id", "protocol", "status", "channel", "agent_id", "closed_at"] as const;
export function visitorSafe(data: Record<string, unknown>): Record<string, unknown> {
  const room = data.room as Record<string, unknown> | undefined;
  if (!room || typeof room !== "object") return data;
  return { ...data, room: Object.fromEntries(VISITOR_ROOM_FIELDS.map((k) => [k, room[k] ?? null])) };
}

/** Publishes live events (call after commit). One round trip per slot touched (one on a single server). */
export async function publishLive(events: LivePublish[]): Promise<void> {
  if (events.length === 0) return;
  const byStream = new Map<string, LivePublish[]>();
  for (const e of events) {
    const k = accountLiveStream(e.accountId);
    byStream.set(k, [...(byStream.get(k) ?? []), e]);
  }
  await perSlot([...byStream.keys()], (streams) => publishSlot(streams.flatMap((s) => byStream.get(s)!)));
}

async function publishSlot(events: LivePublish[]): Promise<void> {
  const pipeline = redis().pipeline();
  for (const e of events) {
    const data = JSON.stringify(e.data);
    const to = e.to === undefined || e.to === "*" ? "*" : e.to.join(",");
    if (e.agents !== false)
      pipeline.xadd(
        accountLiveStream(e.accountId),
        "MAXLEN",
        "~",
        String(MAXLEN),
        "*",
        "event",
        e.event,
        "room_id",
        e.roomId ?? "",
        "to",
        to,
        "data",
        data,
        "at",
        String(Date.now()),
      );
    if (e.visitor && e.roomId) {
      pipeline.xadd(
        roomLiveStream(e.accountId, e.roomId),
        "MAXLEN",
        "~",
        String(ROOM_MAXLEN),
        "*",
        "event",
        e.event,
        "room_id",
        e.roomId,
        "data",
        JSON.stringify(visitorSafe(e.data)),
        "at",
        String(Date.now()),
      );
    }
  }
  const results = await pipeline.exec();
  const failed = results?.find(([err]) => err);
  if (failed) throw failed[0];
}
