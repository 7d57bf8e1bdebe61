/**
 * "Typing…" both ways (spec section 3: the widget message type `typing`). Nothing is stored: a
 * `typing` event goes to the other side only — the visitor's to the attending agent (every agent
 * while the room waits in the queue), the agent's to the room's visitor with the agent's first
 * name (on Telegram, Messenger/Instagram and Business Messages, the channel's own typing action).
 * A client sends one while its user types, at most every TYPING_EVERY_MS; the server keeps
 * one per room and side per TYPING_EVERY_MS (a Redis key with a TTL), so a client that sends on
 * every keystroke cannot flood the streams. Screens show it for TYPING_SHOW_MS, or until a message.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";
import { channelTyping } from "./channel-signals";
import { TYPING_EVERY_MS } from "./limits";
import { publishLive } from "./streams";
import type { Room } from "./rooms/types";
import { row } from "../lib/sql";

/** True for the first signal of a room and side in TYPING_EVERY_MS. */
async function firstInWindow(roomId: string, side: "visitor" | "agent"): Promise<boolean> {
  return (await redis().set(keys.liveTyping(roomId, side), "1", "PX", TYPING_EVERY_MS, "NX")) === "OK";
}

/** The visitor is typing in their room (its token names it). */
export async function visitorTyping(room: Pick<Room, "id" | "account_id" | "agent_id" | "status">): Promise<{ sent: boolean }> {
  if (room.status === "CLOSED") return { sent: false };
  if (!(await firstInWindow(room.id, "visitor"))) return { sent: false };
  await publishLive([{ accountId: room.account_id, roomId: room.id, event: "typing", data: { room_id: room.id, by: "visitor" }, to: room.agent_id ? [room.agent_id] : "*" }]);
  return { sent: true };
}

/** The attending agent is typing in an open room: the visitor sees their first name. */
export async function agentTyping(ctx: SignedInCtx, roomId: string): Promise<{ sent: boolean }> {
  assertId(roomId);
  const found = await row<{
    id: string;
    account_id: string;
    agent_id: string | null;
    status: string;
    channel: string;
    external_id: string;
    first_name: string | null;
  }>(
    `SELECT r.id, r.account_id, r.agent_id, r.status, r.channel, r.external_id, u.first_name FROM live_rooms r LEFT JOIN users u ON u.id = r.agent_id WHERE r.id = $1 AND r.account_id = $2`,
    [roomId, ctx.actor.accountId],
  );
  if (!found) throw new AppError("NOT_FOUND");
  if (found.agent_id !== ctx.actor.userId) throw new AppError("FORBIDDEN");
  if (found.status !== "OPEN") return { sent: false };
  if (!(await firstInWindow(found.id, "agent"))) return { sent: false };
  if (found.channel === "webchat") {
    await publishLive([
      { accountId: found.account_id, roomId: found.id, event: "typing", data: { room_id: found.id, by: "agent", name: found.first_name ?? "" }, visitor: true, agents: false },
    ]);
  } else {
    // Telegram, Messenger/Instagram and Business Messages have their own "typing…": best effort, not awaited.
    channelTyping(found.account_id, found.channel, found.external_id);
  }
  return { sent: true };
}
