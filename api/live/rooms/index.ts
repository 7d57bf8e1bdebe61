/**
 * Live chat attendance: the room flow of spec section 4, as use-cases (ADR 014). HTTP routes, the
 * realtime commands, the widget and the channel webhooks all call these; nothing else changes a
 * room. Each use-case runs in one transaction that locks the room row (`FOR UPDATE`), checks the
 * transition, writes the room, its message or event row and a live_room_events entry, and after
 * commit publishes on the live streams (./streams) and runs the automatic distribution.
 *
 * Room statuses: QUEUE (waiting for an agent in its department) -> OPEN (an agent attends) ->
 * CLOSED. From OPEN: close (a required tabulation must be set), transfer to an agent (locked until
 * the agent accepts — the room moves — or refuses — it returns to the queue), transfer to a
 * department (back to QUEUE in that department, locked until an agent takes it:
 * transfer_finished), return to queue. A visitor who writes while nobody can attend (outside
 * hours, or the queue is off) leaves an offline contact (CLOSED, offline) that an agent resumes
 * or marks solved; an OPEN room whose visitor stopped answering becomes idle until resumed or the
 * visitor writes again.
 *
 * Capacity: an agent attends at most live_agents.capacity (else the account's default_capacity)
 * OPEN rooms; the agent's live_agents row is locked while a room is given to them, so two
 * concurrent assignments cannot exceed it.
 */
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "../../../models";
import type { SignedInCtx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { assertId } from "../../lib/owned";
import { intParam, pageParam, validate } from "../../lib/validate";
import { keyset, pageInput } from "../../lib/page";
import { sortTime, timeIdCursor } from "../keyset";
import { z } from "../../lib/zod";
import { email as emailSchema } from "../../lib/fields";
import { normalizePhone } from "../../contacts/phone";
import { can, isSupervisor, SUPERVISOR_ROLES_SQL } from "../../policy/policy";
import { newKey } from "../settings";
import { channelSeen } from "../channel-signals";
import { SUGGESTION_MAX_LENGTH, SUGGESTIONS_MAX } from "../limits";
import { publishLive, type LivePublish } from "../streams";
import { absentAgents, onlineAgents } from "../presence";

export const AGENT_STATUSES = ["AVAILABLE", "UNAVAILABLE", "SHORT_BREAK", "BREAK", "LONG_BREAK", "OFFLINE"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];
export const LIVE_CHANNELS = ["webchat", "telegram", "messenger", "instagram", "google_business", "whatsapp"] as const;
export type LiveChannel = (typeof LIVE_CHANNELS)[number];
export type RoomStatus = "QUEUE" | "OPEN" | "CLOSED";
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
  created_at: Date;
  delivered_at: Date | null;
  read_at: Date | null;
};

export type Settings = {
  account_id: string;
  queued_enabled: boolean;
  acceptance_option: "automatic" | "manual";
  default_capacity: number;
  tabulation_required: boolean;
  idle_minutes: number;
  widget_key: string;
  widget: Record<string, unknown>;
};

const db = () => sequelize();
type Q = { transaction?: Transaction };

async function rows<T extends object>(sql: string, bind: unknown[], opts: Q = {}): Promise<T[]> {
  return db().query<T>(sql, { bind, type: QueryTypes.SELECT, transaction: opts.transaction });
}
async function one<T extends object>(sql: string, bind: unknown[], opts: Q = {}): Promise<T | undefined> {
  return (await rows<T>(sql, bind, opts))[0];
}

/** The account's live settings, created with defaults (and a fresh widget key) on first use. */
export async function liveSettings(accountId: string, opts: Q = {}): Promise<Settings> {
  await db().query(`INSERT INTO live_settings (account_id, widget_key) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING`, {
    bind: [accountId, newKey()],
    transaction: opts.transaction,
  });
  return (await one<Settings>(`SELECT * FROM live_settings WHERE account_id = $1`, [accountId], opts))!;
}

/** Who may attend: the policy's /live (the omni plan, and an agent of any role or a supervisor: spec section 6). */
export function assertAttendant(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/live")) throw new AppError("FORBIDDEN");
}

/** The next protocol number of the account: YYYYMMDD (São Paulo day) + 6-digit sequence of that day. */
async function nextProtocol(accountId: string, transaction: Transaction): Promise<string> {
  const row = await one<{ protocol: string }>(
    `INSERT INTO live_protocols (account_id, day, seq) VALUES ($1, (now() AT TIME ZONE 'America/Sao_Paulo')::date, 1)
     ON CONFLICT (account_id, day) DO UPDATE SET seq = live_protocols.seq + 1
     RETURNING to_char(day, 'YYYYMMDD') || lpad(seq::text, 6, '0') AS protocol`,
    [accountId],
    { transaction },
  );
  return row!.protocol;
}

async function logEvent(transaction: Transaction, room: Pick<Room, "id" | "account_id">, type: string, actorId: string | null, payload: Record<string, unknown> = {}) {
  await db().query(`INSERT INTO live_room_events (account_id, room_id, type, actor_id, payload) VALUES ($1, $2, $3, $4, $5::jsonb)`, {
    bind: [room.account_id, room.id, type, actorId, JSON.stringify(payload)],
    transaction,
  });
}

/** Locks the account's room (404 when it is another account's or does not exist). */
async function lockRoom(accountId: string, roomId: string, transaction: Transaction): Promise<Room> {
  assertId(roomId);
  const room = await one<Room>(`SELECT * FROM live_rooms WHERE id = $1 AND account_id = $2 FOR UPDATE`, [roomId, accountId], { transaction });
  if (!room) throw new AppError("NOT_FOUND");
  return room;
}

async function updateRoom(transaction: Transaction, id: string, set: Partial<Record<keyof Room, unknown>>): Promise<Room> {
  const keys = Object.keys(set);
  const sql = `UPDATE live_rooms SET ${keys.map((k, i) => `${k} = $${i + 2}`).join(", ")}, updated_at = now() WHERE id = $1 RETURNING *`;
  return (await one<Room>(sql, [id, ...keys.map((k) => (set as Record<string, unknown>)[k])], { transaction }))!;
}

