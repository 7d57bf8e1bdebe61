/** What leaves the server about a room or a message: lists, events, the visitor's view. */
import type { LiveMessage, Room } from "./types";

/** The visitor-facing view of a room (no agent-only fields). */
export function visitorView(room: Room) {
  return { id: room.id, protocol: room.protocol, status: room.status, channel: room.channel, agent_id: room.agent_id, closed_at: room.closed_at };
}

/** What lists and events carry about a room. */
export function roomSummary(room: Room) {
  return {
    id: room.id,
    channel: room.channel,
    username: room.username,
    email: room.email,
    phone: room.phone,
    protocol: room.protocol,
    status: room.status,
    department_id: room.department_id,
    agent_id: room.agent_id,
    tabulation_id: room.tabulation_id,
    tags: room.tags,
    locked: room.locked,
    transfer_type: room.transfer_type,
    transfer_to_user_id: room.transfer_to_user_id,
    transfer_to_department_id: room.transfer_to_department_id,
    transfer_by: room.transfer_by,
    transfer_at: room.transfer_at,
    offline: room.offline,
    idle: room.idle,
    solved: room.solved,
    queued_at: room.queued_at,
    assigned_at: room.assigned_at,
    closed_at: room.closed_at,
    created_at: room.created_at,
    last_message: room.last_message,
    last_message_type: room.last_message_type,
    last_message_at: room.last_message_at,
    unread_count: room.unread_count,
    contact_id: room.contact_id,
  };
}

export function messageView(m: LiveMessage) {
  return {
    id: m.id,
    room_id: m.room_id,
    author: m.author,
    user_id: m.user_id,
    body: m.status === "DELETED" ? "" : m.body,
    attachments: m.status === "DELETED" ? [] : m.attachments,
    status: m.status,
    edited: m.edited,
    client_id: m.client_id,
    created_at: m.created_at,
    delivered_at: m.delivered_at,
    read_at: m.read_at,
    error: m.error,
    suggestions: m.status === "DELETED" ? [] : (m.suggestions ?? []),
  };
}
