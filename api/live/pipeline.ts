/**
 * Live messages that went out as messages of the pipeline (a WhatsApp or RCS room's agent and bot
 * messages, api/whatsapp/live.ts, api/rcs/live.ts; live_messages.message_id names the message): the message's later statuses
 * reach the room — delivered, read, failed with the reason — forward only, and the attending agent
 * is told, as with a channel's own receipts. Called by the provider's status path and by the
 * dispatcher when a message fails before the provider took it.
 */
import type { Transaction } from "sequelize";
import { rows } from "../lib/sql";
import type { ReceiptFollower } from "../messages/receipts";
import { isFailure, isMessageStatus } from "../messages/status";
import type { LiveMessage, MessageStatus, Room } from "./rooms/types";
import { messageView, roomSummary } from "./rooms/views";
import { publishLive, type LivePublish } from "./streams";

const LIVE_STATUS: Partial<Record<string, MessageStatus>> = { delivered: "DELIVERED", read: "READ" };

/** A pipeline message of an account that reached a message status (delivered, read, failed…). */
export type LiveFollow = { accountId: string; messageId: string; status: string; reason: string | null };

/** The pipeline message `messageId` of the account reached `status`: its live message follows. */
export async function liveMessageStatus(accountId: string, messageId: string, status: string, reason: string | null): Promise<number> {
  const { count, publish } = await followLiveMessages([{ accountId, messageId, status, reason }]);
  await publish();
  return count;
}

/**
 * Pipeline messages reached statuses (a flush of provider receipts, of any accounts): their live
 * messages follow with ONE statement, run in `transaction` when given (the receipt batch's, so a
 * flush of many posts costs one statement, not one per post); a message with several statuses
 * follows its last (they only move forward). Answers how many moved and the announcement to the
 * attending agents, to run once that transaction committed.
 */
export async function followLiveMessages(list: LiveFollow[], transaction?: Transaction): Promise<{ count: number; publish: () => Promise<void> }> {
  const last = new Map<string, LiveFollow & { next: MessageStatus }>();
  for (const x of list) {
    const next = isMessageStatus(x.status) && isFailure(x.status) ? "FAIL" : LIVE_STATUS[x.status];
    if (next) last.set(`${x.accountId}:${x.messageId}`, { ...x, next });
  }
  const items = [...last.values()];
  if (items.length === 0) return { count: 0, publish: async () => {} };
  // Forward only: SENT moves anywhere, DELIVERED only to READ or FAIL; READ and FAIL are final.
  const changed = await rows<LiveMessage>(
    `UPDATE live_messages l SET status = x.next,
       delivered_at = CASE WHEN x.next IN ('DELIVERED','READ') THEN COALESCE(l.delivered_at, now()) ELSE l.delivered_at END,
       read_at = CASE WHEN x.next = 'READ' THEN COALESCE(l.read_at, now()) ELSE l.read_at END,
       error = CASE WHEN x.next = 'FAIL' THEN x.reason ELSE l.error END, updated_at = now()
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[]) AS x(account_id, message_id, next, reason)
     WHERE l.account_id = x.account_id AND l.message_id = x.message_id
       AND (l.status = 'SENT' OR (l.status = 'DELIVERED' AND x.next <> 'DELIVERED')) RETURNING l.*`,
    [items.map((i) => i.accountId), items.map((i) => i.messageId), items.map((i) => i.next), items.map((i) => i.reason?.slice(0, 500) ?? null)],
    { transaction },
  );
  if (changed.length === 0) return { count: 0, publish: async () => {} };
  const rooms = await rows<Room>(`SELECT * FROM live_rooms WHERE id = ANY($1::uuid[])`, [[...new Set(changed.map((m) => m.room_id))]], { transaction });
  const events = changed.flatMap((m): LivePublish[] => {
    const room = rooms.find((r) => r.id === m.room_id && r.account_id === m.account_id);
    if (!room) return [];
    const accountId = room.account_id;
    const to = room.agent_id ? [room.agent_id] : ("*" as const);
    return m.status === "FAIL"
      ? [{ accountId, roomId: room.id, event: "failed", to, data: { room: roomSummary(room), message: messageView(m), ids: [m.id], error: m.error } }]
      : [{ accountId, roomId: room.id, event: m.status === "READ" ? "read" : "delivered", to, data: { room: roomSummary(room), ids: [m.id], by: "visitor" } }];
  });
  return { count: changed.length, publish: () => publishLive(events) };
}

/**
 * The receipt batch's follower (api/messages/receipts.ts `follow`) for a channel whose live rooms'
 * messages go through the pipeline (WhatsApp, RCS): an agent's or the bot's message follows its
 * statuses in the room, in the batch's transaction (every post of a flush at once).
 */
export const followLiveReceipts: ReceiptFollower = async (applied, transaction) =>
  (
    await followLiveMessages(
      applied.map(({ receipt, messageId, accountId, status }) => ({
        accountId,
        messageId,
        status,
        reason: receipt.errorMessage ?? (receipt.status === "failed" ? String(receipt.errorCode ?? "failed") : null),
      })),
      transaction,
    )
  ).publish;