/** How many rooms an agent may attend at once, and how many they attend now (agent row locked). */
async function agentLoad(accountId: string, userId: string, transaction: Transaction) {
  const settings = await liveSettings(accountId, { transaction });
  await db().query(`INSERT INTO live_agents (account_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, { bind: [accountId, userId], transaction });
  const agent = (await one<{ capacity: number | null; status: AgentStatus }>(
    `SELECT capacity, status FROM live_agents WHERE account_id = $1 AND user_id = $2 FOR UPDATE`,
    [accountId, userId],
    { transaction },
  ))!;
  const open = (await one<{ n: number }>(`SELECT count(*)::int AS n FROM live_rooms WHERE account_id = $1 AND agent_id = $2 AND status = 'OPEN'`, [accountId, userId], {
    transaction,
  }))!.n;
  return { capacity: agent.capacity ?? settings.default_capacity, open, status: agent.status };
}

async function assertCapacity(accountId: string, userId: string, transaction: Transaction) {
  const load = await agentLoad(accountId, userId, transaction);
  if (load.open >= load.capacity) throw new AppError("LIVE_ROOM_LIMIT");
}

/** The visitor-facing view of a room (no agent-only fields). */
export function visitorView(room: Room) {
  return { id: room.id, protocol: room.protocol, status: room.status, channel: room.channel, agent_id: room.agent_id, closed_at: room.closed_at };
}

const roomEvent = (room: Room, event: LivePublish["event"], to: LivePublish["to"], extra: Record<string, unknown> = {}, visitor = false): LivePublish => ({
  accountId: room.account_id,
  roomId: room.id,
  event,
  to,
  visitor,
  data: { room: roomSummary(room), ...extra },
});

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

/** Runs `work` in a transaction, then publishes its events, then distributes what it freed. */
async function transition<T>(work: (t: Transaction, out: LivePublish[], after: Set<string>) => Promise<T>): Promise<T> {
  const out: LivePublish[] = [];
  const distributeAccounts = new Set<string>();
  const result = await db().transaction((t) => work(t, out, distributeAccounts));
  await publishLive(out);
  for (const accountId of distributeAccounts) await distribute(accountId);
  return result;
}

// ---- visitors (widget, channels) ----------------------------------------------------------------

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

/** Links a room to the account's contact by e-mail or mobile, creating the contact if needed. */
async function contactFor(input: VisitorMessageInput, transaction: Transaction): Promise<string | null> {
  const email = input.email && input.email.includes("@") ? input.email.trim().toLowerCase() : null;
  const mobile = input.phone && /^\+[1-9]\d{7,14}$/.test(input.phone) ? input.phone : null;
  if (!email && !mobile) return null;
  const found = await one<{ id: string }>(
    `SELECT id FROM contacts WHERE account_id = $1 AND ((mobile_number = $2) OR (email = $3)) ORDER BY (mobile_number = $2) DESC NULLS LAST LIMIT 1`,
    [input.accountId, mobile, email],
    { transaction },
  );
  if (found) return found.id;
  // A name is split at the first space (spec section 5).
  const name = (input.username ?? "").trim();
  const space = name.indexOf(" ");
  const created = await one<{ id: string }>(
    `INSERT INTO contacts (account_id, first_name, last_name, mobile_number, email) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, mobile_number) WHERE mobile_number IS NOT NULL DO UPDATE SET updated_at = now() RETURNING id`,
    [input.accountId, space > 0 ? name.slice(0, space) : name || null, space > 0 ? name.slice(space + 1) : null, mobile, email],
    { transaction },
  );
  return created?.id ?? null;
}

/**
 * A visitor's message: continues the visitor's open room on that channel, or opens a new one (in
 * the queue of its department, with a new protocol number). Idempotent on clientId /
 * externalMessageId. Outside opening hours, or when the queue is off and nobody can take it now,
 * the room is an offline contact.
 */
export async function visitorMessage(input: VisitorMessageInput): Promise<{ room: Room; message: LiveMessage; created: boolean; duplicate: boolean }> {
  const body = input.body.trim();
  if (!body && !input.attachments?.length) throw new AppError("VALIDATION", { fields: { body: ["validation.required"] } });
  if (body.length > 4096) throw new AppError("VALIDATION", { fields: { body: ["validation.maxLength::4096"] } });
  return transition(async (transaction, out, after) => {
    const settings = await liveSettings(input.accountId, { transaction });
    let room = await one<Room>(
      `SELECT * FROM live_rooms WHERE account_id = $1 AND channel = $2 AND external_id = $3 AND status <> 'CLOSED' FOR UPDATE`,
      [input.accountId, input.channel, input.externalId],
      { transaction },
    );
    let created = false;
    if (!room) {
      const protocol = await nextProtocol(input.accountId, transaction);
      const contactId = await contactFor(input, transaction);
      const offline = input.open === false;
      // ON CONFLICT: two first messages of one visitor at once open one room.
      const inserted = await one<Room>(
        `INSERT INTO live_rooms (account_id, contact_id, channel, external_id, username, email, phone, protocol, status, department_id, queued_at, offline, closed_at, close_reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), $11, CASE WHEN $11 THEN now() END, CASE WHEN $11 THEN 'offline' END)
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
          offline ? "CLOSED" : "QUEUE",
          input.departmentId ?? null,
          offline,
        ],
        { transaction },
      );
      if (inserted) {
        room = inserted;
        created = true;
        await logEvent(transaction, room, offline ? "offline" : "queued", null, { protocol });
      } else {
        room = (await one<Room>(
          `SELECT * FROM live_rooms WHERE account_id = $1 AND channel = $2 AND external_id = $3 AND status <> 'CLOSED' FOR UPDATE`,
          [input.accountId, input.channel, input.externalId],
          { transaction },
        ))!;
      }
    }
    const clientId = input.clientId ?? (input.externalMessageId ? `ext:${input.externalMessageId}` : null);
    const inserted = await one<LiveMessage>(
      `INSERT INTO live_messages (account_id, room_id, author, body, attachments, client_id, external_id)
       VALUES ($1, $2, 'visitor', $3, $4::jsonb, $5, $6) ON CONFLICT (room_id, client_id) WHERE client_id IS NOT NULL DO NOTHING RETURNING *`,
      [input.accountId, room.id, body, JSON.stringify(input.attachments ?? []), clientId, input.externalMessageId ?? null],
      { transaction },
    );
    if (!inserted) {
      const existing = (await one<LiveMessage>(`SELECT * FROM live_messages WHERE room_id = $1 AND client_id = $2`, [room.id, clientId], { transaction }))!;
      return { room, message: existing, created: false, duplicate: true };
    }
    room = await updateRoom(transaction, room.id, {
      last_message: body.slice(0, 200) || null,
      last_message_type: input.attachments?.length ? input.attachments[0].type : "text",
      last_message_at: inserted.created_at,
      unread_count: room.unread_count + 1,
      idle: false,
    });
    const to: LivePublish["to"] = room.status === "OPEN" && room.agent_id ? [room.agent_id] : "*";
    if (created && room.status === "QUEUE") out.push(roomEvent(room, "queued", "*"));
    out.push({ ...roomEvent(room, "send", to, { message: messageView(inserted) }, true) });
    if (room.status === "QUEUE" && settings.acceptance_option === "automatic") after.add(room.account_id);
    return { room, message: inserted, created, duplicate: false };
  });
}

