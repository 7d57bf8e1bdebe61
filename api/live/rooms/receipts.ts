/** Message receipts, forward only: SENT -> DELIVERED -> READ, on both sides of the room. */
import type { SignedInCtx } from "../../lib/context";
import { assertId } from "../../lib/owned";
import { channelSeen } from "../channel-signals";
import { assertAttendant, assertMine } from "./guards";
import { rows } from "../../lib/sql";
import { inRoomTransaction } from "./transaction";
import { attendingAgent, changeRoom, lockRoom, notify, type RoomNotice } from "./transition";
import type { LiveMessage } from "./types";

/** The visitor read the agent's messages (widget open and focused): they become READ. */
export async function visitorRead(accountId: string, roomId: string) {
  return inRoomTransaction(async (w) => {
    const room = await lockRoom(accountId, roomId, w.transaction);
    const changed = await rows<LiveMessage>(
      `UPDATE live_messages SET status = 'READ', read_at = now(), delivered_at = COALESCE(delivered_at, now()), updated_at = now()
       WHERE room_id = $1 AND author <> 'visitor' AND status IN ('SENT','DELIVERED') RETURNING *`,
      [room.id],
      { transaction: w.transaction },
    );
    if (changed.length > 0) notify(w, room, { event: "read", to: attendingAgent(room), extra: { ids: changed.map((m) => m.id), by: "visitor" }, visitor: true });
    return changed.length;
  });
}

/** Visitor messages shown to the agent: DELIVERED (the client acknowledges after 500 ms). */
export async function markDelivered(ctx: SignedInCtx, roomId: string, ids: string[]) {
  return markVisitorMessages(ctx, roomId, "DELIVERED", ids);
}

/** The agent read the room: every visitor message READ, unread count 0. */
export async function markRead(ctx: SignedInCtx, roomId: string) {
  return markVisitorMessages(ctx, roomId, "READ", null);
}

async function markVisitorMessages(ctx: SignedInCtx, roomId: string, status: "DELIVERED" | "READ", ids: string[] | null) {
  assertAttendant(ctx);
  if (ids) ids.forEach(assertId);
  let seen: (() => void) | null = null;
  const n = await inRoomTransaction(async (w) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, w.transaction);
    assertMine(ctx, room);
    // Forward only: SENT -> DELIVERED -> READ; never back, nothing after READ (or FAIL/DELETED).
    const from = status === "DELIVERED" ? ["SENT"] : ["SENT", "DELIVERED"];
    const changed = await rows<LiveMessage>(
      `UPDATE live_messages SET status = $2, delivered_at = COALESCE(delivered_at, now()), read_at = CASE WHEN $2 = 'READ' THEN now() ELSE read_at END, updated_at = now()
       WHERE room_id = $1 AND author = 'visitor' AND status = ANY($3::text[]) AND ($4::uuid[] IS NULL OR id = ANY($4::uuid[])) RETURNING *`,
      [room.id, status, from, ids],
      { transaction: w.transaction },
    );
    const notice: RoomNotice | undefined =
      changed.length > 0
        ? { event: status === "READ" ? "read" : "delivered", to: attendingAgent(room), extra: { ids: changed.map((m) => m.id), by: "agent" }, visitor: true }
        : undefined;
    if (status === "READ" && room.unread_count !== 0) await changeRoom(w, room, { set: { unread_count: 0 }, notify: notice });
    else if (notice) notify(w, room, notice);
    // Channels with read receipts of their own (Messenger/Instagram mark_seen, Business Messages READ) hear it too.
    if (status === "READ" && changed.length > 0 && room.channel !== "webchat") {
      const newest = changed.filter((m) => m.external_id).sort((a, b) => +new Date(b.created_at) - +new Date(a.created_at))[0];
      seen = () => channelSeen(room.account_id, room.channel, room.external_id, newest?.external_id ?? null);
    }
    return changed.length;
  });
  // After the commit, and never awaited.
  (seen as (() => void) | null)?.();
  return n;
}
