/** The visitor's side of a room (the widget and the channel webhooks): their messages, and their place in the queue. */
import type { Transaction } from "sequelize";
import { AppError } from "../../lib/errors";
import { addMessageInput, flowForNewRoom, liveStreamOf, startStream, wakeStreams } from "../../flows/triggers";
import { settingsRow } from "../settings";
import type { LivePublish } from "../streams";
import { contactFor } from "./contact";
import { row } from "../../lib/sql";
import { inRoomTransaction } from "./transaction";
import { changeRoom, logRoomEvent, type RoomNotice } from "./transition";
import type { Attachment, LiveChannel, LiveMessage, Room } from "./types";
import { messageView } from "./views";

export type VisitorMessageInput = {
  accountId: string;
  channel: LiveChannel;
  /** The channel's id of the conversation (webchat visitor id, Telegram chat id, PSID…). */
  externalId: string;
  username?: string;
  email?: string | null;
  phone?: string | null;
  departmentId?: string | null;
  body: string;
  attachments?: Attachment[];
  /** The sender's own id for this message: a retry answers the stored message. */
  clientId?: string | null;
  /** The channel's id of this message (Telegram message id…): also deduplicates. */
  externalMessageId?: string | null;
  /** False outside opening hours: the message is kept as an offline contact. */
  open?: boolean;
};

/** The next protocol number of the account: YYYYMMDD (São Paulo day) + 6-digit sequence of that day. */
async function nextProtocol(accountId: string, transaction: Transaction): Promise<string> {
  const found = await row<{ protocol: string }>(
    `INSERT INTO live_protocols (account_id, day, seq) VALUES ($1, (now() AT TIME ZONE 'America/Sao_Paulo')::date, 1)
     ON CONFLICT (account_id, day) DO UPDATE SET seq = live_protocols.seq + 1
     RETURNING to_char(day, 'YYYYMMDD') || lpad(seq::text, 6, '0') AS protocol`,
    [accountId],
    { transaction },
  );
  if (!found) throw new AppError("NOT_FOUND");
  return found.protocol;
}

/** The visitor's room on that channel that is not closed, locked. */
function lockActiveRoom(input: VisitorMessageInput, transaction: Transaction) {
  return row<Room>(
    `SELECT * FROM live_rooms WHERE account_id = $1 AND channel = $2 AND external_id = $3 AND status <> 'CLOSED' FOR UPDATE`,
    [input.accountId, input.channel, input.externalId],
    { transaction },
  );
}

/**
 * A new room for the visitor: QUEUE in its department, an offline contact (CLOSED) outside hours,
 * or BOT when a flow attends it (`bot`; the bot answers outside hours too). Null when another
 * message opened it first.
 */
async function openRoom(input: VisitorMessageInput, transaction: Transaction, bot = false): Promise<Room | null> {
  const protocol = await nextProtocol(input.accountId, transaction);
  const contactId = await contactFor(input, transaction);
  const offline = !bot && input.open === false;
  // ON CONFLICT: two first messages of one visitor at once open one room.
  const inserted = await row<Room>(
    `INSERT INTO live_rooms (account_id, contact_id, channel, external_id, username, email, phone, protocol, status, department_id, queued_at, offline, closed_at, close_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $9 <> 'BOT' THEN now() END, $11, CASE WHEN $11 THEN now() END, CASE WHEN $11 THEN 'offline' END)
     ON CONFLICT (account_id, channel, external_id) WHERE status <> 'CLOSED' DO NOTHING RETURNING *`,
    [
      input.accountId,
      contactId,
      input.channel,
      input.externalId,
      (input.username ?? "").slice(0, 120),
      input.email ?? null,
      input.phone ?? null,
      protocol,
      offline ? "CLOSED" : bot ? "BOT" : "QUEUE",
      input.departmentId ?? null,
      offline,
    ],
    { transaction },
  );
  if (inserted) await logRoomEvent(transaction, inserted, { type: offline ? "offline" : bot ? "bot" : "queued", actor: null, payload: { protocol } });
  return inserted;
}