/** The visitor read the agent's messages (widget open and focused): they become READ. */
export async function visitorRead(accountId: string, roomId: string) {
  return transition(async (transaction, out) => {
    const room = await lockRoom(accountId, roomId, transaction);
    const changed = await rows<LiveMessage>(
      `UPDATE live_messages SET status = 'READ', read_at = now(), delivered_at = COALESCE(delivered_at, now()), updated_at = now()
       WHERE room_id = $1 AND author <> 'visitor' AND status IN ('SENT','DELIVERED') RETURNING *`,
      [room.id],
      { transaction },
    );
    if (changed.length > 0) out.push(roomEvent(room, "read", room.agent_id ? [room.agent_id] : "*", { ids: changed.map((m) => m.id), by: "visitor" }, true));
    return changed.length;
  });
}

/** The visitor's place in its department's queue (1 = next), or null when not waiting. */
export async function queuePosition(accountId: string, roomId: string): Promise<number | null> {
  const row = await one<{ position: number | null }>(
    `SELECT CASE WHEN r.status = 'QUEUE' THEN (
        SELECT count(*)::int FROM live_rooms q WHERE q.account_id = r.account_id AND q.status = 'QUEUE'
          AND q.department_id IS NOT DISTINCT FROM r.department_id AND (q.queued_at, q.id) <= (r.queued_at, r.id)) END AS position
     FROM live_rooms r WHERE r.id = $1 AND r.account_id = $2`,
    [roomId, accountId],
  );
  return row?.position ?? null;
}

// ---- distribution ---------------------------------------------------------------------------------

/**
 * Automatic distribution (live.acceptance_option = automatic): while a queued room and an
 * online, available agent with room to spare exist, the oldest queued room goes to the least-busy
 * such agent serving its department (any agent for a room without department). Online = a live
 * connection is open in some realtime process (./presence): an agent whose status says AVAILABLE
 * but who has closed the app gets nothing. Rooms are taken with SKIP LOCKED so several processes
 * distribute side by side.
 */
export async function distribute(accountId: string): Promise<number> {
  const settings = await liveSettings(accountId);
  if (settings.acceptance_option !== "automatic") return 0;
  const online = await onlineAgents(accountId);
  if (online.length === 0) return 0;
  let assigned = 0;
  for (let i = 0; i < 1000; i++) {
    const out: LivePublish[] = [];
    const done = await db().transaction(async (transaction) => {
      const room = await one<Room>(`SELECT * FROM live_rooms WHERE account_id = $1 AND status = 'QUEUE' ORDER BY queued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`, [accountId], {
        transaction,
      });
      if (!room) return true;
      const agent = await one<{ user_id: string }>(
        `SELECT a.user_id FROM live_agents a
         JOIN memberships m ON m.account_id = a.account_id AND m.user_id = a.user_id
         WHERE a.account_id = $1 AND a.status = 'AVAILABLE' AND a.user_id = ANY($5::uuid[]) AND (m.is_agent OR m.role IN (${SUPERVISOR_ROLES_SQL}))
           AND ($2::uuid IS NULL OR m.department_id = $2 OR EXISTS (
                 SELECT 1 FROM live_agent_departments d WHERE d.account_id = a.account_id AND d.user_id = a.user_id AND d.department_id = $2))
           AND (SELECT count(*) FROM live_rooms r WHERE r.account_id = a.account_id AND r.agent_id = a.user_id AND r.status = 'OPEN') < COALESCE(a.capacity, $3)
           AND NOT EXISTS (SELECT 1 FROM live_room_events e WHERE e.room_id = $4 AND e.type = 'refused' AND e.actor_id = a.user_id)
         ORDER BY (SELECT count(*) FROM live_rooms r WHERE r.account_id = a.account_id AND r.agent_id = a.user_id AND r.status = 'OPEN'), a.status_at, a.user_id
         LIMIT 1 FOR UPDATE OF a SKIP LOCKED`,
        [accountId, room.department_id, settings.default_capacity, room.id, online],
        { transaction },
      );
      if (!agent) return true;
      out.push(...(await assign(transaction, room, agent.user_id, null)));
      return false;
    });
    await publishLive(out);
    if (done) break;
    assigned++;
  }
  return assigned;
}

/** QUEUE -> OPEN with `userId` (a department transfer finishes here). */
async function assign(transaction: Transaction, room: Room, userId: string, actorId: string | null): Promise<LivePublish[]> {
  const finishing = room.locked && room.transfer_type === "department";
  const updated = await updateRoom(transaction, room.id, {
    status: "OPEN",
    agent_id: userId,
    assigned_at: new Date(),
    idle: false,
    offline: false,
    ...(finishing ? { locked: false } : {}),
  });
  await logEvent(transaction, updated, "assigned", actorId, { agent_id: userId });
  const out = [roomEvent(updated, "assigned", "*", {}, true)];
  if (finishing) {
    await logEvent(transaction, updated, "transfer_finished", actorId, { agent_id: userId });
    out.push(roomEvent(updated, "transfer_finished", "*"));
  }
  return out;
}

/**
 * A room "in waiting" for its agent: OPEN with them, not in a transfer, given to them by the
 * distribution (its latest assignment event has no actor: not a take, an accepted transfer or a
 * resume, which are the agent's own doing), and the agent has written nothing in it since —
 * given, but not yet attended. (r = the room.)
 */
const WAITING_FOR_AGENT = `r.status = 'OPEN' AND NOT r.locked AND r.agent_id IS NOT NULL
  AND COALESCE((SELECT e.actor_id IS NULL FROM live_room_events e WHERE e.room_id = r.id AND e.type IN ('assigned', 'transfer_accept', 'resumed')
                ORDER BY e.id DESC LIMIT 1), false)
  AND NOT EXISTS (SELECT 1 FROM live_messages m WHERE m.room_id = r.id AND m.author = 'agent' AND m.user_id = r.agent_id AND m.created_at >= r.assigned_at)`;

