/**
 * The flow runtime in the worker (issue 20, ADR 054). A stream's work is its unconsumed
 * `flow_inputs` rows; an entry {stream_id} on `flows:events` only says "look at it".
 *
 * `runStream(id)` is one transaction: the room and the stream are locked (room first, as every room
 * use-case does; the stream FOR NO KEY UPDATE so a visitor's input, whose FK takes KEY SHARE on
 * it, never deadlocks with it), the inputs are taken in id order, the engine (./engine.ts, pure)
 * walks each, and every step's effect (bot messages, contact fields, tags, groups, the hand-off,
 * the end) is written with the steps, the stream's new position and the inputs marked consumed.
 * A kill at any point commits all of it or nothing; a redelivered entry finds nothing to do. An
 * HTTP step's call is made inside the handler (the lock held), with the Idempotency-Key
 * `<stream>:<seq>`: at least once towards the outside.
 *
 * `sweepFlows` (every FLOW_SWEEP_MS, once across the workers) is the durable path: due timers
 * become 'timer' inputs, and streams with inputs older than FLOW_RECOVER_MS are announced again.
 */
import type { Transaction } from "sequelize";
import { idsInStream } from "../dispatch/recovery";
import { startConsumer } from "../jobs/runner";
import { env } from "../lib/env";
import { UUID } from "../lib/owned";
import type { SenderCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { isOutboundError, outboundFetch } from "../lib/outbound";
import type { LiveMessaging } from "../live/adapters";
import { liveAdapter } from "../live/messaging";
import { exec, row, rows } from "../lib/sql";
import { isOpen } from "../live/hours";
import { settingsRow } from "../live/settings";
import { contactFor } from "../live/rooms/contact";
import { inRoomTransaction } from "../live/rooms/transaction";
import { changeRoom, notify, type RoomWork } from "../live/rooms/transition";
import type { Attachment, LiveMessage, Room } from "../live/rooms/types";
import { messageView } from "../live/rooms/views";
import type { FlowDefinition } from "./definition";
import { advance, type Effect, type EngineInput, type Facts, FlowRunError, type HttpResult, type Step, type StreamState, type StreamStatus } from "./engine";
import { FLOW_EVENTS_STREAM, wakeStreams } from "./triggers";

type StreamRow = StreamState & { id: string; account_id: string; flow_id: string; version: number; room_id: string; contact_id: string | null; channel: string };
type InputRow = { id: string; kind: "message" | "timer" | "start"; body: string | null };

/** The most an HTTP step reads of an answer. */
export const HTTP_MAX_BYTES = 64 * 1024;

/** Published versions never change: kept once read. */
const versions = new Map<string, FlowDefinition>();
async function definitionOf(flowId: string, version: number, transaction: Transaction): Promise<FlowDefinition> {
  const key = `${flowId}:${version}`;
  const cached = versions.get(key);
  if (cached) return cached;
  const v = await row<{ definition: FlowDefinition }>(`SELECT definition FROM flow_versions WHERE flow_id = $1 AND version = $2`, [flowId, version], { transaction });
  if (!v) throw new FlowRunError(`version ${version} of flow ${flowId} is missing`);
  if (versions.size > 1000) versions.clear();
  versions.set(key, v.definition);
  return v.definition;
}

/** Contact columns a flow may set by name; any other name goes to the contact's custom fields. */
const CONTACT_COLUMNS = new Set(["first_name", "last_name", "email", "company", "website", "address", "district", "zip", "city", "state", "country", "description"]);

type ContactRow = {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  mobile_number: string | null;
  phone: string | null;
  tags: string[];
  custom: Record<string, unknown>;
};

async function factsOf(room: Room, def: FlowDefinition, now: Date, transaction: Transaction): Promise<Facts> {
  const c = room.contact_id
    ? await row<ContactRow & Record<string, unknown>>(`SELECT * FROM contacts WHERE id = $1 AND account_id = $2`, [room.contact_id, room.account_id], { transaction })
    : null;
  const contact: Facts["contact"] = {};
  if (c) {
    for (const [k, v] of Object.entries(c.custom ?? {})) if (v !== null && typeof v !== "object") contact[k] = String(v);
    for (const k of CONTACT_COLUMNS) if (c[k] !== null && c[k] !== undefined) contact[k] = String(c[k]);
  }
  const name = [c?.first_name, c?.last_name].filter(Boolean).join(" ");
  contact.name = name || room.username || null;
  contact.first_name = c?.first_name || (room.username ? room.username.split(" ")[0] : null);
  contact.email = c?.email || room.email;
  contact.phone = c?.mobile_number || c?.phone || room.phone;
  const hours = def.nodes.some((n) => n.type === "condition" && n.data.rules.some((r) => r.subject === "opening_hours"));
  return { contact, roomTags: room.tags ?? [], contactTags: c?.tags ?? [], open: hours ? await isOpen(room.account_id, now, room.department_id) : true };
}

/** The HTTP step's call through the guarded client (ADR 021), never throwing: a failure is the 'error' output. */
export async function callHttp(pending: NonNullable<ReturnType<typeof advance>["pending"]>, streamId: string): Promise<HttpResult> {
  try {
    const res = await outboundFetch(pending.url, {
      method: pending.method,
      headers: { "Idempotency-Key": `${streamId}:${pending.seq}`, Accept: "application/json", ...(pending.body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: pending.method === "POST" ? (pending.body ?? "") : undefined,
      timeoutMs: pending.timeout_ms,
      maxBytes: HTTP_MAX_BYTES,
    });
    let json: unknown = null;
    try {
      json = res.json();
    } catch {}
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, json, error: ok ? null : `HTTP ${res.status}` };
  } catch (e) {
    return { ok: false, status: isOutboundError(e) ? (e.status ?? null) : null, json: null, error: isOutboundError(e) ? e.message : "failed" };
  }
}

function mediaAttachment(url: string): Attachment {
  const name = decodeURIComponent(new URL(url).pathname.split("/").pop() || "file").slice(0, 200);
  const ext = name.split(".").pop()?.toLowerCase() ?? "";
  const [type, media_type]: [Attachment["type"], string] = ["jpg", "jpeg"].includes(ext)
    ? ["image", "image/jpeg"]
    : ext === "png"
      ? ["image", "image/png"]
      : ext === "gif"
        ? ["image", "image/gif"]
        : ext === "webp"
          ? ["image", "image/webp"]
          : ext === "mp4"
            ? ["video", "video/mp4"]
            : ext === "mp3"
              ? ["audio", "audio/mpeg"]
              : ext === "ogg"
                ? ["audio", "audio/ogg"]
                : ["document", ext === "pdf" ? "application/pdf" : "application/octet-stream"];
  return { type, uri: url, media_type, name, size: 0 };
}

/** The account's flow bot as the sender of a pipeline message: no user (the audit names nobody), no role (ADR 054). */
export const botSender = (accountId: string): SenderCtx => ({ actor: { accountId, userId: null } });

/** The choices as a numbered list under the text, for a channel that shows no buttons ("1. Sim\n2. Não"; the number is an answer). */
export function numbered(body: string, buttons: readonly string[]): string {
  if (!buttons.length) return body;
  const list = buttons.map((b, i) => `${i + 1}. ${b}`).join("\n");
  return body ? `${body}\n\n${list}` : list;
}

/** A refused accept's reason, as the agent is told it: the validation key, else `errors:<CODE>`. */
function refusalOf(e: AppError): string {
  const first = Object.values(e.fields ?? {})[0]?.[0];
  return (first ?? `errors:${e.code}`).slice(0, 500);
}

type BotMessage = { body: string; attachments: Attachment[]; suggestions: string[]; message_id: string | null; status: "SENT" | "FAIL"; error: string | null };

/**
 * A channel whose messages go through the pipeline (WhatsApp, `adapter.accept`): each bot message is
 * accepted there as an agent's is (priced, debited, its outbox row), inside a SAVEPOINT of the wake's
 * transaction, so a refusal (opted-out or denied contact, closed window, number gone, no balance)
 * rolls back only that message's writes: it is stored FAIL with the reason and the wake goes on
 * (`wake.noBalance` makes the runner hand the room to the team).
 */
async function acceptEach(w: RoomWork, room: Room, adapter: LiveMessaging, list: BotMessage[], wake: Wake): Promise<void> {
  const t = { transaction: w.transaction };
  for (const m of list) {
    await exec("SAVEPOINT flow_bot_send", [], t);
    try {
      const got = await adapter.accept!(botSender(room.account_id), room, { body: m.body, attachments: m.attachments, template: null, suggestions: m.suggestions }, w.transaction);
      await exec("RELEASE SAVEPOINT flow_bot_send", [], t);
      m.body = got.body;
      m.message_id = got.messageId;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      await exec("ROLLBACK TO SAVEPOINT flow_bot_send", [], t);
      m.status = "FAIL";
      m.error = refusalOf(e);
      if (e.code === "INSUFFICIENT_BALANCE") wake.noBalance = true;
    }
  }
}

/**
 * The bot's messages in the room, in order (one INSERT): stored, announced after COMMIT, sent out
 * through the channel as an agent's are — the live:outbound outbox row off the webchat, or, on a
 * channel whose messages go through the pipeline (WhatsApp), accepted there first (`acceptEach`;
 * `message_id` names the pipeline's message, no outbox row). A channel without buttons gets the
 * choices numbered in the text (they stay the message's suggestions). The room's last message is
 * written once per wake (`Wake.last`).
 */
async function sendBot(w: RoomWork, room: Room, sends: Array<Extract<Effect, { type: "send" }>>, wake: Wake): Promise<void> {
  if (!sends.length) return;
  const adapter = liveAdapter(room.channel);
  const list: BotMessage[] = sends.map((e) => ({
    body: adapter?.noSuggestions ? numbered(e.text, e.buttons ?? []) : e.text,
    attachments: e.media_url ? [mediaAttachment(e.media_url)] : [],
    suggestions: e.buttons ?? [],
    message_id: null,
    status: "SENT",
    error: null,
  }));
  if (adapter?.accept) await acceptEach(w, room, adapter, list, wake);
  const messages = await rows<LiveMessage>(
    `INSERT INTO live_messages (account_id, room_id, author, body, attachments, suggestions, message_id, status, error, created_at)
     SELECT $1, $2, 'bot', x.body, x.attachments, x.suggestions, x.message_id, x.status, x.error, clock_timestamp()
       FROM ROWS FROM (jsonb_to_recordset($3::jsonb) AS (body text, attachments jsonb, suggestions jsonb, message_id uuid, status text, error text))
            WITH ORDINALITY AS x(body, attachments, suggestions, message_id, status, error, n)
      ORDER BY x.n RETURNING *`,
    [room.account_id, room.id, JSON.stringify(list)],
    { transaction: w.transaction },
  );
  messages.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || 0);
  if (room.channel !== "webchat" && !adapter?.accept)
    await exec(
      `INSERT INTO outbox (topic, payload) SELECT 'live:outbound', jsonb_build_object('message_id', id::text) FROM unnest($1::uuid[]) AS id`,
      [messages.map((m) => m.id)],
      {
        transaction: w.transaction,
      },
    );
  for (const m of messages) notify(w, room, { event: "send", to: "*", extra: { message: messageView(m) }, visitor: true });
  const last = messages[messages.length - 1];
  wake.last = { last_message: last.body.slice(0, 200) || null, last_message_type: last.attachments[0]?.type ?? "text", last_message_at: last.created_at };
}

/** What a wake writes once at its end; `noBalance`: a bot message found no balance (the stream fails, the room goes to the team). */
type Wake = { last: Record<string, unknown> | null; noBalance?: boolean };

/** The room's contact, created from the room's details when it has none (a field or group needs one). */
async function contactOf(w: RoomWork, room: Room): Promise<{ room: Room; contactId: string | null }> {
  if (room.contact_id) return { room, contactId: room.contact_id };
  const id = await contactFor({ accountId: room.account_id, username: room.username, email: room.email, phone: room.phone }, w.transaction);
  if (!id) return { room, contactId: null };
  return { room: await changeRoom(w, room, { set: { contact_id: id } }), contactId: id };
}

async function setField(w: RoomWork, room: Room, name: string, value: string): Promise<Room> {
  const got = await contactOf(w, room);
  room = got.room;
  // The room shows the visitor's name, e-mail and phone: kept in step.
  const roomSet: Record<string, unknown> = {};
  if (name === "name" || name === "first_name") roomSet.username = value.slice(0, 120);
  if (name === "email") roomSet.email = value;
  if (name === "phone") roomSet.phone = value;
  if (Object.keys(roomSet).length) room = await changeRoom(w, room, { set: roomSet });
  if (!got.contactId) return room;
  const t = { transaction: w.transaction };
  if (name === "name") {
    const space = value.indexOf(" ");
    await exec(
      `UPDATE contacts SET first_name = $3, last_name = $4, updated_at = now() WHERE id = $1 AND account_id = $2`,
      [got.contactId, room.account_id, space > 0 ? value.slice(0, space) : value, space > 0 ? value.slice(space + 1) : null],
      t,
    );
  } else if (name === "phone") {
    const e164 = `+${value.replace(/\D/g, "")}`;
    const mobile =
      /^\+[1-9][0-9]{7,14}$/.test(e164) &&
      !(await row(`SELECT 1 FROM contacts WHERE account_id = $1 AND mobile_number = $2 AND id <> $3`, [room.account_id, e164, got.contactId], t));
    await exec(
      `UPDATE contacts SET phone = $3, mobile_number = CASE WHEN $4 THEN $5 ELSE mobile_number END, updated_at = now() WHERE id = $1 AND account_id = $2`,
      [got.contactId, room.account_id, value, mobile, e164],
      t,
    );
  } else if (CONTACT_COLUMNS.has(name)) {
    await exec(`UPDATE contacts SET ${name} = $3, updated_at = now() WHERE id = $1 AND account_id = $2`, [got.contactId, room.account_id, value], t);
  } else {
    await exec(
      `UPDATE contacts SET custom = custom || jsonb_build_object($3::text, $4::text), updated_at = now() WHERE id = $1 AND account_id = $2`,
      [got.contactId, room.account_id, name, value],
      t,
    );
  }
  return room;
}

async function tag(w: RoomWork, room: Room, op: "add" | "remove", name: string): Promise<Room> {
  const has = room.tags.some((t) => t.toLowerCase() === name.toLowerCase());
  const tags = op === "add" ? (has ? room.tags : [...room.tags, name]) : room.tags.filter((t) => t.toLowerCase() !== name.toLowerCase());
  if (tags !== room.tags) room = await changeRoom(w, room, { set: { tags }, log: { type: "tags", actor: null, payload: { tags, by: "flow" } } });
  if (room.contact_id)
    await exec(
      op === "add"
        ? `UPDATE contacts SET tags = CASE WHEN $3 = ANY(tags) THEN tags ELSE array_append(tags, $3) END, updated_at = now() WHERE id = $1 AND account_id = $2`
        : `UPDATE contacts SET tags = array_remove(tags, $3), updated_at = now() WHERE id = $1 AND account_id = $2`,
      [room.contact_id, room.account_id, name],
      { transaction: w.transaction },
    );
  return room;
}

async function addToGroup(w: RoomWork, room: Room, name: string): Promise<Room> {
  const got = await contactOf(w, room);
  if (!got.contactId) return got.room;
  const t = { transaction: w.transaction };
  await exec(`INSERT INTO contact_groups (account_id, name) VALUES ($1, $2) ON CONFLICT (account_id, lower(name)) DO NOTHING`, [room.account_id, name], t);
  await exec(
    `INSERT INTO contact_group_members (group_id, contact_id, account_id)
     SELECT g.id, $3, g.account_id FROM contact_groups g WHERE g.account_id = $1 AND lower(g.name) = lower($2) ON CONFLICT DO NOTHING`,
    [room.account_id, name, got.contactId],
    t,
  );
  return got.room;
}

/** BOT → QUEUE: the room joins its (or the step's) department's queue as a new room does, and is distributed. */
async function handToQueue(w: RoomWork, room: Room, departmentId: string | null, why: string): Promise<Room> {
  if (room.status !== "BOT") return room;
  let department = room.department_id;
  if (departmentId && UUID.test(departmentId)) {
    const d = await row<{ id: string }>(`SELECT id FROM departments WHERE id = $1 AND account_id = $2`, [departmentId, room.account_id], { transaction: w.transaction });
    if (d) department = d.id;
  }
  const settings = await settingsRow(room.account_id, w.transaction);
  return changeRoom(w, room, {
    move: "handoff",
    set: { queued_at: new Date(), department_id: department, agent_id: null },
    log: { type: "queued", actor: null, payload: { from: "flow", reason: why } },
    notify: { event: "queued", to: "*", visitor: true },
    distribute: settings.acceptance_option === "automatic",
  });
}

/** BOT → CLOSED with close_reason 'flow'. */
function closeByFlow(w: RoomWork, room: Room): Promise<Room> | Room {
  if (room.status !== "BOT") return room;
  return changeRoom(w, room, {
    move: "botClose",
    set: { closed_at: new Date(), close_reason: "flow", idle: false },
    log: { type: "closed", actor: null, payload: { reason: "flow" } },
    notify: { event: "close", to: "*", visitor: true },
  });
}

/** Carries out the steps' effects in order (consecutive messages in one INSERT). */
async function applyEffects(w: RoomWork, room: Room, steps: Step[], wake: Wake): Promise<Room> {
  let sends: Array<Extract<Effect, { type: "send" }>> = [];
  const flush = async () => {
    await sendBot(w, room, sends, wake);
    sends = [];
  };
  for (const s of steps)
    for (const e of s.effects) {
      if (e.type === "send") {
        sends.push(e);
        continue;
      }
      await flush();
      if (e.type === "set_field") room = await setField(w, room, e.name, e.value);
      else if (e.type === "tag") room = await tag(w, room, e.op, e.name);
      else if (e.type === "group") room = await addToGroup(w, room, e.name);
      else if (e.type === "handoff") room = await handToQueue(w, room, e.department_id, "handoff");
    }
  await flush();
  return room;
}

/**
 * The wake's steps, the inputs it consumed and the stream's new position, in one statement (the
 * steps' seq are unique per stream: a second writer of the same step would fail the transaction).
 */
async function saveState(transaction: Transaction, stream: StreamRow, s: StreamState, steps: Step[], consumed: string[]) {
  const live = s.status === "running" || s.status === "waiting";
  await exec(
    `WITH steps AS (
       INSERT INTO flow_steps (account_id, stream_id, seq, node_id, node_type, output, detail, vars)
       SELECT $12, $1, x.seq, x.node_id, x.node_type, x.output, x.detail, x.vars
         FROM jsonb_to_recordset($13::jsonb) AS x(seq int, node_id text, node_type text, output text, detail jsonb, vars jsonb)),
     consumed AS (UPDATE flow_inputs SET consumed_at = now() WHERE stream_id = $1 AND consumed_at IS NULL AND id = ANY($11::bigint[]))
     UPDATE flow_streams SET status = $2, node_id = $3, waiting = $4, wake_at = $5, retries_left = $6, vars = $7::jsonb, steps = $8, reason = $9,
            ended_at = CASE WHEN $10 THEN NULL ELSE coalesce(ended_at, now()) END, updated_at = now() WHERE id = $1`,
    [
      stream.id,
      s.status,
      s.node_id,
      s.waiting,
      s.wake_at,
      s.retries_left,
      JSON.stringify(s.vars),
      s.steps,
      s.reason ?? null,
      live,
      consumed,
      stream.account_id,
      JSON.stringify(steps.map(({ effects: _, ...x }) => x)),
    ],
    { transaction },
  );
}

/**
 * Locks the stream's room, then the stream, and reads its unconsumed inputs in id order; null when
 * the stream does not exist. Inputs are written under the room's lock (visitorMessage), so every
 * input committed before this lock was taken is seen by the stream's statement.
 */
async function lockStream(transaction: Transaction, streamId: string, accountId?: string): Promise<{ stream: StreamRow; room: Room; inputs: InputRow[] } | null> {
  const room = await row<Room>(
    `SELECT r.* FROM flow_streams s JOIN live_rooms r ON r.id = s.room_id AND r.account_id = s.account_id
      WHERE s.id = $1 AND ($2::uuid IS NULL OR s.account_id = $2) FOR UPDATE OF r`,
    [streamId, accountId ?? null],
    { transaction },
  );
  if (!room) return null;
  const stream = await row<StreamRow & { inputs: InputRow[] | null }>(
    `SELECT s.*, (SELECT json_agg(json_build_object('id', i.id::text, 'kind', i.kind, 'body', i.body) ORDER BY i.id)
                    FROM flow_inputs i WHERE i.stream_id = s.id AND i.consumed_at IS NULL) AS inputs
       FROM flow_streams s WHERE s.id = $1 FOR NO KEY UPDATE`,
    [streamId],
    { transaction },
  );
  if (!stream) return null;
  const { inputs, ...rest } = stream;
  return { stream: rest as StreamRow, room, inputs: inputs ?? [] };
}

/**
 * Handles one `flows:events` entry: applies every unconsumed input of the stream in one
 * transaction (see the module comment). Answers how many steps were taken.
 */
export async function runStream(streamId: string): Promise<number> {
  if (!UUID.test(streamId ?? "")) return 0;
  try {
    return await inRoomTransaction(async (w) => {
      const { transaction } = w;
      const locked = await lockStream(transaction, streamId);
      if (!locked) return 0;
      const { stream, inputs } = locked;
      let room = locked.room;
      if (!inputs.length) return 0;
      const wake: Wake = { last: null };
      const steps: Step[] = [];
      let taken = 0;
      let state: StreamState = { ...stream, wake_at: stream.wake_at ? new Date(stream.wake_at) : null };
      if (state.status === "running" || state.status === "waiting") {
        const def = await definitionOf(stream.flow_id, stream.version, transaction);
        const now = new Date();
        for (const input of inputs) {
          let engineInput: EngineInput = input.kind === "message" ? { kind: "message", body: input.body ?? "" } : { kind: input.kind };
          for (;;) {
            const facts = await factsOf(room, def, now, transaction);
            const r = advance(def, state, engineInput, facts, now);
            state = r.state;
            taken += r.steps.length;
            if (taken > 100) throw new FlowRunError("more than 100 steps in one wake");
            steps.push(...r.steps);
            room = await applyEffects(w, room, r.steps, wake);
            if (!r.pending || wake.noBalance) break;
            engineInput = { kind: "http", result: await callHttp(r.pending, stream.id) };
          }
          if (wake.noBalance) {
            // The bot cannot speak without balance: the stream ends failed and a person takes the room.
            state = { ...state, status: "failed", reason: "errors:INSUFFICIENT_BALANCE", waiting: null, wake_at: null };
            room = await handToQueue(w, room, null, "no_balance");
            break;
          }
          if (state.status === "finished" || state.status === "dropped") room = await closeByFlow(w, room);
          if (state.status !== "running" && state.status !== "waiting") break;
        }
        if (wake.last) room = await changeRoom(w, room, { set: wake.last });
      }
      await saveState(
        transaction,
        stream,
        state,
        steps,
        inputs.map((i) => i.id),
      );
      return taken;
    });
  } catch (e) {
    if (!(e instanceof FlowRunError)) throw e;
    await endStream(streamId, "failed", e.message);
    return 0;
  }
}

/**
 * Ends a live stream as failed or cancelled: its inputs consumed, the reason kept, and the room
 * handed to the queue so the visitor is never left with nobody. Answers whether it was live.
 */
export async function endStream(streamId: string, status: Extract<StreamStatus, "failed" | "cancelled">, reason: string, accountId?: string): Promise<boolean> {
  return inRoomTransaction(async (w) => {
    const locked = await lockStream(w.transaction, streamId, accountId);
    if (!locked || (locked.stream.status !== "running" && locked.stream.status !== "waiting")) return false;
    await exec(
      `UPDATE flow_streams SET status = $2, reason = $3, waiting = NULL, wake_at = NULL, ended_at = now(), updated_at = now() WHERE id = $1`,
      [streamId, status, reason.slice(0, 500)],
      { transaction: w.transaction },
    );
    await exec(`UPDATE flow_inputs SET consumed_at = now() WHERE stream_id = $1 AND consumed_at IS NULL`, [streamId], { transaction: w.transaction });
    await handToQueue(w, locked.room, null, status);
    return true;
  });
}

/**
 * The durable path (every FLOW_SWEEP_MS, once across the workers): streams whose timer is due get a
 * 'timer' input (unless one is pending), and every stream with inputs older than FLOW_RECOVER_MS
 * (the entry was lost with Redis, or never published) is announced again. Answers how many.
 */
export async function sweepFlows(limit = 1000): Promise<{ timers: number; republished: number }> {
  const timers = await rows<{ id: string }>(
    `INSERT INTO flow_inputs (account_id, stream_id, kind)
     SELECT s.account_id, s.id, 'timer' FROM flow_streams s
      WHERE s.status = 'waiting' AND s.wake_at <= now()
        AND NOT EXISTS (SELECT 1 FROM flow_inputs i WHERE i.stream_id = s.id AND i.consumed_at IS NULL AND i.kind = 'timer')
      ORDER BY s.wake_at LIMIT $1
     RETURNING stream_id AS id`,
    [limit],
  );
  const stale = await rows<{ id: string }>(
    `SELECT DISTINCT stream_id AS id FROM (
       SELECT stream_id FROM flow_inputs WHERE consumed_at IS NULL AND created_at < now() - make_interval(secs => $1::float8 / 1000) ORDER BY created_at LIMIT $2) x`,
    [env().FLOW_RECOVER_MS, limit],
  );
  // A stale stream whose entry is still on flows:events (acked entries are deleted) is only behind: not announced twice.
  const queued = stale.length ? await idsInStream(FLOW_EVENTS_STREAM, "stream_id") : new Set<string>();
  const lost = stale.filter((s) => !queued.has(s.id));
  const ids = [...new Set([...timers.map((t) => t.id), ...lost.map((s) => s.id)])];
  await wakeStreams(ids);
  return { timers: timers.length, republished: lost.length };
}

/** The worker's consumer of `flows:events` (group flow-runners). */
export function startFlowRunner() {
  return startConsumer({
    stream: FLOW_EVENTS_STREAM,
    group: "flow-runners",
    concurrency: 32,
    batch: 32,
    // The next entries are read while earlier ones run (up to 32 in flight per shard).
    pipelined: true,
    deleteAcked: true,
    maxAttempts: 5,
    reclaimIdleMs: 15_000,
    handler: async (f) => {
      await runStream(f.stream_id);
    },
    onDead: async (f, reason) => {
      await endStream(f.stream_id, "failed", reason);
    },
    // Redis lost the stream: what it held is in flow_inputs; announce it all at once.
    onLost: () => sweepFlows(100_000),
  });
}
