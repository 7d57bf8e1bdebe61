/**
 * Live chat attendance API (JWT; spec section 7 "Omni and chat" and "Live-chat API"). Thin: the
 * use-cases (./rooms) check permission, validate, lock and publish. The realtime commands call the
 * same functions.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { errorResponses, successResponse } from "../http/openapi";
import { AppError } from "../lib/errors";
import { decodeCursor, encodeCursor, onePage } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import * as R from "./attendance-responses";
import { applyMacro } from "./macros";
import { agentTyping } from "./typing";
import { sendSample } from "./samples";
import { accountTags, departmentsOn, deskOptions, liveSync } from "./desk";
import { searchTranscripts, transcript } from "./transcripts";
import { postVisitorMessage, visitorConversation, visitorMarkRead } from "./visitors";
import { visitorDeleteMessage, visitorEditMessage, widgetDepartments, widgetPublicConfig } from "./widget-public";
import { accountForWidgetKey } from "./visitors";
import { widgetCaller, widgetLimits } from "./widget-limits";
import { closeRoom, returnToQueue, sendAgentMessage, setAgentStatus, setRoomTags, setTabulation, takeRoom, updateRoomContact } from "./rooms/agent-actions";
import { ROOM_CONTACT_FIELDS } from "./rooms/contact";
import { getRoom, myLoad, roomMessages, roomPage, type RoomList } from "./rooms/queries";
import { markDelivered, markRead } from "./rooms/receipts";
import { resumeIdle, resumeOffline, solveOffline } from "./rooms/resume";
import { acceptTransfer, refuseTransfer, transferToAgent, transferToDepartment } from "./rooms/transfers";
import { AGENT_STATUSES, type AgentStatus } from "./rooms/types";
import { messageView, roomSummary } from "./rooms/views";
import { queuePosition } from "./rooms/visitor";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const LISTS: RoomList[] = ["queue", "me", "closed", "offline", "idle", "all"];

const roomOut = async (p: Promise<Parameters<typeof roomSummary>[0]>) => roomSummary(await p);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The message id a room thread's `cursor` carries (422 on cursor for anything else), or the deprecated `before` id. */
function threadBefore(query: { cursor?: string; before?: string }): string | null {
  if (query.cursor) {
    const [id] = decodeCursor(query.cursor, ["string"]) ?? [];
    if (typeof id !== "string" || !UUID.test(id)) throw new AppError("VALIDATION", { fields: { cursor: ["validation.invalid"] } });
    return id;
  }
  return query.before || null;
}

/** A thread page ({data, more}) in the list style: next_cursor names the oldest message shown. */
const threadPage = (p: Awaited<ReturnType<typeof roomMessages>>) => ({ data: p.data, next_cursor: p.more && p.data[0] ? encodeCursor([p.data[0].id]) : null, more: p.more });

/** An answer with a page of `messages` and `more`: next_cursor names the oldest message shown. */
const withThreadCursor = <T extends { messages: Array<{ id: string }>; more: boolean }>(p: T) => ({
  ...p,
  next_cursor: p.more && p.messages[0] ? encodeCursor([p.messages[0].id]) : null,
});

/** A room list's query: keyset (cursor, limit) and the deprecated page. */
const roomListQuery = {
  ...pageQuery,
  page: t.Optional(t.String({ deprecated: true, description: "Deprecated: OFFSET page (20 a page unless limit); the answer adds page, last_page and total. Use cursor" })),
};
const roomAnswer = { responses: successResponse(R.RoomPage) };
const room = (summary: string, ...errors: Parameters<typeof errorResponses>) => ({ summary, responses: { ...successResponse(R.Room), ...errorResponses(...errors) } });

