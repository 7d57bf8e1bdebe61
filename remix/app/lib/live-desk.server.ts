/**
 * Server side of /live (the agent workspace): what the loader reads and how the action turns each
 * form intent into its room use-case. Kept out of the route module so none of it (database,
 * schemas) reaches the browser bundle.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { deskOptions, incomingTransfers, roomNames } from "~api/live/desk";
import { isSupervisor } from "~api/policy/policy";
import {
  acceptTransfer,
  AGENT_STATUSES,
  closeRoom,
  getRoom,
  listRooms,
  markDelivered,
  markRead,
  myLoad,
  queuePosition,
  refuseTransfer,
  resumeIdle,
  resumeOffline,
  returnToQueue,
  roomCounts,
  roomMessages,
  roomSummary,
  sendAgentMessage,
  setAgentStatus,
  setRoomTags,
  updateRoomContact,
  setTabulation,
  solveOffline,
  takeRoom,
  transferToAgent,
  transferToDepartment,
  type AgentStatus,
} from "~api/live/rooms";
import { agentUpload } from "~api/live/attachments";
import { applyMacro } from "~api/live/macros";
import { sendSample } from "~api/live/samples";
import { isAppError } from "~api/lib/errors";
import { z } from "~api/lib/zod";
import { orHttpError, requireRoute } from "./auth.server";
import { linkedDealsPanel } from "./pipeline-links.server";
import { handleForm, type FormReply } from "./forms.server";
import { deskHref, parseTab } from "./live-state";
import { redirectWithToast } from "./toast.server";
import { redisMs } from "~api/live/streams";
import { whatsappRoomComposer } from "~api/whatsapp/live";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function deskLoader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const tab = parseTab(url.searchParams.get("tab"));
  const page = url.searchParams.get("page");
  const roomParam = url.searchParams.get("room");
  const before = url.searchParams.get("before");
  // Read before the database: live events from here on may be missing below (the page replays them).
  const mark = await redisMs();
  const [list, counts, options, incoming, load] = await Promise.all([
    orHttpError(listRooms(ctx, tab, page)),
    orHttpError(roomCounts(ctx)),
    orHttpError(deskOptions(ctx)),
    orHttpError(incomingTransfers(ctx)),
    orHttpError(myLoad(ctx)),
  ]);
  let room: ReturnType<typeof roomSummary> | null = null;
  let roomError: string | null = null;
  let thread: { data: ReturnType<typeof roomMessages> extends Promise<infer P> ? (P extends { data: infer D } ? D : never) : never; more: boolean } = { data: [], more: false };
  let names = null;
  // The room's deals on workflow boards and "create deal" (issue 22); null: boards not available to this person.
  let deals: Awaited<ReturnType<typeof linkedDealsPanel>> = null;
  let position: number | null = null;
  // A WhatsApp room's composer: the contact's 24-hour window and the approved templates it may send (null: unreadable, e.g. the number was disconnected).
  let composer: Awaited<ReturnType<typeof whatsappRoomComposer>>["data"] | null = null;
  if (roomParam && UUID.test(roomParam)) {
    try {
      const r = await getRoom(ctx, roomParam);
      room = roomSummary(r);
      const validBefore = before && UUID.test(before) ? before : null;
      [thread, names, position, deals] = await Promise.all([
        roomMessages(ctx.actor.accountId, r.id, validBefore ? { before: validBefore } : { limit: 30 }),
        roomNames(ctx, r),
        queuePosition(ctx.actor.accountId, r.id),
        linkedDealsPanel(ctx, { roomId: r.id }),
      ]);
      if (r.channel === "whatsapp")
        composer = await whatsappRoomComposer(ctx, r.id).then(
          (c) => c.data,
          (e) => {
            if (!isAppError(e)) throw e;
            return null;
          },
        );
    } catch (e) {
      if (!isAppError(e)) throw e;
      roomError = `errors.${e.code}`;
    }
  } else if (roomParam) roomError = "errors.NOT_FOUND";
  // Authors' names for the thread (agents of this account).
  const authors = Object.fromEntries([...options.agents.map((a) => [a.id, a.name || a.email]), [ctx.actor.userId, ""]]);
  return json({
    mark,
    me: ctx.actor.userId,
    supervisor: isSupervisor(ctx.actor),
    tab,
    list,
    counts,
    incoming,
    load,
    options,
    room,
    roomError,
    names,
    deals,
    position,
    composer,
    thread,
    before: before && UUID.test(before) ? before : null,
    authors,
  });
}

const roomId = z.object({ room_id: z.uuid("validation.required") });
const schemas = {
  take: roomId,
  send: roomId.extend({
    body: z.string().trim().min(1, "validation.required").max(4096, "validation.maxLength::4096"),
    client_id: z.string().max(100).optional(),
    // The composer's suggestion buttons: one per line (plain form), or one field each (the screen's command without a socket).
    suggestions: z.union([z.string().max(2000, "validation.maxLength::2000"), z.array(z.string().max(200, "validation.maxLength::200")).max(50)]).optional(),
  }),
  // An approved template of a WhatsApp room's number with its body variables (outside the contact's window).
  template: roomId.extend({
    template_id: z.string("validation.required").min(1, "validation.required").max(64),
    client_id: z.string().max(100).optional(),
    variables: z.union([z.string().max(1000, "validation.maxLength::1000"), z.array(z.string().max(1000, "validation.maxLength::1000")).max(100)]).optional(),
  }),
  close: roomId.extend({ tabulation_id: z.union([z.uuid(), z.literal("")]).optional() }),
  transfer_agent: roomId.extend({ agent_id: z.uuid("validation.required") }),
  transfer_department: roomId.extend({ department_id: z.uuid("validation.required") }),
  accept: roomId,
  refuse: roomId,
  return: roomId,
  resume_offline: roomId,
  solve: roomId,
  resume_idle: roomId,
  tags: roomId.extend({ tags: z.string().max(1000).optional() }),
  contact: roomId.extend({ username: z.string().max(500).optional(), email: z.string().max(500).optional(), phone: z.string().max(100).optional() }),
  tabulation: roomId.extend({ tabulation_id: z.uuid("validation.required") }),
  delivered: roomId.extend({ ids: z.union([z.array(z.uuid()), z.uuid()]) }),
  read: roomId,
  macro: roomId.extend({ macro_id: z.uuid("validation.required") }),
  sample: roomId.extend({ sample_id: z.uuid("validation.required") }),
  upload: roomId.extend({ body: z.string().max(4096, "validation.maxLength::4096").optional() }),
  status: z.object({ status: z.enum(AGENT_STATUSES) }),
} as const;
type Intent = keyof typeof schemas;

export async function deskAction({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const form = await request.clone().formData();
  const intent = String(form.get("intent") ?? "") as Intent;
  const js = form.get("via") === "js";
  const tab = parseTab(url.searchParams.get("tab"));
  const here = url.searchParams.get("room");
  if (!(intent in schemas)) return json({ result: { status: "error", error: { "": ["validation.invalid"] } }, intent } as FormReply & { intent: string }, { status: 400 });

  // biome-ignore lint/suspicious/noExplicitAny: one handler for every intent's schema; each branch reads its own fields
  const reply = await handleForm(request, schemas[intent] as unknown as z.ZodType<Record<string, any>>, async (value, formData) => {
    const id = value.room_id as string;
    let to = deskHref({ tab, room: here });
    let data: unknown = null;
    switch (intent) {
      case "take":
        await takeRoom(ctx, id);
        to = deskHref({ tab: "me", room: id });
        break;
      // Browsers submit a textarea's line breaks as CRLF.
      case "send":
        data = await sendAgentMessage(ctx, id, {
          body: String(value.body).replace(/\r\n?/g, "\n"),
          clientId: value.client_id ?? null,
          suggestions: Array.isArray(value.suggestions) ? value.suggestions : String(value.suggestions ?? "").split(/\r?\n/),
        });
        to = deskHref({ tab, room: id });
        break;
      case "template":
        data = await sendAgentMessage(ctx, id, {
          body: "",
          clientId: value.client_id ?? null,
          template: { id: String(value.template_id), variables: value.variables === undefined ? [] : ([] as string[]).concat(value.variables) },
        });
        to = deskHref({ tab, room: id });
        break;
      case "close":
        await closeRoom(ctx, id, { tabulationId: value.tabulation_id || null });
        to = deskHref({ tab: "closed", room: id });
        break;
      case "transfer_agent":
        await transferToAgent(ctx, id, value.agent_id);
        to = deskHref({ tab, room: id });
        break;
      case "transfer_department":
        await transferToDepartment(ctx, id, value.department_id);
        to = deskHref({ tab: "me" });
        break;
      case "accept":
        await acceptTransfer(ctx, id);
        to = deskHref({ tab: "me", room: id });
        break;
      case "refuse":
        await refuseTransfer(ctx, id);
        to = deskHref({ tab: "me" });
        break;
      case "return":
        await returnToQueue(ctx, id);
        to = deskHref({ tab: "me" });
        break;
      case "resume_offline":
        await resumeOffline(ctx, id);
        to = deskHref({ tab: "me", room: id });
        break;
      case "solve":
        await solveOffline(ctx, id);
        to = deskHref({ tab: "offline" });
        break;
      case "resume_idle":
        await resumeIdle(ctx, id);
        to = deskHref({ tab: "me", room: id });
        break;
      case "tags":
        await setRoomTags(ctx, id, String(value.tags ?? "").split(","));
        break;
      case "contact":
        await updateRoomContact(ctx, id, { username: value.username ?? "", email: value.email ?? "", phone: value.phone ?? "" });
        break;
      case "tabulation":
        await setTabulation(ctx, id, value.tabulation_id);
        break;
      case "delivered":
        data = { changed: await markDelivered(ctx, id, ([] as string[]).concat(value.ids)) };
        break;
      case "read":
        data = { changed: await markRead(ctx, id) };
        break;
      case "macro":
        data = await applyMacro(ctx, id, value.macro_id);
        to = deskHref({ tab, room: id });
        break;
      case "sample":
        data = await sendSample(ctx, id, value.sample_id);
        to = deskHref({ tab, room: id });
        break;
      case "upload": {
        // The same use-case as POST /api/webchat/upload (types by content, the channel's byte limit).
        const file = formData.get("file");
        const upload = new FormData();
        upload.set("id_room", id);
        upload.set("message", String(value.body ?? ""));
        if (file instanceof File && file.size > 0) upload.set("file", file);
        data = await agentUpload(ctx, new Request(request.url, { method: "POST", body: upload }));
        to = deskHref({ tab, room: id });
        break;
      }
      case "status":
        data = await setAgentStatus(ctx, value.status as AgentStatus);
        break;
    }
    if (js) return json({ ok: true, data });
    return redirectWithToast(request, to, { type: "success", title: `liveDesk:toast.${intent}` });
  });
  if (reply instanceof Response && reply.status >= 400) {
    const body = (await reply
      .clone()
      .json()
      .catch(() => null)) as FormReply | null;
    if (body) return json({ ...body, intent }, { status: reply.status });
  }
  return reply;
}
