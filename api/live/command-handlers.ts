/**
 * Where live commands meet their use-cases (api/live/commands.ts holds the table). The realtime
 * process imports this file once at boot. Every command is the same use-case as its HTTP route
 * (api/live/routes.ts): the payload is checked here only for its shape; rules live in ./rooms.
 */
import { z } from "zod";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { registerLiveCommand, type LiveCaller } from "./commands";
import { closeRoom, returnToQueue, sendAgentMessage, setAgentStatus, takeRoom } from "./rooms/agent-actions";
import { getRoom, roomMessages } from "./rooms/queries";
import { markDelivered, markRead, visitorRead } from "./rooms/receipts";
import { acceptTransfer, refuseTransfer, transferToAgent, transferToDepartment } from "./rooms/transfers";
import { AGENT_STATUSES, type Room } from "./rooms/types";
import { messageView, roomSummary } from "./rooms/views";
import { visitorMessage } from "./rooms/visitor";
import "./commands";
import { agentTyping, visitorTyping } from "./typing";
import { deleteOwnMessage, editOwnMessage } from "./widget-public";
import { row } from "../lib/sql";

const roomId = z.object({ room_id: z.string().min(1, "validation.required") });
/** `message` (as the HTTP API names it) or `body` (as the message views do). */
const send = z
  .object({
    room_id: z.string().optional(),
    message: z.string().max(4096, "validation.maxLength::4096").optional(),
    body: z.string().max(4096, "validation.maxLength::4096").optional(),
    client_id: z.string().max(100).optional(),
    suggestions: z.array(z.string(), { message: "validation.invalid" }).optional(),
    template: z.object({ id: z.string().max(64), variables: z.array(z.string().max(1000)).max(100).optional() }, "validation.invalid").optional(),
  })
  .transform((v) => ({ ...v, message: v.message ?? v.body ?? "" }));

function agent(caller: LiveCaller) {
  if (caller.kind !== "agent") throw new AppError("FORBIDDEN");
  return caller.ctx;
}

/** The visitor's own room (its token is bound to one room). */
async function visitorRoom(caller: LiveCaller): Promise<Room> {
  if (caller.kind !== "visitor") throw new AppError("FORBIDDEN");
  const room = await row<Room>(`SELECT * FROM live_rooms WHERE id = $1 AND account_id = $2`, [caller.visitor.roomId, caller.visitor.accountId]);
  if (!room) throw new AppError("NOT_FOUND");
  return room;
}

registerLiveCommand("next", async (caller) => roomSummary(await takeRoom(agent(caller), null)));
registerLiveCommand(
  "send",
  async (caller, payload) => {
    const input = validate(send, payload);
    if (caller.kind === "agent") {
      if (!input.room_id) throw new AppError("VALIDATION", { fields: { room_id: ["validation.required"] } });
      return messageView(
        await sendAgentMessage(caller.ctx, input.room_id, {
          body: input.message,
          clientId: input.client_id ?? null,
          suggestions: input.suggestions ?? null,
          template: input.template ?? null,
        }),
      );
    }
    const room = await visitorRoom(caller);
    const result = await visitorMessage({
      accountId: room.account_id,
      channel: room.channel,
      externalId: room.external_id,
      body: input.message,
      clientId: input.client_id ?? null,
    });
    return messageView(result.message);
  },
  { audience: "both" },
);
registerLiveCommand("close", async (caller, payload) => {
  const input = validate(roomId.extend({ tabulation_id: z.string().optional() }), payload);
  return roomSummary(await closeRoom(agent(caller), input.room_id, { tabulationId: input.tabulation_id ?? null }));
});
registerLiveCommand("return_to_queue", async (caller, payload) => roomSummary(await returnToQueue(agent(caller), validate(roomId, payload).room_id)));
registerLiveCommand("room_refused", async (caller, payload) => roomSummary(await returnToQueue(agent(caller), validate(roomId, payload).room_id, { refuse: true })));
registerLiveCommand("transfer_agent", async (caller, payload) => {
  const input = validate(roomId.extend({ agent_id: z.string().min(1, "validation.required") }), payload);
  return roomSummary(await transferToAgent(agent(caller), input.room_id, input.agent_id));
});
registerLiveCommand("transfer_department", async (caller, payload) => {
  const input = validate(roomId.extend({ department_id: z.string().min(1, "validation.required") }), payload);
  return roomSummary(await transferToDepartment(agent(caller), input.room_id, input.department_id));
});
registerLiveCommand("transfer_accept", async (caller, payload) => roomSummary(await acceptTransfer(agent(caller), validate(roomId, payload).room_id)));
registerLiveCommand("transfer_refused", async (caller, payload) => roomSummary(await refuseTransfer(agent(caller), validate(roomId, payload).room_id)));
registerLiveCommand(
  "send-historic",
  async (caller, payload) => {
    const input = validate(z.object({ room_id: z.string().optional(), before: z.string().optional() }), payload);
    if (caller.kind === "agent") {
      if (!input.room_id) throw new AppError("VALIDATION", { fields: { room_id: ["validation.required"] } });
      await getRoom(caller.ctx, input.room_id);
      return roomMessages(caller.ctx.actor.accountId, input.room_id, { before: input.before ?? null, limit: 30 });
    }
    const room = await visitorRoom(caller);
    return roomMessages(room.account_id, room.id, { before: input.before ?? null, limit: 30 });
  },
  { audience: "both" },
);
registerLiveCommand("delivered", async (caller, payload) => {
  const input = validate(roomId.extend({ ids: z.array(z.string()).max(500) }), payload);
  return { changed: await markDelivered(agent(caller), input.room_id, input.ids) };
});
registerLiveCommand(
  "read",
  async (caller, payload) => {
    if (caller.kind === "agent") return { changed: await markRead(caller.ctx, validate(roomId, payload).room_id) };
    const room = await visitorRoom(caller);
    return { changed: await visitorRead(room.account_id, room.id) };
  },
  { audience: "both" },
);
registerLiveCommand("status", async (caller, payload) => {
  const input = validate(z.object({ status: z.enum(AGENT_STATUSES, { message: "validation.option" }) }), payload);
  return setAgentStatus(agent(caller), input.status);
});

/** The widget visitor edits or deletes one of their own messages (the same use-cases as PUT/DELETE /widget/{key}/messages/{id}). */
const ownMessageId = z.object({ id: z.string().min(1, "validation.required") });
async function visitorOf(caller: LiveCaller) {
  const room = await visitorRoom(caller);
  if (room.channel !== "webchat") throw new AppError("FORBIDDEN");
  return { accountId: room.account_id, visitorId: room.external_id };
}
registerLiveCommand("edit", async (caller, payload) => editOwnMessage(await visitorOf(caller), validate(ownMessageId, payload).id, payload), { audience: "visitor" });
registerLiveCommand("delete", async (caller, payload) => deleteOwnMessage(await visitorOf(caller), validate(ownMessageId, payload).id), { audience: "visitor" });

/** "Typing…": the agent names the room; the visitor's token already does. */
registerLiveCommand(
  "typing",
  async (caller, payload) => (caller.kind === "agent" ? agentTyping(caller.ctx, validate(roomId, payload).room_id) : visitorTyping(await visitorRoom(caller))),
  { audience: "both" },
);