/**
 * Agents who left (worker sweep, issue 12 item 8): the waiting rooms of an agent without a live
 * connection for `graceMs` go back to the queue — keeping their place (queued_at is not reset:
 * the visitor has been waiting all along) — and are distributed again. Rooms the agent already
 * answered, or chose (took, accepted in a transfer, resumed), stay theirs: the visitor is in a
 * conversation with that person, who finds it again on reconnecting (the idle sweep or a
 * supervisor deal with one abandoned). A reconnect within the grace keeps everything. Returns how
 * many rooms went back.
 */
export async function releaseAbsentAgents(graceMs: number): Promise<number> {
  const held = await rows<{ account_id: string; agent_ids: string[] }>(
    `SELECT r.account_id, array_agg(DISTINCT r.agent_id) AS agent_ids FROM live_rooms r WHERE ${WAITING_FOR_AGENT} GROUP BY r.account_id`,
    [],
  );
  let released = 0;
  for (const { account_id: accountId, agent_ids } of held) {
    const absent = await absentAgents(accountId, agent_ids, graceMs);
    if (absent.length === 0) continue;
    released += await transition(async (transaction, out, after) => {
      // Checked again under the room locks: a message written meanwhile keeps the room.
      const rooms = await rows<Room>(
        `SELECT r.* FROM live_rooms r WHERE r.account_id = $1 AND r.agent_id = ANY($2::uuid[]) AND ${WAITING_FOR_AGENT} FOR UPDATE OF r SKIP LOCKED`,
        [accountId, absent],
        { transaction },
      );
      for (const room of rooms) {
        const updated = await updateRoom(transaction, room.id, { status: "QUEUE", agent_id: null });
        await logEvent(transaction, updated, "agent_absent", null, { from: room.agent_id });
        out.push(roomEvent(updated, "return_to_queue", "*", { from: room.agent_id, reason: "agent_absent" }, true));
      }
      if (rooms.length > 0) after.add(accountId);
      return rooms.length;
    });
  }
  return released;
}

// ---- agents ---------------------------------------------------------------------------------------

/** Sets the acting agent's status (restored by the client at connect; AVAILABLE may bring rooms). */
export async function setAgentStatus(ctx: SignedInCtx, status: AgentStatus) {
  assertAttendant(ctx);
  if (!AGENT_STATUSES.includes(status)) throw new AppError("VALIDATION", { fields: { status: ["validation.option"] } });
  const { accountId, userId } = ctx.actor;
  await db().query(
    `INSERT INTO live_agents (account_id, user_id, status, status_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (account_id, user_id) DO UPDATE SET status = EXCLUDED.status, status_at = now()`,
    { bind: [accountId, userId, status] },
  );
  await publishLive([{ accountId, event: "agent_status", to: "*", data: { user_id: userId, status } }]);
  if (status === "AVAILABLE") await distribute(accountId);
  return { status };
}

