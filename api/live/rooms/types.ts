/** The rows of live chat's rooms and messages, and the words their columns take (spec section 4). */

export const AGENT_STATUSES = ["AVAILABLE", "UNAVAILABLE", "SHORT_BREAK", "BREAK", "LONG_BREAK", "OFFLINE"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];
export const LIVE_CHANNELS = ["webchat", "telegram", "messenger", "instagram", "google_business", "whatsapp", "rcs"] as const;
export type LiveChannel = (typeof LIVE_CHANNELS)[number];
/** BOT: a flow attends the room (ADR 054); it is never in the queue and no agent takes it until the flow hands it off. */
export type RoomStatus = "QUEUE" | "OPEN" | "CLOSED" | "BOT";
export type MessageStatus = "SENT" | "DELIVERED" | "READ" | "FAIL" | "DELETED";

export type Room = {
  id: string;
  account_id: string;
  contact_id: string | null;
  channel: LiveChannel;
  external_id: string;
  username: string;
  email: string | null;
  phone: string | null;
  protocol: string;
  status: RoomStatus;
  department_id: string | null;
  agent_id: string | null;
  tabulation_id: string | null;
  tags: string[];
  locked: boolean;
  transfer_type: "agent" | "department" | null;
  transfer_to_user_id: string | null;
  transfer_to_department_id: string | null;
  transfer_by: string | null;
  transfer_at: Date | null;
  offline: boolean;
  idle: boolean;
  solved: boolean;
  close_reason: string | null;
  queued_at: Date | null;
  assigned_at: Date | null;
  closed_at: Date | null;
  last_message: string | null;
  last_message_type: string | null;
  last_message_at: Date | null;
  unread_count: number;
  created_at: Date;
  updated_at: Date;
};

export type Attachment = { type: "image" | "audio" | "video" | "document" | "sticker"; uri: string; media_type: string; name: string; size: number };

export type LiveMessage = {
  id: string;
  account_id: string;
  room_id: string;
  author: "visitor" | "agent" | "bot" | "system";
  user_id: string | null;
  body: string;
  attachments: Attachment[];
  status: MessageStatus;
  edited: boolean;
  client_id: string | null;
  external_id: string | null;
  error: string | null;
  /** Quick replies the agent offers under this message (0–11, each 1–25 characters). */
  suggestions: string[];
  /** The message pipeline's message it went out as (WhatsApp: api/whatsapp/live.ts), else null. */
  message_id: string | null;
  created_at: Date;
  delivered_at: Date | null;
  read_at: Date | null;
};
