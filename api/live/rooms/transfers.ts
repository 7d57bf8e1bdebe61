/**
 * Transfers. To an agent: the room is locked until they accept (it moves to them) or refuse (it
 * returns to the queue). To a department: back to QUEUE in that department, locked until an agent
 * there takes it (./distribution `assign` finishes it: transfer_finished).
 */
import type { SignedInCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { assertId } from "../../lib/owned";
import { SUPERVISOR_ROLES_SQL } from "../../policy/policy";
import { assertCapacity } from "./distribution";
import { assertAttendant, assertMine } from "./guards";
import { row } from "../../lib/sql";
import { inRoomTransaction } from "./transaction";
import { assertMove, changeRoom, lockRoom } from "./transition";
import type { Room } from "./types";

/** LIVE_ROOM_STATE unless the room is offered to the acting agent. */
function assertOfferedToMe(ctx: SignedInCtx, room: Room) {
  if (!room.locked || room.transfer_type !== "agent" || room.transfer_to_user_id !== ctx.actor.userId) throw new AppError("LIVE_ROOM_STATE");
}

/** Offers the room to another agent; it is locked until they accept or refuse. */
export async function transferToAgent(ctx: SignedInCtx, roomId: string, toUserId: string) {
  assertAttendant(ctx);
  assertId(toUserId);
  return inRoomTransaction(async (w) => {
    const { transaction } = w;
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    if (room.status !== "OPEN") throw new AppError("LIVE_ROOM_STATE");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    if (toUserId === room.agent_id) throw new AppError("VALIDATION", { fields: { agent_id: ["validation.option"] } });
    const target = await row<{ user_id: string }>(
      `SELECT user_id FROM memberships WHERE account_id = $1 AND user_id = $2 AND (is_agent OR role IN (${SUPERVISOR_ROLES_SQL}))`,
      [room.account_id, toUserId],
      { transaction },
    );
    if (!target) throw new AppError("VALIDATION", { fields: { agent_id: ["validation.option"] } });
    return changeRoom(w, room, {
      set: { locked: true, transfer_type: "agent", transfer_to_user_id: toUserId, transfer_to_department_id: null, transfer_by: ctx.actor.userId, transfer_at: new Date() },
      log: { type: "transfer_agent", actor: ctx.actor.userId, payload: { to: toUserId } },
      notify: { event: "transfer_agent", to: [toUserId, room.agent_id ?? ""].filter(Boolean) },
    });
  });
}

/** The offered agent accepts: the room (and its history) is theirs. */
export async function acceptTransfer(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return inRoomTransaction(async (w) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, w.transaction);
    assertOfferedToMe(ctx, room);
    await assertCapacity(room.account_id, ctx.actor.userId, w.transaction);
    const previous = room.agent_id;
    return changeRoom(w, room, {
      set: { agent_id: ctx.actor.userId, locked: false, transfer_to_user_id: null, assigned_at: new Date() },
      log: { type: "transfer_accept", actor: ctx.actor.userId, payload: { from: previous } },
      notify: { event: "transfer_accept", to: [ctx.actor.userId, previous ?? ""].filter(Boolean), extra: { from: previous }, visitor: true },
    });
  });
}

/** The offered agent refuses: the room returns to its department's queue. */
export async function refuseTransfer(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return inRoomTransaction(async (w) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, w.transaction);
    assertOfferedToMe(ctx, room);
    const previous = room.agent_id;
    return changeRoom(w, room, {
      move: "requeue",
      set: { agent_id: null, locked: false, transfer_to_user_id: null, queued_at: new Date() },
      log: { type: "transfer_refused", actor: ctx.actor.userId, payload: { from: previous } },
      notify: { event: "transfer_refused", to: "*", extra: { by: ctx.actor.userId, from: previous }, visitor: true },
      distribute: true,
    });
  });
}

/** Sends the room to another department's queue; locked until an agent there takes it. */
export async function transferToDepartment(ctx: SignedInCtx, roomId: string, departmentId: string) {
  assertAttendant(ctx);
  assertId(departmentId);
  return inRoomTransaction(async (w) => {
    const { transaction } = w;
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    assertMove(room, "requeue");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    const dept = await row<{ id: string }>(`SELECT id FROM departments WHERE id = $1 AND account_id = $2 AND status = 'active'`, [departmentId, room.account_id], { transaction });
    if (!dept) throw new AppError("VALIDATION", { fields: { department_id: ["validation.option"] } });
    const previous = room.agent_id;
    return changeRoom(w, room, {
      move: "requeue",
      set: {
        agent_id: null,
        department_id: departmentId,
        locked: true,
        transfer_type: "department",
        transfer_to_department_id: departmentId,
        transfer_to_user_id: null,
        transfer_by: ctx.actor.userId,
        transfer_at: new Date(),
        queued_at: new Date(),
      },
      log: { type: "transfer_department", actor: ctx.actor.userId, payload: { from: previous, department_id: departmentId } },
      notify: { event: "transfer_department", to: "*", extra: { from: previous }, visitor: true },
      distribute: true,
    });
  });
}
