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
export async function liveMessageStatus(accountId: string, messageId: string, status: string, reason: string | null): Promise<number> {
  const next = isMessageStatus(status) && isFailure(status) ? "FAIL" : LIVE_STATUS[status];
  if (!next) return 0;
  const from = next === "DELIVERED" ? ["SENT"] : ["SENT", "DELIVERED"];
  const changed = await rows<LiveMessage>(
    `UPDATE live_messages SET status = $3, delivered_at = CASE WHEN $3 IN ('DELIVERED','READ') THEN COALESCE(delivered_at, now()) ELSE delivered_at END,
       read_at = CASE WHEN $3 = 'READ' THEN COALESCE(read_at, now()) ELSE read_at END,
       error = CASE WHEN $3 = 'FAIL' THEN $5 ELSE error END, updated_at = now()
     WHERE account_id = $1 AND message_id = $2 AND status = ANY($4::text[]) RETURNING *`,
    [accountId, messageId, next, from, reason?.slice(0, 500) ?? null],
  );
  if (changed.length === 0) return 0;
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
  return changed.length;
}