/** Takes a queued room (manual pick, or `next` = the oldest of the agent's departments). */
export async function takeRoom(ctx: SignedInCtx, roomId: string | null) {
  assertAttendant(ctx);
  const { accountId, userId } = ctx.actor;
  return transition(async (transaction, out) => {
    let room: Room | undefined;
    if (roomId) room = await lockRoom(accountId, roomId, transaction);
    else {
      room = await one<Room>(
        `SELECT r.* FROM live_rooms r WHERE r.account_id = $1 AND r.status = 'QUEUE'
           AND (r.department_id IS NULL OR r.department_id = (SELECT department_id FROM memberships WHERE account_id = $1 AND user_id = $2)
                OR EXISTS (SELECT 1 FROM live_agent_departments d WHERE d.account_id = $1 AND d.user_id = $2 AND d.department_id = r.department_id))
         ORDER BY r.queued_at, r.id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [accountId, userId],
        { transaction },
      );
      if (!room) throw new AppError("LIVE_QUEUE_EMPTY");
    }
    if (room.status !== "QUEUE") throw new AppError("LIVE_ROOM_STATE");
    await assertCapacity(accountId, userId, transaction);
    out.push(...(await assign(transaction, room, userId, userId)));
    return await lockRoom(accountId, room.id, transaction);
  });
}

/** The room, if the actor may act on it as its attending agent (or a supervisor). */
function assertMine(ctx: SignedInCtx, room: Room) {
  if (room.agent_id !== ctx.actor.userId && !isSupervisor(ctx.actor)) throw new AppError("FORBIDDEN");
}

export type AgentMessageInput = { body: string; attachments?: Attachment[]; clientId?: string | null; suggestions?: readonly string[] | null };

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
  const body = (input.body ?? "").trim();
  if (!body && !input.attachments?.length) throw new AppError("VALIDATION", { fields: { body: ["validation.required"] } });
  if (body.length > 4096) throw new AppError("VALIDATION", { fields: { body: ["validation.maxLength::4096"] } });
  const suggestions = cleanSuggestions(input.suggestions);
  return transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    if (room.status !== "OPEN") throw new AppError("LIVE_ROOM_STATE");
    if (room.agent_id !== ctx.actor.userId) throw new AppError("FORBIDDEN");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    const clientId = input.clientId ? String(input.clientId).slice(0, 100) : null;
    const message = await one<LiveMessage>(
      `INSERT INTO live_messages (account_id, room_id, author, user_id, body, attachments, client_id, suggestions)
       VALUES ($1, $2, 'agent', $3, $4, $5::jsonb, $6, $7::jsonb) ON CONFLICT (room_id, client_id) WHERE client_id IS NOT NULL DO NOTHING RETURNING *`,
      [room.account_id, room.id, ctx.actor.userId, body, JSON.stringify(input.attachments ?? []), clientId, JSON.stringify(suggestions)],
      { transaction },
    );
    if (!message) return (await one<LiveMessage>(`SELECT * FROM live_messages WHERE room_id = $1 AND client_id = $2`, [room.id, clientId], { transaction }))!;
    const updated = await updateRoom(transaction, room.id, {
      last_message: body.slice(0, 200) || null,
      last_message_type: input.attachments?.length ? input.attachments[0].type : "text",
      last_message_at: message.created_at,
      idle: false,
    });
    // Channels other than the webchat are reached through the worker (pipeline step 2).
    if (room.channel !== "webchat") {
      await db().query(`INSERT INTO outbox (topic, payload) VALUES ('live:outbound', jsonb_build_object('message_id', $1::text))`, { bind: [message.id], transaction });
    }
    out.push(roomEvent(updated, "send", [ctx.actor.userId], { message: messageView(message) }, true));
    return message;
  });
}

/** Closes the room (the attending agent or a supervisor); a required tabulation must be set. */
export async function closeRoom(ctx: SignedInCtx, roomId: string, input: { tabulationId?: string | null } = {}) {
  assertAttendant(ctx);
  return transition(async (transaction, out, after) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    if (room.status === "CLOSED") throw new AppError("LIVE_ROOM_STATE");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    let tabulationId = room.tabulation_id;
    if (input.tabulationId) tabulationId = await assertTabulation(room.account_id, input.tabulationId, transaction);
    const settings = await liveSettings(room.account_id, { transaction });
    if (settings.tabulation_required && !tabulationId) throw new AppError("LIVE_TABULATION_REQUIRED");
    const updated = await updateRoom(transaction, room.id, { status: "CLOSED", closed_at: new Date(), tabulation_id: tabulationId, close_reason: "closed", idle: false });
    await logEvent(transaction, updated, "closed", ctx.actor.userId, { tabulation_id: tabulationId });
    out.push(roomEvent(updated, "close", "*", {}, true));
    after.add(room.account_id);
    return updated;
  });
}

async function assertTabulation(accountId: string, tabulationId: string, transaction: Transaction): Promise<string> {
  assertId(tabulationId);
  const tab = await one<{ id: string }>(`SELECT id FROM live_tabulations WHERE id = $1 AND account_id = $2 AND active`, [tabulationId, accountId], { transaction });
  if (!tab) throw new AppError("VALIDATION", { fields: { tabulation_id: ["validation.option"] } });
  return tab.id;
}

/** Sets the room's tabulation (PUT webchat/tabs/{tabId}/room). */
export async function setTabulation(ctx: SignedInCtx, roomId: string, tabulationId: string) {
  assertAttendant(ctx);
  return transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    const id = await assertTabulation(room.account_id, tabulationId, transaction);
    const updated = await updateRoom(transaction, room.id, { tabulation_id: id });
    await logEvent(transaction, updated, "tabulation", ctx.actor.userId, { tabulation_id: id });
    out.push(roomEvent(updated, "room_updated", room.agent_id ? [room.agent_id] : "*"));
    return updated;
  });
}

/** Replaces the room's tags (PUT webchat/room-tags/{roomId}). */
export async function setRoomTags(ctx: SignedInCtx, roomId: string, tags: string[]) {
  assertAttendant(ctx);
  const clean = [...new Set(tags.map((t) => String(t).trim()).filter(Boolean))];
  if (clean.length > 20 || clean.some((t) => t.length > 40)) throw new AppError("VALIDATION", { fields: { tags: ["validation.invalid"] } });
  return transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    const updated = await updateRoom(transaction, room.id, { tags: clean });
    await logEvent(transaction, updated, "tags", ctx.actor.userId, { tags: clean });
    out.push(roomEvent(updated, "room_updated", room.agent_id ? [room.agent_id] : "*"));
    return updated;
  });
}

export const ROOM_CONTACT_FIELDS = ["username", "email", "phone"] as const;
export type RoomContactPatch = Partial<Record<(typeof ROOM_CONTACT_FIELDS)[number], string | null>>;

type ContactField = (typeof ROOM_CONTACT_FIELDS)[number];

/** Control characters and the invisible direction marks (LRM/RLM/ALM, embeddings U+202A–U+202E, isolates U+2066–U+2069) that make a name read other than it is. */
// eslint-disable-next-line no-control-regex
const HIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** One contact field as a person typed it: trimmed; e-mail checked and lower-cased (the sign-up's rule); phone in E.164 (spec section 5); a name of plain text up to 120. Answers the value or a locale key. */
function cleanContactField(field: ContactField, raw: string | null | undefined): { value: string | null } | { error: string } {
  const value = (raw ?? "").replace(/\s+/g, " ").trim();
  if (!value) return { value: null };
  if (field === "username") {
    if (value.length > 120) return { error: "validation.maxLength::120" };
    if (HIDDEN_CHARACTERS.test(value)) return { error: "validation.plainText" };
    return { value };
  }
  if (field === "email") {
    const parsed = emailSchema.safeParse(value);
    return parsed.success ? { value: parsed.data } : { error: parsed.error.issues[0]?.message ?? "validation.email" };
  }
  const phone = normalizePhone(value);
  return phone ? { value: phone } : { error: "validation.phone" };
}

/**
 * A room's contact fields (name, e-mail, phone) as an agent or a widget visitor typed them, cleaned
 * by one rule; every bad one is named in one 422, under the caller's own field names (the widget
 * posts `name`, the agents' API `username`). Fields not given stay absent.
 */
export function cleanRoomContact(patch: RoomContactPatch, names: Partial<Record<ContactField, string>> = {}): Partial<Record<ContactField, string | null>> {
  const out: Partial<Record<ContactField, string | null>> = {};
  const fields: Record<string, string[]> = {};
  for (const field of ROOM_CONTACT_FIELDS) {
    if (!(field in patch)) continue;
    const r = cleanContactField(field, patch[field]);
    if ("error" in r) fields[names[field] ?? field] = [r.error];
    else out[field] = r.value;
  }
  if (Object.keys(fields).length > 0) throw new AppError("VALIDATION", { fields });
  return out;
}

/**
 * The attending agent (or a supervisor) corrects the visitor's name, e-mail or phone on the room
 * (PUT webchat/contact/{id}). A room without a contact is linked to the account's contact with
 * that e-mail or mobile (created when there is none); a linked contact only gets its empty fields
 * filled, never overwritten (the contact's own screen edits it).
 */
export async function updateRoomContact(ctx: SignedInCtx, roomId: string, patch: RoomContactPatch) {
  assertAttendant(ctx);
  const set: Partial<Record<keyof Room, unknown>> = cleanRoomContact(patch);
  if (Object.keys(set).length === 0) throw new AppError("VALIDATION", { fields: { field: ["validation.required"] } });
  if ("username" in set && !set.username) set.username = "";
  return transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    let updated = await updateRoom(transaction, room.id, set);
    if (!updated.contact_id) {
      const contactId = await contactFor(
        {
          accountId: updated.account_id,
          channel: updated.channel,
          externalId: updated.external_id,
          body: "",
          username: updated.username,
          email: updated.email,
          phone: updated.phone,
        },
        transaction,
      );
      if (contactId) updated = await updateRoom(transaction, room.id, { contact_id: contactId });
    } else {
      const space = (updated.username ?? "").indexOf(" ");
      await db().query(
        `UPDATE contacts SET
           first_name = COALESCE(NULLIF(first_name, ''), $3),
           last_name = COALESCE(NULLIF(last_name, ''), $4),
           email = COALESCE(NULLIF(email, ''), $5),
           mobile_number = COALESCE(mobile_number, CASE WHEN NOT EXISTS (SELECT 1 FROM contacts o WHERE o.account_id = $2 AND o.mobile_number = $6) THEN $6 END),
           updated_at = now()
         WHERE id = $1 AND account_id = $2`,
        {
          bind: [
            updated.contact_id,
            updated.account_id,
            updated.username ? (space > 0 ? updated.username.slice(0, space) : updated.username) : null,
            updated.username && space > 0 ? updated.username.slice(space + 1) : null,
            updated.email,
            updated.phone,
          ],
          transaction,
        },
      );
    }
    await logEvent(transaction, updated, "contact", ctx.actor.userId, set);
    out.push(roomEvent(updated, "room_updated", room.agent_id ? [room.agent_id] : "*"));
    return updated;
  });
}

/** Offers the room to another agent; it is locked until they accept or refuse. */
export async function transferToAgent(ctx: SignedInCtx, roomId: string, toUserId: string) {
  assertAttendant(ctx);
  assertId(toUserId);
  return transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    if (room.status !== "OPEN") throw new AppError("LIVE_ROOM_STATE");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    if (toUserId === room.agent_id) throw new AppError("VALIDATION", { fields: { agent_id: ["validation.option"] } });
    const target = await one<{ user_id: string }>(
      `SELECT user_id FROM memberships WHERE account_id = $1 AND user_id = $2 AND (is_agent OR role IN (${SUPERVISOR_ROLES_SQL}))`,
      [room.account_id, toUserId],
      { transaction },
    );
    if (!target) throw new AppError("VALIDATION", { fields: { agent_id: ["validation.option"] } });
    const updated = await updateRoom(transaction, room.id, {
      locked: true,
      transfer_type: "agent",
      transfer_to_user_id: toUserId,
      transfer_to_department_id: null,
      transfer_by: ctx.actor.userId,
      transfer_at: new Date(),
    });
    await logEvent(transaction, updated, "transfer_agent", ctx.actor.userId, { to: toUserId });
    out.push(roomEvent(updated, "transfer_agent", [toUserId, room.agent_id!].filter(Boolean)));
    return updated;
  });
}

/** The offered agent accepts: the room (and its history) is theirs. */
export async function acceptTransfer(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    if (!room.locked || room.transfer_type !== "agent" || room.transfer_to_user_id !== ctx.actor.userId) throw new AppError("LIVE_ROOM_STATE");
    await assertCapacity(room.account_id, ctx.actor.userId, transaction);
    const previous = room.agent_id;
    const updated = await updateRoom(transaction, room.id, { agent_id: ctx.actor.userId, locked: false, transfer_to_user_id: null, assigned_at: new Date() });
    await logEvent(transaction, updated, "transfer_accept", ctx.actor.userId, { from: previous });
    out.push(roomEvent(updated, "transfer_accept", [ctx.actor.userId, previous ?? ""].filter(Boolean), { from: previous }, true));
    return updated;
  });
}

/** The offered agent refuses: the room returns to its department's queue. */
export async function refuseTransfer(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return transition(async (transaction, out, after) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    if (!room.locked || room.transfer_type !== "agent" || room.transfer_to_user_id !== ctx.actor.userId) throw new AppError("LIVE_ROOM_STATE");
    const previous = room.agent_id;
    const updated = await updateRoom(transaction, room.id, { status: "QUEUE", agent_id: null, locked: false, transfer_to_user_id: null, queued_at: new Date() });
    await logEvent(transaction, updated, "transfer_refused", ctx.actor.userId, { from: previous });
    out.push(roomEvent(updated, "transfer_refused", "*", { by: ctx.actor.userId, from: previous }, true));
    after.add(room.account_id);
    return updated;
  });
}

/** Sends the room to another department's queue; locked until an agent there takes it. */
export async function transferToDepartment(ctx: SignedInCtx, roomId: string, departmentId: string) {
  assertAttendant(ctx);
  assertId(departmentId);
  return transition(async (transaction, out, after) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    if (room.status !== "OPEN") throw new AppError("LIVE_ROOM_STATE");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    const dept = await one<{ id: string }>(`SELECT id FROM departments WHERE id = $1 AND account_id = $2 AND status = 'active'`, [departmentId, room.account_id], { transaction });
    if (!dept) throw new AppError("VALIDATION", { fields: { department_id: ["validation.option"] } });
    const previous = room.agent_id;
    const updated = await updateRoom(transaction, room.id, {
      status: "QUEUE",
      agent_id: null,
      department_id: departmentId,
      locked: true,
      transfer_type: "department",
      transfer_to_department_id: departmentId,
      transfer_to_user_id: null,
      transfer_by: ctx.actor.userId,
      transfer_at: new Date(),
      queued_at: new Date(),
    });
    await logEvent(transaction, updated, "transfer_department", ctx.actor.userId, { from: previous, department_id: departmentId });
    out.push(roomEvent(updated, "transfer_department", "*", { from: previous }, true));
    after.add(room.account_id);
    return updated;
  });
}

/** The agent gives the room back to the queue (`refuse` = an auto-assigned room the agent refuses: not offered to them again). */
export async function returnToQueue(ctx: SignedInCtx, roomId: string, opts: { refuse?: boolean } = {}) {
  assertAttendant(ctx);
  return transition(async (transaction, out, after) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    if (room.status !== "OPEN") throw new AppError("LIVE_ROOM_STATE");
    if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
    const updated = await updateRoom(transaction, room.id, { status: "QUEUE", agent_id: null, queued_at: new Date() });
    await logEvent(transaction, updated, opts.refuse ? "refused" : "returned", room.agent_id, {});
    out.push(roomEvent(updated, opts.refuse ? "room_refused" : "return_to_queue", "*", { from: room.agent_id }, true));
    after.add(room.account_id);
    return updated;
  });
}

/** Offline contact resumed by the agent: the room opens again with them (same protocol). */
export async function resumeOffline(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    if (room.status !== "CLOSED" || !room.offline || room.solved) throw new AppError("LIVE_ROOM_STATE");
    const active = await one<{ id: string }>(
      `SELECT id FROM live_rooms WHERE account_id = $1 AND channel = $2 AND external_id = $3 AND status <> 'CLOSED'`,
      [room.account_id, room.channel, room.external_id],
      { transaction },
    );
    if (active) throw new AppError("LIVE_ROOM_STATE");
    await assertCapacity(room.account_id, ctx.actor.userId, transaction);
    const updated = await updateRoom(transaction, room.id, {
      status: "OPEN",
      agent_id: ctx.actor.userId,
      offline: false,
      closed_at: null,
      close_reason: null,
      assigned_at: new Date(),
    });
    await logEvent(transaction, updated, "resumed", ctx.actor.userId, { from: "offline" });
    out.push(roomEvent(updated, "assigned", "*", {}, true));
    return updated;
  });
}

/** Offline contact marked solved (no conversation needed). */
export async function solveOffline(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    if (room.status !== "CLOSED" || !room.offline) throw new AppError("LIVE_ROOM_STATE");
    const updated = await updateRoom(transaction, room.id, { solved: true });
    await logEvent(transaction, updated, "solved", ctx.actor.userId, {});
    out.push(roomEvent(updated, "room_updated", "*"));
    return updated;
  });
}

/** Idle contact resumed: clears the idle flag. */
export async function resumeIdle(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  return transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    if (room.status !== "OPEN" || !room.idle) throw new AppError("LIVE_ROOM_STATE");
    const updated = await updateRoom(transaction, room.id, { idle: false });
    await logEvent(transaction, updated, "resumed", ctx.actor.userId, { from: "idle" });
    out.push(roomEvent(updated, "room_updated", room.agent_id ? [room.agent_id] : "*"));
    return updated;
  });
}

/**
 * Marks OPEN rooms idle when the visitor has not written for the account's idle_minutes while the
 * agent's message waits for an answer (worker sweep). Returns how many became idle.
 */
export async function sweepIdle(): Promise<number> {
  const changed = await rows<Room>(
    `UPDATE live_rooms r SET idle = true, updated_at = now()
     FROM live_settings s
     WHERE s.account_id = r.account_id AND r.status = 'OPEN' AND NOT r.idle
       AND r.last_message_at < now() - make_interval(mins => s.idle_minutes)
       AND (SELECT author FROM live_messages m WHERE m.room_id = r.id ORDER BY created_at DESC, id DESC LIMIT 1) = 'agent'
     RETURNING r.*`,
    [],
  );
  await publishLive(changed.map((room) => roomEvent(room, "room_updated", room.agent_id ? [room.agent_id] : "*")));
  return changed.length;
}

/** Visitor messages shown to the agent: DELIVERED (the client acknowledges after 500 ms). */
export async function markDelivered(ctx: SignedInCtx, roomId: string, ids: string[]) {
  return markVisitorMessages(ctx, roomId, "DELIVERED", ids);
}

/** The agent read the room: every visitor message READ, unread count 0. */
export async function markRead(ctx: SignedInCtx, roomId: string) {
  return markVisitorMessages(ctx, roomId, "READ", null);
}

async function markVisitorMessages(ctx: SignedInCtx, roomId: string, status: "DELIVERED" | "READ", ids: string[] | null) {
  assertAttendant(ctx);
  if (ids) ids.forEach(assertId);
  let seen: (() => void) | null = null;
  const n = await transition(async (transaction, out) => {
    const room = await lockRoom(ctx.actor.accountId, roomId, transaction);
    assertMine(ctx, room);
    // Forward only: SENT -> DELIVERED -> READ; never back, nothing after READ (or FAIL/DELETED).
    const from = status === "DELIVERED" ? ["SENT"] : ["SENT", "DELIVERED"];
    const changed = await rows<LiveMessage>(
      `UPDATE live_messages SET status = $2, delivered_at = COALESCE(delivered_at, now()), read_at = CASE WHEN $2 = 'READ' THEN now() ELSE read_at END, updated_at = now()
       WHERE room_id = $1 AND author = 'visitor' AND status = ANY($3::text[]) AND ($4::uuid[] IS NULL OR id = ANY($4::uuid[])) RETURNING *`,
      [room.id, status, from, ids],
      { transaction },
    );
    let updated = room;
    if (status === "READ" && room.unread_count !== 0) updated = await updateRoom(transaction, room.id, { unread_count: 0 });
    if (changed.length > 0)
      out.push(roomEvent(updated, status === "READ" ? "read" : "delivered", room.agent_id ? [room.agent_id] : "*", { ids: changed.map((m) => m.id), by: "agent" }, true));
    // Channels with read receipts of their own (Messenger/Instagram mark_seen, Business Messages READ) hear it too.
    if (status === "READ" && changed.length > 0 && room.channel !== "webchat") {
      const newest = changed.filter((m) => m.external_id).sort((a, b) => +new Date(b.created_at) - +new Date(a.created_at))[0];
      seen = () => channelSeen(room.account_id, room.channel, room.external_id, newest?.external_id ?? null);
    }
    return changed.length;
  });
  // After the commit, and never awaited.
  (seen as (() => void) | null)?.();
  return n;
}

// ---- reading ----------------------------------------------------------------------------------------

export const ROOMS_PER_PAGE = 20;
export const MESSAGES_PER_PAGE = 80;
export type RoomList = "queue" | "me" | "closed" | "offline" | "idle" | "all";

/** Each list's condition (w.uid = the acting user, w.sup = a supervisor). */
const LIST_WHERE: Record<RoomList, string> = {
  queue: `r.status = 'QUEUE'`,
  me: `r.status = 'OPEN' AND r.agent_id = w.uid`,
  idle: `r.status = 'OPEN' AND r.idle AND (w.sup OR r.agent_id = w.uid)`,
  closed: `r.status = 'CLOSED' AND NOT r.offline AND (w.sup OR r.agent_id = w.uid)`,
  offline: `r.status = 'CLOSED' AND r.offline AND NOT r.solved`,
  all: `w.sup OR r.agent_id = w.uid OR r.status = 'QUEUE'`,
};

const roomsQuerySchema = z.object({ page: pageParam() });
const roomsPageSchema = z.object({ ...pageInput, page: intParam(1, 100_000, undefined) });
const messagesQuerySchema = z.object({ limit: intParam(1, MESSAGES_PER_PAGE, MESSAGES_PER_PAGE) });

/** Each list's sort key and direction: the queue oldest first, the others by last activity, newest first. */
const listOrder = (list: RoomList) =>
  list === "queue" ? { key: `COALESCE(r.queued_at, r.created_at)`, dir: "ASC" as const } : { key: `COALESCE(r.last_message_at, r.created_at)`, dir: "DESC" as const };

export type RoomPageQuery = { cursor?: string; limit?: unknown; page?: unknown };

/**
 * A page of a room list for the acting agent (supervisors see everyone's), by keyset: `limit`
 * rooms (default 50) after `cursor` (the `next_cursor` of the previous page). The deprecated
 * `page` pages by OFFSET instead (20 a page unless `limit`) and adds page, last_page and total.
 */
export async function roomPage(ctx: SignedInCtx, list: RoomList, query: RoomPageQuery = {}) {
  assertAttendant(ctx);
  const q = validate(roomsPageSchema, { cursor: query.cursor, limit: query.limit, page: query.page });
  const after = timeIdCursor(q.cursor);
  const offsetPage = after ? undefined : q.page;
  const limit = offsetPage !== undefined && (query.limit === undefined || query.limit === "") ? ROOMS_PER_PAGE : q.limit;
  return fetchRooms(ctx, list, { after, limit, page: offsetPage });
}

async function fetchRooms(ctx: SignedInCtx, list: RoomList, opts: { after: [string, string] | null; limit: number; page?: number }) {
  const { accountId, userId } = ctx.actor;
  const { key, dir } = listOrder(list);
  const bind: unknown[] = [accountId, userId, isSupervisor(ctx.actor)];
  let seek = "";
  if (opts.after) {
    bind.push(opts.after[0], opts.after[1]);
    seek = `AND (${key}, r.id) ${dir === "ASC" ? ">" : "<"} ($4::timestamptz, $5::uuid)`;
  }
  const offset = opts.page !== undefined ? (opts.page - 1) * opts.limit : 0;
  const found = await rows<Room & { sort_key: string; total: number }>(
    `WITH w AS (SELECT $2::uuid AS uid, $3::boolean AS sup)
     SELECT r.*, ${sortTime(key)} AS sort_key${opts.page !== undefined ? ", count(*) OVER ()::int AS total" : ""}
       FROM live_rooms r, w WHERE r.account_id = $1 AND (${LIST_WHERE[list]}) ${seek}
      ORDER BY ${key} ${dir}, r.id ${dir} LIMIT ${opts.limit + 1} OFFSET ${offset}`,
    bind,
  );
  const page = keyset(found, opts.limit, (r) => [r.sort_key, r.id], roomSummary);
  if (opts.page === undefined) return page;
  const total = found[0]?.total ?? 0;
  return { ...page, page: opts.page, last_page: Math.max(1, Math.ceil(total / opts.limit)), total };
}

/** Rooms of a list for the acting agent (the workspace screen: page of 20, `page` as the query string has it). */
export async function listRooms(ctx: SignedInCtx, list: RoomList, page: unknown = 1) {
  assertAttendant(ctx);
  const { page: p } = validate(roomsQuerySchema, { page });
  const out = await fetchRooms(ctx, list, { after: null, limit: ROOMS_PER_PAGE, page: p });
  return out as typeof out & { page: number; last_page: number; total: number };
}

/** One room the actor may see (their own, queued, or any for a supervisor). */
export async function getRoom(ctx: SignedInCtx, roomId: string) {
  assertAttendant(ctx);
  assertId(roomId);
  const room = await one<Room>(`SELECT * FROM live_rooms WHERE id = $1 AND account_id = $2`, [roomId, ctx.actor.accountId]);
  if (!room) throw new AppError("NOT_FOUND");
  if (
    !isSupervisor(ctx.actor) &&
    room.agent_id !== ctx.actor.userId &&
    room.status !== "QUEUE" &&
    room.transfer_to_user_id !== ctx.actor.userId &&
    !(room.offline && room.status === "CLOSED")
  ) {
    throw new AppError("FORBIDDEN");
  }
  return room;
}

/**
 * A page of a room's messages, oldest first within the page: the newest `limit` (80; 30 for the
 * initial history) before `before` (a message id), so the thread loads upwards.
 */
export async function roomMessages(accountId: string, roomId: string, opts: { before?: string | null; limit?: unknown } = {}) {
  assertId(roomId);
  const { limit } = validate(messagesQuerySchema, { limit: opts.limit });
  if (opts.before) assertId(opts.before);
  const found = await rows<LiveMessage>(
    `SELECT m.* FROM live_messages m WHERE m.room_id = $1 AND m.account_id = $2
       AND ($3::uuid IS NULL OR (m.created_at, m.id) < (SELECT created_at, id FROM live_messages WHERE id = $3))
     ORDER BY m.created_at DESC, m.id DESC LIMIT ${limit + 1}`,
    [roomId, accountId, opts.before ?? null],
  );
  const more = found.length > limit;
  return { data: found.slice(0, limit).reverse().map(messageView), more };
}

/** The agent's load for the workspace header: open rooms and capacity. */
export async function myLoad(ctx: SignedInCtx) {
  assertAttendant(ctx);
  return db().transaction((t) => agentLoad(ctx.actor.accountId, ctx.actor.userId, t));
}

/** How many rooms each list holds for the acting agent (the workspace's tab counts) and the unread messages of my open rooms, in one scan. */
export async function roomCounts(ctx: SignedInCtx): Promise<Record<Exclude<RoomList, "all">, number> & { unread: number }> {
  assertAttendant(ctx);
  const lists = ["queue", "me", "closed", "offline", "idle"] as const;
  const row = await one<Record<(typeof lists)[number] | "unread", number>>(
    `WITH w AS (SELECT $2::uuid AS uid, $3::boolean AS sup)
     SELECT ${lists.map((l) => `count(*) FILTER (WHERE ${LIST_WHERE[l]})::int AS ${l}`).join(", ")},
       COALESCE(sum(r.unread_count) FILTER (WHERE ${LIST_WHERE.me}), 0)::int AS unread
     FROM live_rooms r, w WHERE r.account_id = $1`,
    [ctx.actor.accountId, ctx.actor.userId, isSupervisor(ctx.actor)],
  );
  return row!;
}
