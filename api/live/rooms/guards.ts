/** Who may act on rooms: the policy's answers, as the room use-cases ask them. */
import type { SignedInCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { can, isSupervisor } from "../../policy/policy";
import type { Room } from "./types";

/** Who may attend: the policy's /live (the omni plan, and an agent of any role or a supervisor: spec section 6). */
export function assertAttendant(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/live")) throw new AppError("FORBIDDEN");
}

/** The room, if the actor may act on it as its attending agent (or a supervisor). */
export function assertMine(ctx: SignedInCtx, room: Room) {
  if (room.agent_id !== ctx.actor.userId && !isSupervisor(ctx.actor)) throw new AppError("FORBIDDEN");
}
