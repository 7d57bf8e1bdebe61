/** What the attending agent does: status, take, write, close, tabulate, tag, correct the contact, give the room back. */
import type { Transaction } from "sequelize";
import type { SignedInCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { assertId } from "../../lib/owned";
import { SUGGESTION_MAX_LENGTH, SUGGESTIONS_MAX } from "../limits";
import { liveAdapter } from "../messaging";
import { settingsRow } from "../settings";
import { publishLive } from "../streams";
import { cleanRoomContact, contactFor, type RoomContactPatch } from "./contact";
import { assertCapacity, assign, distribute } from "./distribution";
import { assertAttendant, assertMine } from "./guards";
import { exec, row } from "../../lib/sql";
import { inRoomTransaction } from "./transaction";
import { assertMove, attendingAgent, changeRoom, lockRoom } from "./transition";
import { AGENT_STATUSES, type AgentStatus, type Attachment, type LiveMessage, type Room } from "./types";
import { messageView } from "./views";

/** Sets the acting agent's status (restored by the client at connect; AVAILABLE may bring rooms). */
export async function setAgentStatus(ctx: SignedInCtx, status: AgentStatus) {
  assertAttendant(ctx);
  if (!AGENT_STATUSES.includes(status)) throw new AppError("VALIDATION", { fields: { status: ["validation.option"] } });
  const { accountId, userId } = ctx.actor;
  await exec(
    `INSERT INTO live_agents (account_id, user_id, status, status_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (account_id, user_id) DO UPDATE SET status = EXCLUDED.status, status_at = now()`,
    [accountId, userId, status],
  );
  await publishLive([{ accountId, event: "agent_status", to: "*", data: { user_id: userId, status } }]);
  if (status === "AVAILABLE") await distribute(accountId);
  return { status };
}

/** Takes a queued room (manual pick, or `next` = the oldest of the agent's departments). */
export async function takeRoom(ctx: SignedInCtx, roomId: string | null) {
  assertAttendant(ctx);
  const { accountId, userId } = ctx.actor;
  return inRoomTransaction(async (w) => {
    const { transaction } = w;
    let room: Room | null;
    if (roomId) room = await lockRoom(accountId, roomId, transaction);
    else {
      room = await row<Room>(
        `SELECT r.* FROM live_rooms r WHERE r.account_id = $1 AND r.status = 'QUEUE'
           AND (r.department_id IS NULL OR r.department_id = (SELECT department_id FROM memberships WHERE account_id = $1 AND user_id = $2)
                OR EXISTS (SELECT 1 FROM live_agent_departments d WHERE d.account_id = $1 AND d.user_id = $2 AND d.department_id = r.department_id))
         ORDER BY r.queued_at, r.id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [accountId, userId],
        { transaction },
      );
      if (!room) throw new AppError("LIVE_QUEUE_EMPTY");
    }
    assertMove(room, "assign");
    await assertCapacity(accountId, userId, transaction);
    await assign(w, room, userId, userId);
    return await lockRoom(accountId, room.id, transaction);
  });
}

export type AgentMessageInput = {
  body: string;
  attachments?: Attachment[];
  clientId?: string | null;
  suggestions?: readonly string[] | null;
  /** An approved template of the channel's (WhatsApp outside the contact's window) and its body variables. */
  template?: { id: string; variables?: readonly string[] | null } | null;
};

/** The suggestion buttons as given (trimmed, blanks and repeats dropped), or a validation error on `suggestions`. */
export function cleanSuggestions(list: readonly unknown[] | null | undefined): string[] {
  const out = [...new Set((list ?? []).map((s) => (typeof s === "string" ? s.replace(/\s+/g, " ").trim() : "")).filter(Boolean))];
  if (out.length > SUGGESTIONS_MAX) throw new AppError("VALIDATION", { fields: { suggestions: [`validation.maxItems::${SUGGESTIONS_MAX}`] } });
  if (out.some((s) => [...s].length > SUGGESTION_MAX_LENGTH)) throw new AppError("VALIDATION", { fields: { suggestions: [`validation.eachMaxLength::${SUGGESTION_MAX_LENGTH}`] } });
  return out;
}

/** The agent's message to the visitor: stored, shown to the visitor, sent out through the channel. */
export async function sendAgentMessage(ctx: SignedInCtx, roomId: string, input: AgentMessageInput) {
  assertAttendant(ctx);
  let body = (input.body ?? "").trim();
  if (!body && !input.attachments?.length && !input.template) throw new AppError("VALIDATION", { fields: { body: ["validation.required"] } });
  if (body.length > 4096) throw new AppError("VALIDATION", { fields: { body: ["validation.maxLength::4096"] } });
  const suggestions = cleanSuggestions(input.suggestions);
  return inRoomTransaction(async (w) => {
    const { transaction } = w;
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    if (room.status !== "OPEN") throw new AppError("LIVE_ROOM_STATE");
    if (room.agent_id !== ctx.actor.userId) throw new AppError("FORBIDDEN");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    const clientId = input.clientId ? String(input.clientId).slice(0, 100) : null;
    // A retry of a message already stored answers it, whatever the channel's rules say now.
    const again = clientId ? await row<LiveMessage>(`SELECT * FROM live_messages WHERE room_id = $1 AND client_id = $2`, [room.id, clientId], { transaction }) : null;
    if (again) return again;
    // A channel whose messages go through the pipeline (WhatsApp) accepts it there, with its own rules; a template elsewhere is refused.
    const adapter = liveAdapter(room.channel);
    const template = input.template ? { id: String(input.template.id ?? ""), variables: [...(input.template.variables ?? [])].map(String) } : null;
    let messageId: string | null = null;
    if (adapter?.accept) ({ body, messageId } = await adapter.accept(ctx, room, { body, attachments: input.attachments ?? [], template, suggestions }, transaction));
    else if (template) throw new AppError("VALIDATION", { fields: { template: ["validation.option"] } });
    const message = await row<LiveMessage>(
      `INSERT INTO live_messages (account_id, room_id, author, user_id, body, attachments, client_id, suggestions, message_id)
       VALUES ($1, $2, 'agent', $3, $4, $5::jsonb, $6, $7::jsonb, $8) ON CONFLICT (room_id, client_id) WHERE client_id IS NOT NULL DO NOTHING RETURNING *`,
      [room.account_id, room.id, ctx.actor.userId, body, JSON.stringify(input.attachments ?? []), clientId, JSON.stringify(suggestions), messageId],
      { transaction },
    );
    if (!message) {
      const existing = await row<LiveMessage>(`SELECT * FROM live_messages WHERE room_id = $1 AND client_id = $2`, [room.id, clientId], { transaction });
      if (!existing) throw new AppError("NOT_FOUND");
      return existing;
    }
    await changeRoom(w, room, {
      set: {
        last_message: body.slice(0, 200) || null,
        last_message_type: input.attachments?.length ? input.attachments[0].type : "text",
        last_message_at: message.created_at,
        idle: false,
      },
      notify: { event: "send", to: [ctx.actor.userId], extra: { message: messageView(message) }, visitor: true },
    });
    // Channels other than the webchat are reached through the worker (pipeline step 2): the live outbound one, unless the pipeline took it.
    if (room.channel !== "webchat" && !messageId) {
      await exec(`INSERT INTO outbox (topic, payload) VALUES ('live:outbound', jsonb_build_object('message_id', $1::text))`, [message.id], { transaction });
    }
    return message;
  });
}

/** Closes the room (the attending agent or a supervisor); a required tabulation must be set. */
export async function closeRoom(ctx: SignedInCtx, roomId: string, input: { tabulationId?: string | null } = {}) {
  assertAttendant(ctx);
  return inRoomTransaction(async (w) => {
    const { transaction } = w;
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    assertMove(room, "close");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    let tabulationId = room.tabulation_id;
    if (input.tabulationId) tabulationId = await assertTabulation(room.account_id, input.tabulationId, transaction);
    const settings = await settingsRow(room.account_id, transaction);
    if (settings.tabulation_required && !tabulationId) throw new AppError("LIVE_TABULATION_REQUIRED");
    return changeRoom(w, room, {
      move: "close",
      set: { closed_at: new Date(), tabulation_id: tabulationId, close_reason: "closed", idle: false },
      log: { type: "closed", actor: ctx.actor.userId, payload: { tabulation_id: tabulationId } },
      notify: { event: "close", to: "*", visitor: true },
      distribute: true,
    });
  });
}

async function assertTabulation(accountId: string, tabulationId: string, transaction: Transaction): Promise<string> {
  assertId(tabulationId);
  const tab = await row<{ id: string }>(`SELECT id FROM live_tabulations WHERE id = $1 AND account_id = $2 AND active`, [tabulationId, accountId], { transaction });
  if (!tab) throw new AppError("VALIDATION", { fields: { tabulation_id: ["validation.option"] } });
  return tab.id;
}

/** Sets the room's tabulation (PUT webchat/tabs/{tabId}/room). */
export async function setTabulation(ctx: SignedInCtx, roomId: string, tabulationId: string) {
  assertAttendant(ctx);
  return inRoomTransaction(async (w) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, w.transaction);
    assertMine(ctx, room);
    const id = await assertTabulation(room.account_id, tabulationId, w.transaction);
    return changeRoom(w, room, {
      set: { tabulation_id: id },
      log: { type: "tabulation", actor: ctx.actor.userId, payload: { tabulation_id: id } },
      notify: { event: "room_updated", to: attendingAgent(room) },
    });
  });
}

/** Replaces the room's tags (PUT webchat/room-tags/{roomId}). */
export async function setRoomTags(ctx: SignedInCtx, roomId: string, tags: string[]) {
  assertAttendant(ctx);
  const clean = [...new Set(tags.map((t) => String(t).trim()).filter(Boolean))];
  if (clean.length > 20 || clean.some((t) => t.length > 40)) throw new AppError("VALIDATION", { fields: { tags: ["validation.invalid"] } });
  return inRoomTransaction(async (w) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, w.transaction);
    assertMine(ctx, room);
    return changeRoom(w, room, {
      set: { tags: clean },
      log: { type: "tags", actor: ctx.actor.userId, payload: { tags: clean } },
      notify: { event: "room_updated", to: attendingAgent(room) },
    });
  });
}

/**
 * The attending agent (or a supervisor) corrects the visitor's name, e-mail or phone on the room
 * (PUT webchat/contact/{id}). A room without a contact is linked to the account's contact with
 * that e-mail or mobile (created when there is none); a linked contact only gets its empty fields
 * filled, never overwritten (the contact's own screen edits it).
 */
export async function updateRoomContact(ctx: SignedInCtx, roomId: string, patch: RoomContactPatch) {
  assertAttendant(ctx);
  const set: RoomContactPatch = cleanRoomContact(patch);
  if (Object.keys(set).length === 0) throw new AppError("VALIDATION", { fields: { field: ["validation.required"] } });
  if ("username" in set && !set.username) set.username = "";
  return inRoomTransaction(async (w) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, w.transaction);
    assertMine(ctx, room);
    // The room as it will read once written: the contact is linked or filled from it.
    const next: Room = { ...room, ...set, username: set.username ?? room.username };
    let contactId: string | null = null;
    if (!next.contact_id) contactId = await contactFor({ accountId: next.account_id, username: next.username, email: next.email, phone: next.phone }, w.transaction);
    else await fillContact(next, w.transaction);
    return changeRoom(w, room, {
      set: contactId ? { ...set, contact_id: contactId } : set,
      log: { type: "contact", actor: ctx.actor.userId, payload: set },
      notify: { event: "room_updated", to: attendingAgent(room) },
    });
  });
}

/** The room's linked contact gets the name, e-mail and mobile it lacks (a mobile another contact holds is left out). */
async function fillContact(room: Room, transaction: Transaction) {
  const space = (room.username ?? "").indexOf(" ");
  await exec(
    `UPDATE contacts SET
       first_name = COALESCE(NULLIF(first_name, ''), $3),
       last_name = COALESCE(NULLIF(last_name, ''), $4),
       email = COALESCE(NULLIF(email, ''), $5),
       mobile_number = COALESCE(mobile_number, CASE WHEN NOT EXISTS (SELECT 1 FROM contacts o WHERE o.account_id = $2 AND o.mobile_number = $6) THEN $6 END),
       updated_at = now()
     WHERE id = $1 AND account_id = $2`,
    [
      room.contact_id,
      room.account_id,
      room.username ? (space > 0 ? room.username.slice(0, space) : room.username) : null,
      room.username && space > 0 ? room.username.slice(space + 1) : null,
      room.email,
      room.phone,
    ],
    { transaction },
  );
}

/** The agent gives the room back to the queue (`refuse` = an auto-assigned room the agent refuses: not offered to them again). */
export async function returnToQueue(ctx: SignedInCtx, roomId: string, opts: { refuse?: boolean } = {}) {
  assertAttendant(ctx);
  return inRoomTransaction(async (w) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, w.transaction);
    assertMine(ctx, room);
    assertMove(room, "requeue");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    return changeRoom(w, room, {
      move: "requeue",
      set: { agent_id: null, queued_at: new Date() },
      log: { type: opts.refuse ? "refused" : "returned", actor: room.agent_id },
      notify: { event: opts.refuse ? "room_refused" : "return_to_queue", to: "*", extra: { from: room.agent_id }, visitor: true },
      distribute: true,
    });
  });
}
