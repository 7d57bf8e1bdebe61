/**
 * Live messages that went out as messages of the pipeline (a WhatsApp room's agent messages,
 * api/whatsapp/live.ts; live_messages.message_id names the message): the message's later statuses
 * reach the room — delivered, read, failed with the reason — forward only, and the attending agent
 * is told, as with a channel's own receipts. Called by the provider's status path and by the
 * dispatcher when a message fails before the provider took it.
 */
import { rows } from "../lib/sql";
import { isFailure, isMessageStatus } from "../messages/status";
import type { LiveMessage, MessageStatus, Room } from "./rooms/types";
import { messageView, roomSummary } from "./rooms/views";
import { publishLive, type LivePublish } from "./streams";

const LIVE_STATUS: Partial<Record<string, MessageStatus>> = { delivered: "DELIVERED", read: "READ" };

/** The pipeline message `messageId` of the account reached `status` (a message status: delivered, read, failed…): its live message follows. */
export function liveMessageStatus(accountId: string, messageId: string, status: string, reason: string | null): Promise<number> {
  return liveMessageStatuses(accountId, [{ messageId, status, reason }]);
}

/**
 * Several of the account's pipeline messages reached statuses (one provider post's): their live
 * messages follow with one statement per target status (at most three), not one per message —
 * a post of 100 statuses of messages that have no live message costs three round trips, not 100.
 */
export async function liveMessageStatuses(accountId: string, list: Array<{ messageId: string; status: string; reason: string | null }>): Promise<number> {
  const groups = new Map<MessageStatus, Array<{ messageId: string; reason: string | null }>>();
  for (const x of list) {
    const next = isMessageStatus(x.status) && isFailure(x.status) ? "FAIL" : LIVE_STATUS[x.status];
    if (next) groups.set(next, [...(groups.get(next) ?? []), { messageId: x.messageId, reason: x.reason }]);
  }
  let count = 0;
  for (const [next, items] of groups) {
    const from = next === "DELIVERED" ? ["SENT"] : ["SENT", "DELIVERED"];
    const changed = await rows<LiveMessage>(
      `UPDATE live_messages l SET status = $2, delivered_at = CASE WHEN $2 IN ('DELIVERED','READ') THEN COALESCE(l.delivered_at, now()) ELSE l.delivered_at END,
         read_at = CASE WHEN $2 = 'READ' THEN COALESCE(l.read_at, now()) ELSE l.read_at END,
         error = CASE WHEN $2 = 'FAIL' THEN x.reason ELSE l.error END, updated_at = now()
         FROM unnest($3::uuid[], $4::text[]) AS x(message_id, reason)
       WHERE l.account_id = $1 AND l.message_id = x.message_id AND l.status = ANY($5::text[]) RETURNING l.*`,
      [accountId, next, items.map((i) => i.messageId), items.map((i) => i.reason?.slice(0, 500) ?? null), from],
    );
    if (changed.length === 0) continue;
    count += changed.length;
    const rooms = await rows<Room>(`SELECT * FROM live_rooms WHERE id = ANY($1::uuid[]) AND account_id = $2`, [[...new Set(changed.map((m) => m.room_id))], accountId]);
    await publishLive(
      changed.flatMap((m): LivePublish[] => {
        const room = rooms.find((r) => r.id === m.room_id);
        if (!room) return [];
        const to = room.agent_id ? [room.agent_id] : ("*" as const);
        return next === "FAIL"
          ? [{ accountId, roomId: room.id, event: "failed", to, data: { room: roomSummary(room), message: messageView(m), ids: [m.id], error: m.error } }]
          : [{ accountId, roomId: room.id, event: next === "READ" ? "read" : "delivered", to, data: { room: roomSummary(room), ids: [m.id], by: "visitor" } }];
      }),
    );
  }
  return count;
}
