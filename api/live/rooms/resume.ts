/** Offline and idle contacts: an agent takes them up again, or marks an offline one solved. */
import type { SignedInCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { assertCapacity } from "./distribution";
import { assertAttendant, assertMine } from "./guards";
import { row } from "../../lib/sql";
import { inRoomTransaction } from "./transaction";
import { assertMove, attendingAgent, changeRoom, lockRoom } from "./transition";

/** Offline contact resumed by the agent: the room opens again with them (same protocol). */
export async function resumeOffline(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return inRoomTransaction(async (w) => {
    const { transaction } = w;
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    if (!room.offline || room.solved) throw new AppError("LIVE_ROOM_STATE");
    assertMove(room, "reopen");
    const active = await row<{ id: string }>(
      `SELECT id FROM live_rooms WHERE account_id = $1 AND channel = $2 AND external_id = $3 AND status <> 'CLOSED'`,
      [room.account_id, room.channel, room.external_id],
      { transaction },
    );
    if (active) throw new AppError("LIVE_ROOM_STATE");
    await assertCapacity(room.account_id, ctx.actor.userId, transaction);
    return changeRoom(w, room, {
      move: "reopen",
      set: { agent_id: ctx.actor.userId, offline: false, closed_at: null, close_reason: null, assigned_at: new Date() },
      log: { type: "resumed", actor: ctx.actor.userId, payload: { from: "offline" } },
      notify: { event: "assigned", to: "*", visitor: true },
    });
  });
}

/** Offline contact marked solved (no conversation needed). */
export async function solveOffline(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return inRoomTransaction(async (w) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, w.transaction);
    if (room.status !== "CLOSED" || !room.offline) throw new AppError("LIVE_ROOM_STATE");
    return changeRoom(w, room, {
      set: { solved: true },
      log: { type: "solved", actor: ctx.actor.userId },
      notify: { event: "room_updated", to: "*" },
    });
  });
}

/** Idle contact resumed: clears the idle flag. */
export async function resumeIdle(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return inRoomTransaction(async (w) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, w.transaction);
    assertMine(ctx, room);
    if (room.status !== "OPEN" || !room.idle) throw new AppError("LIVE_ROOM_STATE");
    return changeRoom(w, room, {
      set: { idle: false },
      log: { type: "resumed", actor: ctx.actor.userId, payload: { from: "idle" } },
      notify: { event: "room_updated", to: attendingAgent(room) },
    });
  });
}
