/**
 * The success answers of the live chat attendance, reports and widget routes (./routes,
 * ./report-routes), as TypeBox schemas for the OpenAPI document (api/http/openapi.ts
 * successResponse). They describe what ./rooms (roomSummary, messageView), ./desk, ./transcripts,
 * ./visitors, ./widget-public, ./reports and ./report-exports return; in tests every answer is
 * checked against them (api/http/response-check.ts).
 */
import { Type } from "@sinclair/typebox";
import { t, type TSchema } from "elysia";
import { Page } from "../lib/page-schema";
import { AGENT_STATUSES, LIVE_CHANNELS } from "./rooms/types";

/** A plain JSON integer (Elysia's t.Integer also accepts numeric strings, which the document would show). */
const int = Type.Integer;
const nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()]);
const uuid = (description?: string) => t.String({ format: "uuid", ...(description ? { description } : {}) });
const when = (description?: string) => t.String({ format: "date-time", ...(description ? { description } : {}) });
const oneOf = (values: readonly string[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );

const Channel = oneOf(LIVE_CHANNELS, "The channel the visitor writes from");
const RoomStatus = oneOf(
  ["QUEUE", "OPEN", "CLOSED", "BOT"],
  "QUEUE: waiting for an agent; OPEN: an agent attends; CLOSED; BOT: a flow attends it (no agent may take it until the flow hands it off)",
);
const AgentStatus = oneOf(AGENT_STATUSES);

/** A room as lists and events carry it (./rooms roomSummary). */
export const Room = t.Object({
  id: uuid(),
  channel: Channel,
  username: t.String({ description: "The visitor's name (empty when not given)" }),
  email: nullable(t.String()),
  phone: nullable(t.String({ description: "E.164" })),
  protocol: t.String({ description: "YYYYMMDD (São Paulo day) + 6-digit sequence of that day" }),
  status: RoomStatus,
  department_id: nullable(uuid()),
  agent_id: nullable(uuid("The attending agent (user id)")),
  tabulation_id: nullable(uuid()),
  tags: t.Array(t.String()),
  locked: t.Boolean({ description: "In a transfer: nobody writes until it is accepted, refused or taken" }),
  transfer_type: nullable(oneOf(["agent", "department"])),
  transfer_to_user_id: nullable(uuid()),
  transfer_to_department_id: nullable(uuid()),
  transfer_by: nullable(uuid()),
  transfer_at: nullable(when()),
  offline: t.Boolean({ description: "An offline contact (the visitor wrote when nobody could attend)" }),
  idle: t.Boolean({ description: "The visitor has not answered the agent for the account's idle minutes" }),
  solved: t.Boolean({ description: "An offline contact marked solved" }),
  queued_at: nullable(when()),
  assigned_at: nullable(when()),
  closed_at: nullable(when()),
  created_at: when(),
  last_message: nullable(t.String({ description: "The first 200 characters of the last message" })),
  last_message_type: nullable(t.String({ description: "text, image, audio, video, document or sticker" })),
  last_message_at: nullable(when()),
  unread_count: int({ description: "Visitor messages the agent has not read" }),
  contact_id: nullable(uuid("The account's contact the room is linked to (by e-mail or mobile)")),
});

/** A room with the visitor's place in its department's queue (GET /omni/rooms/{id}). */
export const RoomWithPosition = t.Composite([Room, t.Object({ position: nullable(int({ description: "1 = next; null when not queued" })) })]);

const Attachment = t.Object({
  type: oneOf(["image", "audio", "video", "document", "sticker"]),
  uri: t.String(),
  media_type: t.String(),
  name: t.String(),
  size: int({ description: "Bytes" }),
});

/** A message of a room (./rooms messageView). */
export const Message = t.Object({
  id: uuid(),
  room_id: uuid(),
  author: oneOf(["visitor", "agent", "bot", "system"]),
  user_id: nullable(uuid("The agent who wrote it")),
  body: t.String({ description: "Empty for a deleted message" }),
  attachments: t.Array(Attachment),
  status: oneOf(["SENT", "DELIVERED", "READ", "FAIL", "DELETED"], "Moves forward only: SENT -> DELIVERED -> READ"),
  edited: t.Boolean(),
  client_id: nullable(t.String({ description: "The sender's own id for it (a retry answers the stored message)" })),
  created_at: when(),
  delivered_at: nullable(when()),
  read_at: nullable(when()),
  error: nullable(t.String({ description: "Why the channel refused it (status FAIL)" })),
  suggestions: t.Array(t.String(), { description: "Quick-reply buttons under the message (0 to 11)" }),
});

const legacyPage = {
  page: t.Optional(int({ description: "Deprecated (with ?page=): the page number" })),
  last_page: t.Optional(int({ description: "Deprecated (with ?page=): the last page number" })),
  total: t.Optional(int({ description: "Deprecated (with ?page=): rows of the list" })),
};

/** A page of a room list (keyset; the deprecated ?page= adds page, last_page and total). */
export const RoomPage = t.Composite([Page(Room), t.Object(legacyPage)]);

export const MessagePage = t.Object({
  data: t.Array(Message, { description: "Oldest first within the page" }),
  next_cursor: nullable(t.String({ description: "Send it back as `cursor` for the page of older messages; null when there are none" })),
  more: t.Boolean({ description: "Deprecated: next_cursor is not null" }),
});

export const Changed = t.Object({ changed: int({ description: "How many messages changed status" }) });
export const Sent = t.Object({ sent: t.Boolean({ description: "false when a typing signal already went out in the last 2.5 s" }) });
export const StatusOut = t.Object({ status: AgentStatus });
export const MacroApplied = t.Object({ macro: uuid(), room: uuid(), closed: t.Boolean({ description: "The macro closed the room" }) });

export const Load = t.Object({
  capacity: int({ description: "How many rooms I may attend at once" }),
  open: int({ description: "My open rooms" }),
  status: AgentStatus,
});

const Counts = t.Object({
  queue: int(),
  me: int(),
  closed: int(),
  offline: int(),
  idle: int(),
  unread: int({ description: "Unread visitor messages of my open rooms" }),
});
const LiveSettings = t.Object({
  acceptance_option: oneOf(["automatic", "manual"]),
  tabulation_required: t.Boolean(),
  queued_enabled: t.Boolean(),
});

export const Sync = t.Object({
  user_id: uuid(),
  account_id: uuid(),
  supervisor: t.Boolean({ description: "Owner, admin or manager: sees every agent's rooms" }),
  status: AgentStatus,
  status_at: nullable(when("When I last chose my status; null: never (the first connect makes me AVAILABLE)")),
  load: Load,
  counts: Counts,
  settings: LiveSettings,
});

export const TagPage = Page(t.Object({ tag: t.String(), rooms: int({ description: "Rooms with this tag" }) }), "At most 500 tags, most used first");
export const DeskAgentPage = Page(t.Object({ id: uuid(), name: t.String(), email: t.String(), status: AgentStatus }), "Every agent of the account but me");
export const DepartmentOnPage = Page(t.Object({ id: uuid(), name: t.String(), available: int({ description: "Available agents serving it" }) }), "The account's departments");

const TranscriptRow = t.Composite([Room, t.Object({ agent_name: nullable(t.String()) })]);
export const TranscriptPage = t.Composite([
  Page(TranscriptRow),
  t.Object({ ...legacyPage, all: t.Boolean({ description: "The caller sees every conversation of the account (owner, admin); else only theirs" }) }),
]);

export const Transcript = t.Object({
  room: t.Composite([
    Room,
    t.Object({ agent_name: nullable(t.String()), department_name: nullable(t.String()), tabulation_name: nullable(t.String()), close_reason: nullable(t.String()) }),
  ]),
  messages: t.Array(Message, { description: "80 a page, oldest first; older ones with ?before=<the first id>" }),
  more: t.Boolean({ description: "Older messages exist (next_cursor is not null)" }),
  next_cursor: nullable(t.String({ description: "Send it back as `cursor` for the older messages; null when there are none" })),
  events: t.Array(
    t.Object({
      id: t.String(),
      type: t.String({ description: "queued, assigned, transfer_agent, closed… (the room's transitions)" }),
      actor_name: nullable(t.String()),
      payload: t.Record(t.String(), t.Unknown(), { description: "The transition's details" }),
      created_at: when(),
    }),
  ),
  authors: t.Record(t.String(), t.String(), { description: "Agent user id -> name, for the messages' authors" }),
});

// ---- reports

const Period = t.Object({
  begin: t.String({ format: "date" }),
  end: t.String({ format: "date" }),
  department_id: nullable(uuid()),
  agent_id: nullable(uuid()),
});

export const Report = t.Object({
  period: Period,
  totals: t.Object({
    started: int(),
    attended: int(),
    closed: int(),
    transferred: int(),
    returned: int(),
    offline: int(),
    average_wait_seconds: int({ description: "Seconds" }),
    average_service_seconds: int({ description: "Seconds" }),
  }),
  tabulations: t.Array(t.Object({ tabulation_id: nullable(uuid()), name: nullable(t.String()), rooms: int() })),
  channels: t.Array(t.Object({ channel: t.String(), rooms: int() })),
  agents: t.Array(
    t.Object({ agent_id: uuid(), name: t.String(), email: t.String(), rooms: int(), average_service_seconds: int({ description: "Seconds" }), messages_sent: int() }),
  ),
  days: t.Array(t.Object({ day: t.String({ format: "date" }), visitor: int(), agent: int(), total: int() }), { description: "Every day of the period" }),
});

export const Usage = t.Object({
  month: t.String({ description: "YYYY-MM" }),
  days: t.Array(t.Object({ day: t.String({ format: "date" }), rooms: int(), messages: int() }), { description: "Every day of the month" }),
  channels: t.Array(t.Object({ channel: t.String(), rooms: int(), messages: int() })),
  totals: t.Object({ rooms: int(), messages: int() }),
  plan: nullable(
    t.Object({
      name: t.String(),
      price: int({ description: "Centavos" }),
      currency: t.String(),
      billing_cycle: oneOf(["prepaid", "weekly", "biweekly", "monthly"]),
      starts_at: when(),
      ends_at: nullable(when()),
      permissions: t.Record(t.String(), t.Boolean(), { description: "Screen path -> allowed" }),
    }),
  ),
});

export const LiveAgentPage = Page(
  t.Object({
    id: uuid(),
    name: t.String(),
    email: t.String(),
    role: t.String(),
    department_id: nullable(uuid()),
    status: AgentStatus,
    status_date: nullable(when()),
    active: t.Boolean({ description: "Connected (status other than OFFLINE)" }),
    active_calls: int({ description: "Open rooms now" }),
  }),
  "Every agent of the account, by status then name",
);

export const AgentStatistic = t.Object({
  agent_id: uuid(),
  begin: t.String({ format: "date" }),
  end: t.String({ format: "date" }),
  active_calls: int({ description: "Open rooms now" }),
  total_calls: int({ description: "Rooms of the period the agent attended" }),
  average_service_time: int({ description: "Seconds" }),
  closed_calls: int({ description: "Rooms of the period the agent closed" }),
  transferred_calls: int({ description: "Rooms of the period the agent transferred to a colleague or a department" }),
  messages_sent: int({ description: "Messages the agent wrote in the period" }),
  days: t.Array(t.Object({ day: t.String({ format: "date" }), rooms: int(), messages: int() }), {
    description: "Every day of the period: the rooms created that day the agent attended, the messages the agent wrote that day",
  }),
});

export const LiveExport = t.Object({
  id: uuid(),
  status: oneOf(["queued", "processing", "done", "failed"]),
  filter: Period,
  rows: int(),
  file_size: nullable(int({ description: "Bytes" })),
  error: nullable(t.String()),
  created_at: when(),
  finished_at: nullable(when()),
});

export const LiveExportQueued = t.Object({
  data: LiveExport,
  message: t.String({ description: "'Report export: queued for processing', in the caller's language" }),
});
export const LiveExportOne = t.Object({ data: LiveExport });
export const LiveExportPage = Page(LiveExport, "The account's exports, newest first");

// ---- widget (public)

const VisitorRoom = t.Object({ id: uuid(), protocol: t.String(), status: RoomStatus, channel: Channel, agent_id: nullable(uuid()), closed_at: nullable(when()) });
const WidgetDepartment = t.Object({ id: uuid(), name: t.String(), open: t.Boolean({ description: "Attends now (opening hours)" }) });
const ColorPair = t.Object({ bg: t.String({ description: "#rrggbb" }), text: t.String({ description: "#rrggbb" }) });

export const WidgetConfig = t.Object({
  key: t.String(),
  enabled: t.Boolean(),
  title_online: t.String(),
  title_offline: t.String(),
  welcome: t.String({ description: "The greeting: the widget's first bubble (blank: none)" }),
  offline_message: t.String({ description: "Shown when no agent attends (outside opening hours, or no agent online); blank: the widget's own text" }),
  position: oneOf(["left", "center", "right"]),
  highlight_color: t.String({ description: "#rrggbb" }),
  attachments: t.Boolean({ description: "Visitors may send files" }),
  emoji: t.Boolean(),
  colors: t.Object({
    header: ColorPair,
    launcher: ColorPair,
    messageList: ColorPair,
    sentMessage: ColorPair,
    receivedMessage: ColorPair,
    userInput: ColorPair,
    userList: ColorPair,
  }),
  open: t.Boolean({ description: "The account attends now; else the widget shows the offline form" }),
  agents_online: t.Boolean({ description: "At least one agent of the account is connected to /live now" }),
  queue_enabled: t.Boolean(),
  departments: t.Array(WidgetDepartment),
});

export const WidgetDepartmentPage = Page(WidgetDepartment, "The account's active departments");

export const VisitorPosted = t.Object({
  visitor_id: t.String({ description: "Send it (with visitor_token) on every later call" }),
  visitor_token: t.String(),
  room: VisitorRoom,
  message: Message,
  position: nullable(int({ description: "Place in line (1 = next); null when not queued" })),
  duplicate: t.Boolean({ description: "A retry with the same client_id: the stored message" }),
  realtime_token: t.String({ description: "For /realtime/ws?visitor=…" }),
  resume_from: t.String({ description: "Stream id to resume the realtime connection from (last=room:<resume_from>)" }),
});

export const VisitorConversation = t.Object({
  room: nullable(VisitorRoom),
  messages: t.Array(Message, { description: "The last 30 (or the 30 before ?before=), oldest first" }),
  more: t.Boolean({ description: "Older messages exist (next_cursor is not null)" }),
  next_cursor: nullable(t.String({ description: "Send it back as `cursor` for the older messages; null when there are none" })),
  position: nullable(int()),
  participants: t.Array(t.Object({ id: uuid(), name: t.String() }), { description: "The agents who attend or wrote" }),
  realtime_token: nullable(t.String({ description: "null for a closed room or no room" })),
  resume_from: nullable(t.String()),
});
