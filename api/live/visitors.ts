/**
 * Webchat visitors (the widget and the hosted /webchat page): no account, no password. A visitor is
 * identified by a random visitor id the server hands out with its first message, and proves it on
 * every later call with a visitor token = HMAC(SESSION_SECRET, "visitor:" account id ":" visitor
 * id), so nobody can read or write another visitor's conversation by guessing an id. The widget
 * key (live_settings.widget_key) names the account; it is public (it sits in the page's script tag).
 */
import { hmac, randomToken, safeEqual } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { isOpen } from "./hours";
import { streamMark } from "./streams";
import { issueVisitorToken } from "./visitor-tokens";
import { cleanRoomContact } from "./rooms/contact";
import { roomMessages } from "./rooms/queries";
import { visitorRead } from "./rooms/receipts";
import type { Attachment, Room } from "./rooms/types";
import { visitorView } from "./rooms/views";
import { queuePosition, visitorMessage } from "./rooms/visitor";
import { widgetConfigByKey } from "./settings";
import { limitConversationStart } from "./widget-limits";
import { row, rows } from "../lib/sql";

export const visitorToken = (accountId: string, visitorId: string) => hmac(`visitor:${accountId}:${visitorId}`);

/** The account a widget key belongs to (404 for an unknown key). */
export async function accountForWidgetKey(key: string): Promise<string> {
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(key)) throw new AppError("NOT_FOUND");
  const found = await widgetConfigByKey(key);
  if (!found) throw new AppError("NOT_FOUND");
  return found.accountId;
}

export type Visitor = { accountId: string; visitorId: string };

/** Checks a returning visitor's id and token. */
export function assertVisitor(accountId: string, visitorId: unknown, token: unknown): Visitor {
  if (typeof visitorId !== "string" || !/^v_[A-Za-z0-9_-]{16,40}$/.test(visitorId) || typeof token !== "string" || !safeEqual(token, visitorToken(accountId, visitorId))) {
    throw new AppError("UNAUTHENTICATED");
  }
  return { accountId, visitorId };
}

export type VisitorPost = {
  visitor_id?: string;
  visitor_token?: string;
  name?: string;
  email?: string;
  phone?: string;
  department_id?: string;
  message: string;
  client_id?: string;
};

/** Who calls the widget's public API: the client's IP (api/live/widget-limits.ts). */
export type WidgetCaller = { ip: string | null };

/** A visitor's message through the widget: a new visitor gets an id and its token back. */
export async function postVisitorMessage(widgetKey: string, input: VisitorPost, caller: WidgetCaller) {
  return webchatMessage(await admitVisitorPost(await accountForWidgetKey(widgetKey), input, caller));
}

/** A widget visitor's post that passed admitVisitorPost (the only way to make one). */
export type AdmittedPost = Omit<VisitorPost, "name" | "email" | "phone"> & {
  accountId: string;
  visitor: Visitor;
  name: string | null;
  email: string | null;
  phone: string | null;
  readonly __admitted: true;
};

/**
 * Everything checked before a widget visitor's text or file is stored: the name, e-mail and phone
 * by the rooms' contact rule (cleanRoomContact: plain-text name up to 120, the sign-up's e-mail
 * rule, E.164 phone; a 422 names each bad field as the widget posts it), the department, a
 * returning visitor's token, and for a new conversation the client IP's hourly allowance.
 */
export async function admitVisitorPost(accountId: string, input: VisitorPost, caller: WidgetCaller): Promise<AdmittedPost> {
  const contact = cleanRoomContact({ username: input.name, email: input.email, phone: input.phone }, { username: "name" });
  if (input.department_id) {
    const [dept] = /^[0-9a-f-]{36}$/i.test(input.department_id)
      ? await rows(`SELECT 1 FROM departments WHERE id = $1 AND account_id = $2 AND status = 'active'`, [input.department_id, accountId])
      : [];
    if (!dept) throw new AppError("VALIDATION", { fields: { department_id: ["validation.option"] } });
  }
  let visitor: Visitor;
  if (input.visitor_id) visitor = assertVisitor(accountId, input.visitor_id, input.visitor_token);
  else {
    await limitConversationStart(caller.ip);
    visitor = { accountId, visitorId: `v_${randomToken(16)}` };
  }
  return { ...input, accountId, visitor, name: contact.username ?? null, email: contact.email ?? null, phone: contact.phone ?? null } as AdmittedPost;
}