export const liveRoutes = new Elysia({ tags: ["live"], detail: { security: bearer } })
  .use(authenticated)
  .get(
    "/omni/rooms",
    ({ ctx, query }) => {
      const list = (query.type ?? "me") as RoomList;
      if (!LISTS.includes(list)) throw new AppError("VALIDATION", { fields: { type: ["validation.option"] } });
      return roomPage(ctx, list, query);
    },
    {
      query: t.Object({ type: t.Optional(t.String({ description: "queue, me (default), closed, offline, idle or all" })), ...roomListQuery }),
      detail: {
        ...roomAnswer,
        summary:
          "Rooms of a list, by keyset (cursor, limit): queue (oldest first), me (my open rooms), closed, offline (contacts to resume or solve), idle, all; the others by last activity, newest first. Supervisors see every agent's",
      },
    },
  )
  .get("/omni/rooms/:id", async ({ ctx, params }) => ({ ...roomSummary(await getRoom(ctx, params.id)), position: await queuePosition(ctx.actor.accountId, params.id) }), {
    params: id,
    detail: { responses: successResponse(R.RoomWithPosition), summary: "One room (yours, queued, or any for a supervisor), with the visitor's place in line when queued" },
  })
  .get(
    "/omni/rooms/:id/messages",
    async ({ ctx, params, query }) => {
      await getRoom(ctx, params.id);
      return threadPage(await roomMessages(ctx.actor.accountId, params.id, { before: threadBefore(query), limit: query.limit }));
    },
    {
      params: id,
      query: t.Object({
        cursor: t.Optional(t.String({ description: "The `next_cursor` of the previous answer: the page of older messages" })),
        before: t.Optional(t.String({ deprecated: true, description: "Deprecated: a message id, the page before it (use cursor)" })),
        limit: t.Optional(t.String({ description: "Page size, 1 to 80 (default 80)" })),
      }),
      detail: {
        responses: successResponse(R.MessagePage),
        summary: "A page of the room's messages, newest page first (oldest first within the page); next_cursor pages to older ones",
      },
    },
  )
  .post(
    "/omni/messages",
    async ({ ctx, body }) =>
      messageView(
        await sendAgentMessage(ctx, body.room_id, {
          body: body.message ?? "",
          clientId: body.client_id ?? null,
          suggestions: body.suggestions ?? null,
          template: body.template ?? null,
        }),
      ),
    {
      body: t.Object({
        room_id: t.String(),
        message: t.Optional(t.String()),
        template: t.Optional(
          t.Object(
            {
              id: t.String({ description: "An approved template of the room's WhatsApp number" }),
              variables: t.Optional(t.Array(t.String(), { description: "Its body variables, {{1}} first" })),
            },
            { description: "WhatsApp rooms: a template, the only message allowed outside the contact's 24-hour window (priced by its category)" },
          ),
        ),
        client_id: t.Optional(t.String({ description: "your id for this message: a retry answers the stored one" })),
        suggestions: t.Optional(
          t.Array(t.String(), {
            description:
              "up to 11 quick-reply buttons of up to 25 characters under this message (widget buttons, Telegram reply keyboard, Messenger/Instagram quick replies, Business Messages suggested replies)",
          }),
        ),
      }),
      detail: {
        responses: { ...successResponse(R.Message, "Sent (an action: 200; a retry with the same client_id answers the stored message)"), ...errorResponses(402, 409, 422) },
        summary:
          "The attending agent's message to the visitor (webchat at once; other channels through the worker; WhatsApp as a priced WhatsApp message: free text and files inside the contact's 24-hour window, else a template, 422 naming it); 409 when the room is not open or is locked in a transfer",
      },
    },
  )
  .post("/omni/rooms/next", ({ ctx }) => roomOut(takeRoom(ctx, null)), {
    detail: room("Take the oldest queued room of my departments (`next`); 409 LIVE_ROOM_LIMIT at capacity, 404 LIVE_QUEUE_EMPTY", 404, 409),
  })
  .post("/omni/rooms/:id/take", ({ ctx, params }) => roomOut(takeRoom(ctx, params.id)), {
    params: id,
    detail: room("Take this queued room (manual acceptance); 409 LIVE_ROOM_LIMIT at capacity, 409 LIVE_ROOM_STATE when not queued", 409),
  })
  .post("/omni/rooms/:id/close", ({ ctx, params, body }) => roomOut(closeRoom(ctx, params.id, { tabulationId: body?.tabulation_id ?? null })), {
    params: id,
    body: t.Optional(t.Object({ tabulation_id: t.Optional(t.String()) })),
    detail: room("Close the room; 422 LIVE_TABULATION_REQUIRED when the account requires a tabulation and none is set; 409 when already closed or locked", 409),
  })
  .post(
    "/omni/rooms/:id/transfer",
    ({ ctx, params, body }) => {
      if (body.agent_id) return roomOut(transferToAgent(ctx, params.id, body.agent_id));
      if (body.department_id) return roomOut(transferToDepartment(ctx, params.id, body.department_id));
      throw new AppError("VALIDATION", { fields: { agent_id: ["validation.required"] } });
    },
    {
      params: id,
      body: t.Object({ agent_id: t.Optional(t.String()), department_id: t.Optional(t.String()) }),
      detail: room("Transfer to an agent (locked until accepted or refused) or to a department (back to its queue, locked until taken: transfer_finished)", 409),
    },
  )
  .post("/omni/rooms/:id/transfer/accept", ({ ctx, params }) => roomOut(acceptTransfer(ctx, params.id)), { params: id, detail: room("Accept a transfer offered to me", 409) })
  .post("/omni/rooms/:id/transfer/refuse", ({ ctx, params }) => roomOut(refuseTransfer(ctx, params.id)), {
    params: id,
    detail: room("Refuse a transfer offered to me: the room returns to the queue", 409),
  })
  .post("/omni/rooms/:id/return", ({ ctx, params }) => roomOut(returnToQueue(ctx, params.id)), { params: id, detail: room("Return the room to the queue", 409) })
  .post("/omni/rooms/:id/refuse", ({ ctx, params }) => roomOut(returnToQueue(ctx, params.id, { refuse: true })), {
    params: id,
    detail: room("Refuse a room given to me (room_refused): back to the queue, not offered to me again", 409),
  })
  .post("/omni/rooms/:id/macro", ({ ctx, params, body }) => applyMacro(ctx, params.id, body.macro_id), {
    params: id,
    body: t.Object({ macro_id: t.String() }),
    detail: {
      responses: { ...successResponse(R.MacroApplied), ...errorResponses(409) },
      summary: "Apply a macro to my room: its message, tags, tabulation and close, in that order (refused before any step when it cannot finish)",
    },
  })
  .post("/omni/rooms/:id/sample", async ({ ctx, params, body }) => messageView(await sendSample(ctx, params.id, body.sample_id)), {
    params: id,
    body: t.Object({ sample_id: t.String() }),
    detail: { responses: { ...successResponse(R.Message), ...errorResponses(409) }, summary: "Send one of my canned samples (for all, mine, or my departments') to my room" },
  })
  .post("/omni/rooms/:id/typing", ({ ctx, params }) => agentTyping(ctx, params.id), {
    params: id,
    detail: {
      responses: successResponse(R.Sent),
      summary:
        "The attending agent is typing: the visitor sees it (widget, Telegram, Messenger/Instagram, Business Messages); at most one per 2.5 s goes out (sent: false otherwise)",
    },
  })
  .post("/omni/rooms/:id/read", async ({ ctx, params }) => ({ changed: await markRead(ctx, params.id) }), {
    params: id,
    detail: { responses: successResponse(R.Changed), summary: "I read the room: visitor messages READ, unread 0" },
  })
  .post("/omni/rooms/:id/delivered", async ({ ctx, params, body }) => ({ changed: await markDelivered(ctx, params.id, body.ids) }), {
    params: id,
    body: t.Object({ ids: t.Array(t.String()) }),
    detail: { responses: successResponse(R.Changed), summary: "Visitor messages shown to me: DELIVERED (forward only)" },
  })
  .put("/webchat/room-tags/:id", ({ ctx, params, body }) => roomOut(setRoomTags(ctx, params.id, body.tags)), {
    params: id,
    body: t.Object({ tags: t.Array(t.String(), { description: "Up to 20 tags of up to 40 characters (repeats dropped)" }), originalTags: t.Optional(t.Array(t.String())) }),
    detail: room("Replace the room's tags"),
  })
  .put(
    "/webchat/contact/:id",
    ({ ctx, params, body }) => {
      if (!(ROOM_CONTACT_FIELDS as readonly string[]).includes(body.field)) throw new AppError("VALIDATION", { fields: { field: ["validation.option"] } });
      return roomOut(updateRoomContact(ctx, params.id, { [body.field]: body.value ?? null }));
    },
    {
      params: id,
      body: t.Object({
        field: t.String({ description: "username, email or phone" }),
        value: t.Union([t.String(), t.Null()], { description: "empty or null clears it; phone in any format (stored E.164)" }),
      }),
      detail: room("Correct the room's visitor name, e-mail or phone (the attending agent or a supervisor); links the room to the account's contact with that e-mail or mobile"),
    },
  )
  .put("/webchat/tabs/:tabId/room", ({ ctx, params, body }) => roomOut(setTabulation(ctx, body.roomId, params.tabId)), {
    params: t.Object({ tabId: t.String() }),
    body: t.Object({ roomId: t.String() }),
    detail: room("Set the room's tabulation"),
  })
  .put(
    "/webchat/status",
    ({ ctx, body }) => {
      if (!AGENT_STATUSES.includes(body.status as AgentStatus)) throw new AppError("VALIDATION", { fields: { status: ["validation.option"] } });
      return setAgentStatus(ctx, body.status as AgentStatus);
    },
    {
      body: t.Object({ status: t.String({ description: AGENT_STATUSES.join(", ") }) }),
      detail: { responses: successResponse(R.StatusOut), summary: "My agent status; AVAILABLE may bring queued rooms at once (automatic acceptance)" },
    },
  )
  .get("/webchat/load", ({ ctx }) => myLoad(ctx), { detail: { responses: successResponse(R.Load), summary: "My open rooms, capacity and status" } })
  .get("/webchat/idle", ({ ctx, query }) => roomPage(ctx, "idle", query), {
    query: t.Object({ ...roomListQuery, size: t.Optional(t.String({ deprecated: true, description: "Ignored (use limit)" })) }),
    detail: { ...roomAnswer, summary: "Idle contacts (open rooms whose visitor stopped answering), by keyset (cursor, limit), last activity first" },
  })
  .get("/webchat/offlines", ({ ctx, query }) => roomPage(ctx, "offline", query), {
    query: t.Object({ ...roomListQuery, size: t.Optional(t.String({ deprecated: true, description: "Ignored (use limit)" })) }),
    detail: { ...roomAnswer, summary: "Offline contacts not yet solved, by keyset (cursor, limit), last activity first" },
  })
  .post("/webchat/solve/:id", ({ ctx, params }) => roomOut(solveOffline(ctx, params.id)), { params: id, detail: room("Mark an offline contact solved", 409) })
  .post("/webchat/resume/now/:id", ({ ctx, params }) => roomOut(resumeOffline(ctx, params.id)), {
    params: id,
    detail: room("Resume an offline contact: the room opens with me", 409),
  })
  .get("/webchat/sync", ({ ctx }) => liveSync(ctx), {
    detail: { responses: successResponse(R.Sync), summary: "First connect step: my agent status, load and list counts, and the account's live settings" },
  })
  .get("/webchat/account-tags", async ({ ctx }) => onePage(await accountTags(ctx)), {
    detail: { responses: successResponse(R.TagPage), summary: "Tags used on the account's rooms, most used first (one page: at most 500)" },
  })
  .get("/omni/tags", async ({ ctx }) => onePage(await accountTags(ctx)), {
    detail: { responses: successResponse(R.TagPage), summary: "Tags used on the account's rooms, most used first (one page: at most 500)" },
  })
  .get("/webchat/agents", async ({ ctx }) => onePage((await deskOptions(ctx)).agents), {
    detail: { responses: successResponse(R.DeskAgentPage), summary: "The other agents of the account with their status, for transfers (one page: the account's agents)" },
  })
  .get("/webchat/departments/on", async ({ ctx }) => onePage(await departmentsOn(ctx)), {
    detail: { responses: successResponse(R.DepartmentOnPage), summary: "Departments with at least one available agent (one page: the account's departments)" },
  })
  .post("/webchat/disconnect", ({ ctx }) => setAgentStatus(ctx, "OFFLINE"), {
    detail: { responses: successResponse(R.StatusOut), summary: "The agent leaves: status OFFLINE (no new rooms are given to them)" },
  })
  .get("/webchat/transcripts", ({ ctx, query }) => searchTranscripts(ctx, query), {
    query: t.Object({
      search: t.Optional(t.String({ description: "Protocol (prefix), name, e-mail or phone digits" })),
      email: t.Optional(t.String()),
      phone: t.Optional(t.String()),
      agent: t.Optional(t.String({ description: "An agent's user id (owners and admins)" })),
      ...pageQuery,
      page: t.Optional(t.String({ deprecated: true, description: "Deprecated: OFFSET page (20 a page unless limit); the answer adds page, last_page and total. Use cursor" })),
      size: t.Optional(t.String({ deprecated: true, description: "Ignored (use limit)" })),
    }),
    detail: {
      responses: successResponse(R.TranscriptPage),
      summary: "Transcripts, newest first (created_at, id), by keyset (cursor, limit): by protocol, name, e-mail, phone or agent; non-admins see only their own",
    },
  })
  .get("/webchat/transcripts/:id/messages", async ({ ctx, params, query }) => withThreadCursor(await transcript(ctx, params.id, { before: threadBefore(query) })), {
    params: id,
    query: t.Object({
      cursor: t.Optional(t.String({ description: "The `next_cursor` of the previous answer: the 80 messages before those" })),
      before: t.Optional(t.String({ deprecated: true, description: "Deprecated: a message id, the 80 messages before it (use cursor)" })),
    }),
    detail: { responses: successResponse(R.Transcript), summary: "One transcript: the room, a page of its messages (80; next_cursor pages to older ones) and its events" },
  })
  .post("/webchat/resume/idle/:id", ({ ctx, params }) => roomOut(resumeIdle(ctx, params.id)), { params: id, detail: room("Resume an idle contact (clears the idle flag)", 409) });

