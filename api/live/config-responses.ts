/**
 * The success answers of the live chat configuration, channel and file routes (config-routes.ts,
 * channel-routes.ts, channel-webhooks.ts), as TypeBox schemas for the OpenAPI document
 * (api/http/openapi.ts successResponse / createdResponse). In tests every JSON answer is checked
 * against them (api/http/response-check.ts).
 */
import { Type } from "@sinclair/typebox";
import { t, type TSchema } from "elysia";
import type { OpenAPIV3 } from "openapi-types";
import { createdResponse, fileResponse } from "../http/openapi";
import { Page } from "../lib/page-schema";

/** A plain JSON integer (Elysia's t.Integer also accepts numeric strings, which the document would show). */
const int = Type.Integer;
const nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()]);
const oneOf = (values: readonly string[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );
const uuid = (description?: string) => t.String({ format: "uuid", ...(description ? { description } : {}) });
const dateTime = (description?: string) => t.String({ format: "date-time", ...(description ? { description } : {}) });

/** Short names the live configuration routes use. */
export const created = createdResponse;
export const file = fileResponse;

// ---- tabulations

export const TabOption = t.Object({ id: uuid(), name: t.String() });
export const Tabs = Page(TabOption, "The active tabulations but GENERIC, by name: one page (bounded by the account's tabulations)");

export const Tabulation = t.Object({
  id: uuid(),
  name: t.String({ description: "1 to 120 characters, unique in the account (ignoring case)" }),
  active: t.Boolean({ description: "Inactive ones are not offered to agents" }),
  created_at: dateTime(),
  updated_at: dateTime(),
});
export const Tabulations = Page(Tabulation, "Every tabulation, by name: one page");

// ---- system settings

const ACCEPTANCE = ["automatic", "manual"] as const;
export const LiveSystem = t.Object({
  queued_enabled: t.Boolean({ description: "Rooms wait in a queue (true) or go straight to an agent" }),
  acceptance_option: oneOf(ACCEPTANCE, "automatic: a room is assigned to a free agent; manual: agents take rooms from the queue"),
});

export const SystemSettings = t.Object({
  queued_enabled: t.Boolean(),
  acceptance_option: oneOf(ACCEPTANCE, "automatic or manual"),
  default_capacity: int({ description: "Rooms an agent attends at once unless their own capacity says otherwise" }),
  tabulation_required: t.Boolean({ description: "A room needs a tabulation before it is closed" }),
  idle_minutes: int({ description: "Minutes without messages after which a room is idle" }),
  updated_at: dateTime(),
});

// ---- canned samples

export const Sample = t.Object({
  id: uuid(),
  key: t.String({ description: "The shortcut: 1 to 40 of a-z, 0-9, _ and -" }),
  message: t.String(),
  for_all: t.Boolean(),
  agent_id: nullable(uuid("The one agent it is for (audience me)")),
  agent_name: nullable(t.String()),
  department_id: nullable(uuid("The department it is for (audience department)")),
  department_name: nullable(t.String()),
  audience: oneOf(["all", "me", "department"], "all (for_all), me (one agent) or department"),
  created_at: dateTime(),
});
export const Samples = Page(Sample, "Canned messages by key, then id");
export const SampleEdited = t.Object({ id: uuid(), key: t.String(), message: t.String() });
export const SampleDeleted = t.Object({ id: uuid(), key: t.String() });

// ---- macros

export const Macro = t.Object({
  id: uuid(),
  name: t.String({ description: "Unique in the account (ignoring case)" }),
  message: nullable(t.String({ description: "Sent to the room first" })),
  tags: t.Array(t.String(), { description: "Added to the room's tags" }),
  tabulation_id: nullable(uuid("Set on the room")),
  tabulation_name: nullable(t.String()),
  close: t.Boolean({ description: "The room is closed last" }),
  created_at: dateTime(),
  updated_at: dateTime(),
});
export const Macros = Page(Macro, "Macros by name (case-insensitive), then id");
export const MacroDeleted = t.Object({ id: uuid(), name: t.String() });

// ---- holidays and opening hours

export const Holiday = t.Object({
  id: uuid(),
  name: t.String(),
  day: t.String({ format: "date", description: "YYYY-MM-DD: closed all that day (São Paulo)" }),
  created_at: dateTime(),
});
export const Holidays = Page(Holiday, "Holidays by day");
export const HolidayDeleted = t.Object({ id: uuid(), name: t.String() });

export const OpeningHour = t.Object({
  id: uuid(),
  weekday: int({ minimum: 0, maximum: 6, description: "0 = Sunday … 6 = Saturday" }),
  opens: t.String({ description: "HH:MM, São Paulo time" }),
  closes: t.String({ description: "HH:MM (24:00 = end of day), São Paulo time" }),
  department_id: nullable(uuid("null: the account's hours; else that department's")),
  department_name: nullable(t.String()),
});
export const OpeningHours = Page(
  OpeningHour,
  "Intervals by department (the account's first), weekday and opening time: one page (bounded: non-overlapping intervals of one week per department)",
);
export const OpeningHoursCreated = t.Object({
  created: int({ description: "Intervals created: one per weekday asked" }),
  ids: t.Array(uuid(), { description: "Their ids, in the weekdays' order" }),
});
export const OpeningHourDeleted = t.Object({ id: uuid() });

// ---- agents

export const AgentConfig = t.Object({
  user_id: uuid(),
  name: t.String(),
  email: t.String(),
  role: t.String({ description: "The membership's role (owner, admin, agent…)" }),
  capacity: nullable(int({ description: "The agent's own capacity; null = the account's default" })),
  effective_capacity: int({ description: "capacity, else the account's default_capacity" }),
  membership_department_id: nullable(uuid()),
  membership_department_name: nullable(t.String()),
  department_ids: t.Array(uuid(), { description: "Departments served besides the membership's own" }),
});
export const AgentConfigs = Page(AgentConfig, "The account's agents by first name, last name, then user id");

// ---- widget and preferences

const colorPair = t.Object({ bg: t.String({ description: "#rrggbb" }), text: t.String({ description: "#rrggbb" }) });
const WIDGET_COLOR_PARTS = ["header", "launcher", "messageList", "sentMessage", "receivedMessage", "userInput", "userList"] as const;
export const Widget = t.Object({
  widget_key: t.String({ description: "Public key of the embed snippet (data-key)" }),
  settings: t.Object({
    title_online: t.String(),
    title_offline: t.String(),
    welcome: t.String({ description: "The greeting: the widget's first bubble (blank: none)" }),
    offline_message: t.String({ description: "Shown when no agent attends; blank: the widget's own text" }),
    position: oneOf(["left", "center", "right"]),
    highlight_color: t.String({ description: "#rrggbb" }),
    enabled: t.Boolean(),
    attachments: t.Boolean({ description: "Visitors may send files" }),
    emoji: t.Boolean(),
    colors: t.Object(Object.fromEntries(WIDGET_COLOR_PARTS.map((p) => [p, colorPair]))),
  }),
  snippet: t.String({ description: "The HTML script tag (widget.js with data-key) to paste in the site" }),
  updated_at: dateTime(),
});

export const Preferences = t.Object({
  mute: oneOf(["disabled", "8h", "1w", "1m", "always"], "disabled, 8h, 1w, 1m (30 days) or always; a timed mute that ran out reads disabled"),
  mute_until: nullable(dateTime("When a timed mute ends")),
  muted: t.Boolean(),
  volume: t.Number({ minimum: 0, maximum: 1 }),
});

// ---- channels

const CHANNELS = ["telegram", "messenger", "instagram", "google_business"] as const;
export const Connection = t.Object({
  id: uuid(),
  channel: oneOf(CHANNELS),
  external_id: t.String({ description: "Telegram bot id, page id, Instagram account id or Business Messages agent (brands/…/agents/…)" }),
  name: t.String({ description: "Telegram: @username; otherwise empty" }),
  webhook_url: t.String({ description: "The URL to give the provider (POST /api/channels/{channel}/{id})" }),
  created_at: dateTime(),
  updated_at: dateTime(),
});
export const Connections = Page(Connection, "The account's connections by channel: one page (at most one per channel)");
export const Connected = t.Object({ data: Connection });
export const Disconnected = t.Object({ deleted: t.Literal(true) });

// ---- files and uploads

export const FileUrl = t.Object({ url: t.String({ description: "/api/live/files/{id}?exp=…&sig=…, valid for one hour" }) });

const Attachment = t.Object({
  type: oneOf(["image", "audio", "video", "document", "sticker"]),
  uri: t.String({ description: "/api/live/files/{id}" }),
  media_type: t.String(),
  name: t.String(),
  size: int({ description: "Bytes" }),
});
export const LiveMessage = t.Object({
  id: uuid(),
  room_id: uuid(),
  author: oneOf(["visitor", "agent", "bot", "system"]),
  user_id: nullable(uuid()),
  body: t.String(),
  attachments: t.Array(Attachment),
  status: oneOf(["SENT", "DELIVERED", "READ", "FAIL", "DELETED"]),
  edited: t.Boolean(),
  client_id: nullable(t.String({ description: "The sender's own id of the message (a retry answers the stored message)" })),
  created_at: dateTime(),
  delivered_at: nullable(dateTime()),
  read_at: nullable(dateTime()),
  error: nullable(t.String({ description: "Why the channel refused it (status FAIL)" })),
  suggestions: t.Array(t.String(), { description: "Quick replies offered under the message" }),
});

export const VisitorUpload = t.Object({
  visitor_id: t.String({ description: "Keep it, with visitor_token, for the next posts" }),
  visitor_token: t.String(),
  room: t.Object({
    id: uuid(),
    protocol: t.String(),
    status: oneOf(["QUEUE", "OPEN", "CLOSED", "BOT"]),
    channel: t.String(),
    agent_id: nullable(uuid()),
    closed_at: nullable(dateTime()),
  }),
  message: LiveMessage,
  position: nullable(int({ description: "Place in the queue (1 = next); null when not queued" })),
  duplicate: t.Boolean({ description: "true: the client_id was seen, the stored message is answered" }),
  realtime_token: t.String({ description: "For /realtime/ws?visitor=…" }),
  resume_from: t.String({ description: "Stream position to resume the room's events from (last=room:<resume_from>)" }),
});

// ---- provider webhooks: what each provider expects back (only the status matters to them)

const Received = t.Union(
  [
    t.Object({ room_id: uuid(), message_id: uuid(), duplicate: t.Boolean() }, { description: "A message opened or continued a room" }),
    t.Object({ duplicate: t.Literal(true) }, { description: "The provider's message id was already received" }),
    t.Object({ ignored: t.Literal(true) }, { description: "Nothing to keep (another agent's event, a bot's message, an empty message…)" }),
  ],
  { description: "What one message event did" },
);

export const TelegramAck = t.Object({ ok: t.Literal(true), result: Received }, { description: "Telegram only needs a 2xx; anything else is retried" });

export const GraphAck = t.Object(
  {
    ok: t.Literal(true),
    results: t.Array(
      t.Union([Received, t.Object({ delivered: int({ description: "Agent messages now DELIVERED" }) }), t.Object({ read: int({ description: "Agent messages now READ" }) })]),
      { description: "One per event of the connection's page in the post, in order" },
    ),
  },
  { description: "Meta needs a 200 within 20 seconds; anything else is retried" },
);

export const GoogleAck = t.Object(
  {
    ok: t.Literal(true),
    result: t.Union([Received, t.Object({ delivered: int(), read: int() }, { description: "A receipts event: agent messages moved forward" })]),
  },
  { description: "Business Messages needs a 2xx; anything else is retried" },
);

/** POST /channels/google_business/{id}: JSON for an event, the secret as text/plain for the verification post. */
export const googleAnswer = {
  "200": {
    description: "The verification post: its secret as text/plain (what Business Messages expects); an event: received (only the status is read)",
    content: { "application/json": { schema: GoogleAck }, "text/plain": { schema: { type: "string", description: "The verification post's secret, echoed" } } },
  },
} as unknown as OpenAPIV3.ResponsesObject;
