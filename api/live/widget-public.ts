/**
 * What the embeddable widget (public/widget.js, the hosted /webchat page and /live/simulator)
 * reads and does without an account: the widget's public configuration by its key, and the
 * visitor's edit or removal of their own messages. Identity as in ./visitors: the widget key names
 * the account, the visitor id + visitor token the visitor.
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import { z } from "../lib/zod";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { rows } from "../lib/sql";
import { isOpen } from "./hours";
import { onlineAgents } from "./presence";
import type { LiveMessage, Room } from "./rooms/types";
import { messageView, roomSummary } from "./rooms/views";
import { settingsRow, widgetConfigByKey } from "./settings";
import { publishLive, type LivePublish } from "./streams";
import { accountForWidgetKey, assertVisitor, type Visitor } from "./visitors";

export type WidgetDepartment = { id: string; name: string; open: boolean };

/** The account's active departments a visitor may pick (spec: GET /webchat/departments), each with whether it attends now. */
export async function widgetDepartments(accountId: string, at = new Date()): Promise<WidgetDepartment[]> {
  const depts = await rows<{ id: string; name: string }>(`SELECT id, name FROM departments WHERE account_id = $1 AND status = 'active' ORDER BY lower(name), id`, [accountId]);
  return Promise.all(depts.map(async (d) => ({ id: d.id, name: d.name, open: await isOpen(accountId, at, d.id) })));
}

/**
 * The widget's public configuration: its look (titles, welcome text, position, colors, on/off
 * options), the greeting and offline message, whether the account attends now (outside opening
 * hours the widget shows the offline form) and whether an agent is connected (else the widget shows
 * the offline message above the input), whether the queue is on, and the departments. Nothing else of the account (no id).
 */
export async function widgetPublicConfig(key: string) {
  const found = await widgetConfigByKey(key);
  if (!found) throw new AppError("NOT_FOUND");
  const at = new Date();
  const [open, system, departments, online] = await Promise.all([
    isOpen(found.accountId, at),
    settingsRow(found.accountId),
    widgetDepartments(found.accountId, at),
    onlineAgents(found.accountId),
  ]);
  const s = found.settings;
  return {
    key: found.widgetKey,
    enabled: s.enabled,
    title_online: s.title_online,
    title_offline: s.title_offline,
    welcome: s.welcome,
    offline_message: s.offline_message,
    position: s.position,
    highlight_color: s.highlight_color,
    attachments: s.attachments,
    emoji: s.emoji,
    colors: s.colors,
    open,
    agents_online: online.length > 0,
    queue_enabled: system.queued_enabled,
    departments,
  };
}
export type WidgetPublicConfig = Awaited<ReturnType<typeof widgetPublicConfig>>;

export const visitorEditSchema = z.object({
  message: z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(4096, "validation.maxLength::4096"),
});

/** The visitor's own message (author visitor, in one of the visitor's webchat rooms), locked. */
async function ownMessage(accountId: string, visitorId: string, messageId: string, transaction: Transaction) {
  assertId(messageId);
  const [m] = await rows<LiveMessage & { r_external_id: string }>(
    `SELECT m.*, r.external_id AS r_external_id FROM live_messages m JOIN live_rooms r ON r.id = m.room_id
      WHERE m.id = $1 AND m.account_id = $2 AND r.account_id = $2 AND r.channel = 'webchat' AND r.external_id = $3
      FOR UPDATE OF m`,
    [messageId, accountId, visitorId],
    { transaction },
  );
  // Another visitor's message, an agent's message or an unknown id: all the same 404.
  if (!m || m.author !== "visitor") throw new AppError("NOT_FOUND");
  if (m.status === "DELETED") throw new AppError("NOT_FOUND");
  const [room] = await rows<Room>(`SELECT * FROM live_rooms WHERE id = $1`, [m.room_id], { transaction });
  return { message: m as LiveMessage, room };
}

const event = (room: Room, name: "edited" | "deleted", message: LiveMessage): LivePublish => ({
  accountId: room.account_id,
  roomId: room.id,
  event: name,
  to: room.status === "OPEN" && room.agent_id ? [room.agent_id] : "*",
  visitor: true,
  data: { room: roomSummary(room), message: messageView(message) },
});

/** Edits the visitor's own message (non-empty text only); agents and the visitor see `edited`. HTTP: by widget key, visitor id and token. */
export async function visitorEditMessage(widgetKey: string, visitorId: unknown, token: unknown, messageId: string, input: unknown) {
  const accountId = await accountForWidgetKey(widgetKey);
  return editOwnMessage(assertVisitor(accountId, visitorId, token), messageId, input);
}

/** Removes the visitor's own message: it stays in the thread as deleted (no text, no file); `deleted` is published. */
export async function visitorDeleteMessage(widgetKey: string, visitorId: unknown, token: unknown, messageId: string) {
  const accountId = await accountForWidgetKey(widgetKey);
  return deleteOwnMessage(assertVisitor(accountId, visitorId, token), messageId);
}

/** The edit itself, for a visitor already identified (HTTP above, or the `edit` command of the visitor's live socket). */
export async function editOwnMessage(visitor: Visitor, messageId: string, input: unknown) {
  const v = validate(visitorEditSchema, input);
  return changeOwnMessage(visitor, messageId, "edited", `body = $2, edited = true`, [v.message]);
}

/** The removal itself, for a visitor already identified (HTTP, or the `delete` command). */
export async function deleteOwnMessage(visitor: Visitor, messageId: string) {
  return changeOwnMessage(visitor, messageId, "deleted", `status = 'DELETED'`, []);
}

async function changeOwnMessage(visitor: Visitor, messageId: string, name: "edited" | "deleted", set: string, bind: unknown[]) {
  const out: LivePublish[] = [];
  const changed = await sequelize().transaction(async (transaction) => {
    const { message, room } = await ownMessage(visitor.accountId, visitor.visitorId, messageId, transaction);
    const [m] = await rows<LiveMessage>(`UPDATE live_messages SET ${set}, updated_at = now() WHERE id = $1 RETURNING *`, [message.id, ...bind], { transaction });
    out.push(event(room, name, m));
    return m;
  });
  await publishLive(out);
  return messageView(changed);
}