/** The widget's public calls (no JWT): the widget key names the account, the visitor token the visitor. */
export const widgetRoutes = new Elysia({ prefix: "/widget", tags: ["widget"] })
  // The widget runs on the customers' own sites: any origin may call these (no cookies are used).
  .onRequest(({ request, set }) => {
    const path = new URL(request.url).pathname;
    if (!/^(\/api)?\/widget\//.test(path)) return;
    set.headers["Access-Control-Allow-Origin"] = "*";
    if (request.method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": "*",
          "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE",
          "Access-Control-Allow-Headers": "Content-Type, Accept-Language",
          "Access-Control-Max-Age": "86400",
        },
      });
    }
  })
  // After the CORS headers: a 429 reaches the widget's page readable.
  .use(widgetLimits)
  .get("/:key/config", ({ params }) => widgetPublicConfig(params.key), {
    params: t.Object({ key: t.String() }),
    detail: {
      responses: { ...successResponse(R.WidgetConfig), ...errorResponses(429) },
      summary:
        "The widget's public settings (titles online/offline, welcome text, position, colors, options), whether the account attends now (outside opening hours: the offline form), queue on, departments",
    },
  })
  .get("/:key/departments", async ({ params }) => onePage(await widgetDepartments(await accountForWidgetKey(params.key))), {
    params: t.Object({ key: t.String() }),
    detail: {
      responses: { ...successResponse(R.WidgetDepartmentPage), ...errorResponses(429) },
      summary: "The departments a visitor may choose (GET /webchat/departments of the spec), each with whether it attends now (one page: the account's active departments)",
    },
  })
  .put("/:key/messages/:id", ({ params, body }) => visitorEditMessage(params.key, body.visitor_id, body.visitor_token, params.id, { message: body.message }), {
    params: t.Object({ key: t.String(), id: t.String() }),
    body: t.Object({ visitor_id: t.String(), visitor_token: t.String(), message: t.String() }),
    detail: {
      responses: { ...successResponse(R.Message), ...errorResponses(401, 429) },
      summary: "The visitor edits one of their own messages (non-empty text); agents see `edited`. 404 for anyone else's message",
    },
  })
  .delete("/:key/messages/:id", ({ params, body }) => visitorDeleteMessage(params.key, body.visitor_id, body.visitor_token, params.id), {
    params: t.Object({ key: t.String(), id: t.String() }),
    body: t.Object({ visitor_id: t.String(), visitor_token: t.String() }),
    detail: {
      responses: { ...successResponse(R.Message), ...errorResponses(401, 429) },
      summary: "The visitor deletes one of their own messages: it shows as deleted; agents see `deleted`. 404 for anyone else's message",
    },
  })
  .post("/:key/messages", ({ params, body, request, server }) => postVisitorMessage(params.key, body, widgetCaller(request, server)), {
    params: t.Object({ key: t.String() }),
    body: t.Object({
      visitor_id: t.Optional(t.String()),
      visitor_token: t.Optional(t.String()),
      name: t.Optional(t.String()),
      email: t.Optional(t.String()),
      phone: t.Optional(t.String()),
      department_id: t.Optional(t.String()),
      message: t.String(),
      client_id: t.Optional(t.String()),
    }),
    detail: {
      responses: { ...successResponse(R.VisitorPosted, "Sent (an action: 200)"), ...errorResponses(401, 429) },
      summary: "A visitor's message: opens (queue, new protocol) or continues the visitor's conversation. The first answer carries visitor_id and visitor_token for the next calls",
    },
  })
  .get("/:key/conversation", async ({ params, query }) => withThreadCursor(await visitorConversation(params.key, query.visitor_id, query.visitor_token, threadBefore(query))), {
    params: t.Object({ key: t.String() }),
    query: t.Object({
      visitor_id: t.String(),
      visitor_token: t.String(),
      cursor: t.Optional(t.String({ description: "The `next_cursor` of the previous answer: the 30 messages before those" })),
      before: t.Optional(t.String({ deprecated: true, description: "Deprecated: a message id, the 30 messages before it (use cursor)" })),
    }),
    detail: {
      responses: { ...successResponse(R.VisitorConversation), ...errorResponses(401, 429) },
      summary: "The visitor's current (or last) conversation: room, last 30 messages, place in line",
    },
  })
  .post("/:key/read", ({ params, body }) => visitorMarkRead(params.key, body.visitor_id, body.visitor_token), {
    params: t.Object({ key: t.String() }),
    body: t.Object({ visitor_id: t.String(), visitor_token: t.String() }),
    detail: { responses: { ...successResponse(R.Changed), ...errorResponses(401, 429) }, summary: "The visitor read the agent's messages (READ)" },
  });