/**
 * A widget visitor's text and/or files: the first one (no visitor id yet) starts the conversation
 * — a new visitor id and token, the department chosen, queued or, outside opening hours, an offline
 * contact — whether it is a text or a file; later ones continue it.
 */
export async function webchatMessage(input: AdmittedPost, attachments: Attachment[] = []) {
  const { accountId, visitor } = input;
  // Outside opening hours (or on a holiday) the message is kept as an offline contact.
  const open = await isOpen(accountId, new Date(), input.department_id ?? null);
  const resumeFrom = await streamMark();
  const result = await visitorMessage({
    accountId,
    channel: "webchat",
    externalId: visitor.visitorId,
    username: input.name ?? undefined,
    email: input.email,
    phone: input.phone,
    departmentId: input.department_id ?? null,
    body: input.message ?? "",
    attachments,
    clientId: input.client_id ? String(input.client_id).slice(0, 100) : null,
    open,
  });
  return {
    visitor_id: visitor.visitorId,
    visitor_token: visitorToken(accountId, visitor.visitorId),
    room: visitorView(result.room),
    message: result.message,
    position: await queuePosition(accountId, result.room.id),
    duplicate: result.duplicate,
    /** For the realtime connection (/realtime/ws?visitor=…&last=room:<resume_from>): this room's events from before this message. */
    realtime_token: await issueVisitorToken(accountId, result.room.id),
    resume_from: resumeFrom,
  };
}

/** The visitor's current (or last) room and its messages. */
export async function visitorConversation(widgetKey: string, visitorId: string, token: string, before?: string | null) {
  const accountId = await accountForWidgetKey(widgetKey);
  assertVisitor(accountId, visitorId, token);
  // Read before the room: a socket opened from here misses nothing written while this reply is built.
  const resumeFrom = await streamMark();
  const room = await row<Room>(
    `SELECT * FROM live_rooms WHERE account_id = $1 AND channel = 'webchat' AND external_id = $2 ORDER BY (status <> 'CLOSED') DESC, created_at DESC LIMIT 1`,
    [accountId, visitorId],
  );
  if (!room) return { room: null, messages: [], more: false, position: null, participants: [], realtime_token: null, resume_from: null };
  const page = await roomMessages(accountId, room.id, { before: before ?? null, limit: 30 });
  return {
    room: visitorView(room),
    messages: page.data,
    more: page.more,
    position: await queuePosition(accountId, room.id),
    participants: await roomParticipants(accountId, room.id),
    realtime_token: room.status === "CLOSED" ? null : await issueVisitorToken(accountId, room.id),
    resume_from: resumeFrom,
  };
}

/** The visitor read the agent's messages. */
export async function visitorMarkRead(widgetKey: string, visitorId: string, token: string) {
  const accountId = await accountForWidgetKey(widgetKey);
  assertVisitor(accountId, visitorId, token);
  const room = await row<{ id: string }>(`SELECT id FROM live_rooms WHERE account_id = $1 AND channel = 'webchat' AND external_id = $2 AND status <> 'CLOSED'`, [
    accountId,
    visitorId,
  ]);
  return { changed: room ? await visitorRead(accountId, room.id) : 0 };
}

/**
 * The people of a room the visitor sees in the widget's user list and on the agents' messages: the
 * agents who attend or wrote, by first name (last name when it is blank; never anything of the e-mail).
 */
export async function roomParticipants(accountId: string, roomId: string): Promise<Array<{ id: string; name: string }>> {
  return rows<{ id: string; name: string }>(
    `SELECT u.id, COALESCE(NULLIF(trim(u.first_name), ''), trim(u.last_name)) AS name FROM users u
      WHERE u.id IN (SELECT agent_id FROM live_rooms WHERE id = $1 AND account_id = $2 AND agent_id IS NOT NULL
                     UNION SELECT user_id FROM live_messages WHERE room_id = $1 AND account_id = $2 AND author = 'agent' AND user_id IS NOT NULL)
      ORDER BY u.first_name, u.id`,
    [roomId, accountId],
  );
}