/**
 * A visitor's message: continues the visitor's open room on that channel, or opens a new one (in
 * the queue of its department, with a new protocol number). Idempotent on clientId /
 * externalMessageId. Outside opening hours, or when the queue is off and nobody can take it now,
 * the room is an offline contact.
 *
 * Flows (ADR 054): a new room that an active flow of the channel answers (its keyword, else any
 * inbound message) opens as BOT with a new stream; a message to a BOT room is an input of its
 * stream. Neither is distributed. After COMMIT the stream is woken on `flows:events`.
 */
export async function visitorMessage(input: VisitorMessageInput): Promise<{ room: Room; message: LiveMessage; created: boolean; duplicate: boolean }> {
  const body = input.body.trim();
  if (!body && !input.attachments?.length) throw new AppError("VALIDATION", { fields: { body: ["validation.required"] } });
  if (body.length > 4096) throw new AppError("VALIDATION", { fields: { body: ["validation.maxLength::4096"] } });
  let wake: string | null = null;
  const result = await inRoomTransaction(async (w) => {
    const { transaction } = w;
    const settings = await settingsRow(input.accountId, transaction);
    let room = await lockActiveRoom(input, transaction);
    let created = false;
    if (!room) {
      const flow = await flowForNewRoom(input.accountId, input.channel, body, input.phone ?? null, transaction);
      room = await openRoom(input, transaction, flow !== null);
      created = room !== null;
      if (room && flow) wake = await startStream(transaction, room, flow);
      room ??= await lockActiveRoom(input, transaction);
      if (!room) throw new AppError("LIVE_ROOM_STATE");
    }
    const clientId = input.clientId ?? (input.externalMessageId ? `ext:${input.externalMessageId}` : null);
    const inserted = await row<LiveMessage>(
      `INSERT INTO live_messages (account_id, room_id, author, body, attachments, client_id, external_id)
       VALUES ($1, $2, 'visitor', $3, $4::jsonb, $5, $6) ON CONFLICT (room_id, client_id) WHERE client_id IS NOT NULL DO NOTHING RETURNING *`,
      [input.accountId, room.id, body, JSON.stringify(input.attachments ?? []), clientId, input.externalMessageId ?? null],
      { transaction },
    );
    if (!inserted) {
      const existing = await row<LiveMessage>(`SELECT * FROM live_messages WHERE room_id = $1 AND client_id = $2`, [room.id, clientId], { transaction });
      if (!existing) throw new AppError("NOT_FOUND");
      return { room, message: existing, created: false, duplicate: true };
    }
    if (room.status === "BOT" && !created) {
      const stream = await liveStreamOf(room.account_id, room.id, transaction);
      if (stream) {
        await addMessageInput(transaction, room.account_id, stream.id, body, inserted.id);
        wake = stream.id;
      }
    }
    const to: LivePublish["to"] = room.status === "OPEN" && room.agent_id ? [room.agent_id] : "*";
    const notices: RoomNotice[] = created && room.status === "QUEUE" ? [{ event: "queued", to: "*" }] : [];
    notices.push({ event: "send", to, extra: { message: messageView(inserted) }, visitor: true });
    room = await changeRoom(w, room, {
      set: {
        last_message: body.slice(0, 200) || null,
        last_message_type: input.attachments?.length ? input.attachments[0].type : "text",
        last_message_at: inserted.created_at,
        unread_count: room.unread_count + 1,
        idle: false,
      },
      notify: notices,
      distribute: room.status === "QUEUE" && settings.acceptance_option === "automatic",
    });
    return { room, message: inserted, created, duplicate: false };
  });
  if (wake) await wakeStreams([wake]);
  return result;
}

/** The visitor's place in its department's queue (1 = next), or null when not waiting. */
export async function queuePosition(accountId: string, roomId: string): Promise<number | null> {
  const found = await row<{ position: number | null }>(
    `SELECT CASE WHEN r.status = 'QUEUE' THEN (
        SELECT count(*)::int FROM live_rooms q WHERE q.account_id = r.account_id AND q.status = 'QUEUE'
          AND q.department_id IS NOT DISTINCT FROM r.department_id AND (q.queued_at, q.id) <= (r.queued_at, r.id)) END AS position
     FROM live_rooms r WHERE r.id = $1 AND r.account_id = $2`,
    [roomId, accountId],
  );
  return found?.position ?? null;
}
