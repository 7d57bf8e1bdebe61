/**
 * Our SMPP 3.4 server for the accounts' SMPP users (ADR 011), its own process (Procfile `smpp`,
 * SMPP_PORT, default 2775).
 *
 * - bind_transmitter / bind_receiver / bind_transceiver with an smpp_users system_id + password
 *   (argon2id). Every refusal — unknown system_id, wrong password, disabled user, unusable
 *   account — is the same ESME_RBINDFAIL, and an unknown system_id costs the same argon2 check
 *   (against a dummy hash), so neither the answer nor its time tells which system_ids exist.
 *   A second bind on a bound session -> ESME_RALYBND. A session is closed after
 *   MAX_FAILED_BINDS refused binds; failed credentials count per client IP (api/lib/rate-limit.ts,
 *   rule smpp-bind-ip): past the limit every bind from the IP is refused, without a password
 *   check, and its session closed, until the window ends.
 * - submit_sm before a bind (or on a receiver bind) -> ESME_RINVBNDSTS; over the user's tps
 *   (a per-second window in Redis, shared by all its sessions) -> ESME_RTHROTTLED at once, never
 *   by answering slower. A session's requests are handled side by side, up to WINDOW at a time,
 *   each answered when it is done (out of order, as SMPP 3.4 allows); the parts of a
 *   concatenated message keep their order.
 * - submit_sm and data_sm (answered data_sm_resp) go through the same submit(): acceptSms
 *   (billing, opt-outs/deny list, the outbox) on the user's route, acting as the person who
 *   created the SMPP user (else the account's first owner). The text is decoded by its
 *   data_coding (decodeText in api/channels/smpp/protocol.ts: the codings of SMPP 3.4 5.2.19 we
 *   accept); any other coding -> ESME_RINVDCS. Concatenated parts (UDH IE 00/08) are held in Redis
 *   (api/channels/smpp/reassembly.ts: the parts may come over binds to different instances of
 *   this server) until the last one arrives and accepted as ONE message, under the id every part was answered with
 *   (made when the first part arrived): the id its receipt carries. Whether a receipt is owed, and
 *   the coding replace_sm later uses, come from part 1. Insufficient balance -> ESME_RSUBMITFAIL;
 *   a bad destination -> ESME_RINVDSTADR; a bad source or one the account may not send from
 *   (api/sms/senders.ts, checked by acceptSms and, for concatenated parts, already on every
 *   part) -> ESME_RINVSRCADR; a bad body -> ESME_RINVMSGLEN. schedule_delivery_time schedules
 *   the message (acceptSms scheduled_at; in the past or too far -> ESME_RINVSCHED).
 * - query_sm answers a message of the user's account: its state (messageState, ADR 005 -> SMPP
 *   5.2.28), final date and error code; an unknown id -> ESME_RQUERYFAIL. cancel_sm cancels a
 *   scheduled message (api/sms/cancel-scheduled.ts), or with no message_id every scheduled one
 *   of the user from source_addr to destination_addr, else ESME_RCANCELFAIL; replace_sm replaces
 *   a scheduled message's text and, with schedule_delivery_time, its time
 *   (api/sms/replace-scheduled.ts; a bad time -> ESME_RINVSCHED), else ESME_RREPLACEFAIL.
 *   validity_period is not per message: a message without a final status ends `unavailable`
 *   after SMS_VALIDITY_SECONDS (api/messages/reconcile.ts). A
 *   malformed message_id -> ESME_RINVMSGID. Any other request (unknown command id, submit_multi,
 *   broadcast_sm…) -> generic_nack ESME_RINVCMDID.
 * - Delivery receipts: when a message submitted here reaches a final status, a deliver_sm
 *   (esm_class 0x04, "id:… stat:DELIVRD…", TLVs receipted_message_id and message_state) goes
 *   to one of the user's bound receiver/transceiver sessions, in turn: GSM 7-bit when it can carry the
 *   text, else UCS-2, in short_message when it fits in 254 octets, else in message_payload. A
 *   receipt that could not be sent (or acknowledged) is owed again. Owed receipts are kept in
 *   smpp_messages (written in the submit's own transaction), so those produced while the user
 *   was unbound go out on its next bind.
 */
import { randomUUID } from "node:crypto";
import smpp, { type PDU, type Session } from "smpp";
import { initModels } from "../../models";
import { loadActor } from "../auth/actor";
import type { Actor } from "../lib/context";
import { concatOf, decodeText, e164, keepMessagesRaw, messageOf, messageState, RECEIPT_STAT, receiptStat, receiptText, STATUS, userData } from "../channels/smpp/protocol";
import { assertBindable, env } from "../lib/env";
import { AppError } from "../lib/errors";
import { hit, peek } from "../lib/rate-limit";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";
import { acceptSms } from "../sms/accept";
import { cancelScheduledSms } from "../sms/cancel-scheduled";
import { replaceScheduledSms } from "../sms/replace-scheduled";
import { MAX_SCHEDULE_DAYS } from "../sms/schemas";
import { isOwnSender } from "../sms/senders";
import type { MessageStatus } from "../messages/status";
import { BIND_FAILURES_PER_IP, MAX_FAILED_BINDS } from "./limits";
import { hashSmppPassword } from "./users";
import { SharedReassembler } from "../channels/smpp/reassembly";
import { refreshBound } from "./bound";
import { exec, rows } from "../lib/sql";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();
const config = env();
assertBindable(config.SMPP_HOST, "SMPP_HOST");
type Mode = "transmitter" | "receiver" | "transceiver";
type UserRow = { id: string; account_id: string; system_id: string; password_hash: string; route: string; tps: number; enabled: boolean; created_by: string | null };
/** `actor`: whom the bind acts as, read at most ACTOR_MS ago (a submit does not read it again each time). */
type Bound = { session: Session; user: UserRow; mode: Mode; actor?: { value: Actor; at: number } };

const bound = new Set<Bound>();
/** A part of a concatenated message: its text, and what part 1 decides for the whole message. */
type Part = { text: string; receipt: boolean; dataCoding: number };
/** Each SMPP user's held parts, in Redis: its binds may be on several instances of this server. */
const partsOf = (user: UserRow) => new SharedReassembler<Part>(user.id);
const FINAL = Object.keys(RECEIPT_STAT);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Requests an ESME may send that we answer; any other gets generic_nack ESME_RINVCMDID. */
const ANSWERED = new Set(["bind_transmitter", "bind_receiver", "bind_transceiver", "enquire_link", "unbind", "submit_sm", "data_sm", "query_sm", "cancel_sm", "replace_sm"]);
keepMessagesRaw(smpp.filters); // octets reach decodeText undecoded (the package reads data_coding 1 as GSM 03.38)
/** What an unknown system_id's password is checked against: a hash like the real ones, of nothing anyone knows. */
const dummyHash = hashSmppPassword(randomUUID());

async function findUser(systemId: string): Promise<UserRow | undefined> {
  const [u] = await rows<UserRow>(`SELECT id, account_id, system_id, password_hash, route, tps, enabled, created_by FROM smpp_users WHERE system_id = $1`, [systemId]);
  return u;
}

/** The person the SMPP user acts as: its creator while still a member, else the account's first owner. */
async function actorFor(user: UserRow) {
  const candidates = await rows<{ user_id: string }>(
    `SELECT user_id FROM memberships WHERE account_id = $1 AND (user_id = $2 OR role = 'owner') ORDER BY (user_id = $2) DESC, created_at LIMIT 1`,
    [user.account_id, user.created_by],
  );
  if (!candidates[0]) throw new AppError("ACCOUNT_INFO_FAILED");
  return loadActor(candidates[0].user_id, user.account_id, { strict: true });
}

/**
 * How long a bind reuses the person it acts as before reading it again: a membership removed, a
 * role changed or an account suspended reaches a bind's submits within this time (the pump
 * unbinds a disabled SMPP user within its 250 ms pass), and a bind sending a thousand submits a
 * second reads it once a second instead of twice per submit.
 */
const ACTOR_MS = 1000;

async function boundActor(b: Bound): Promise<Actor> {
  if (b.actor && Date.now() - b.actor.at < ACTOR_MS) return b.actor.value;
  const value = await actorFor(b.user);
  b.actor = { value, at: Date.now() };
  return value;
}

async function overTps(user: UserRow): Promise<boolean> {
  const k = keys.smppTps(user.id, Math.floor(Date.now() / 1000));
  const [[, n]] = (await redis().multi().incr(k).expire(k, 2).exec()) as [[null, number], unknown];
  return n > user.tps;
}

function submitStatus(e: unknown): number {
  if (e instanceof AppError) {
    if (e.code === "INSUFFICIENT_BALANCE") return STATUS.ESME_RSUBMITFAIL;
    if (e.code === "VALIDATION") {
      const f = Object.keys(e.fields ?? {});
      if (f.some((k) => k === "to" || k.startsWith("to."))) return STATUS.ESME_RINVDSTADR;
      if (f.includes("from")) return STATUS.ESME_RINVSRCADR;
      if (f.includes("scheduled_at")) return STATUS.ESME_RINVSCHED;
      if (f.includes("body")) return STATUS.ESME_RINVMSGLEN;
      return STATUS.ESME_RSUBMITFAIL;
    }
    if (e.code === "FORBIDDEN" || e.code === "CLIENT_INACTIVE" || e.code === "ACCOUNT_INFO_FAILED") return STATUS.ESME_RSUBMITFAIL;
  }
  console.error("smpp submit_sm failed", e);
  return STATUS.ESME_RSYSERR;
}

/** Whether the ESME asked for a delivery receipt (registered_delivery bits 0–1: on any outcome, or on failure). */
const wantsReceipt = (pdu: PDU) => (Number(pdu.registered_delivery ?? 0) & 0x03) !== 0;

/** submit_sm and data_sm: one message (or one part of it) into the accept pipeline. */
async function submit(b: Bound, pdu: PDU, trace: Trace): Promise<{ status: number; messageId?: string }> {
  trace.stage = "tps";
  if (await overTps(b.user)) return { status: STATUS.ESME_RTHROTTLED };
  const { text, udh } = messageOf(pdu);
  if (text === null) return { status: STATUS.ESME_RINVDCS };
  const concat = concatOf(udh);
  const from = String(pdu.source_addr ?? "").trim();
  const to = e164(pdu.destination_addr);
  if (!to) return { status: STATUS.ESME_RINVDSTADR };
  // A part is answered before the message is accepted: its sender is checked now, not at the last part.
  trace.stage = "sender";
  if (concat && !(await isOwnSender(b.user.account_id, from))) return { status: STATUS.ESME_RINVSRCADR };
  let whole: Part = { text, receipt: wantsReceipt(pdu), dataCoding: Number(pdu.data_coding ?? 0) };
  let messageId: string | undefined;
  if (concat) {
    trace.stage = "parts";
    const held = await partsOf(b.user).add(String(pdu.source_addr ?? ""), String(pdu.destination_addr ?? ""), concat, whole);
    if (!held.parts) return { status: STATUS.ESME_ROK, messageId: held.id };
    messageId = held.id;
    whole = { ...held.parts[0], text: held.parts.map((p) => p.text).join("") };
  }
  try {
    trace.stage = "actor";
    const actor = await boundActor(b);
    trace.stage = "accept";
    // The ESME's receipt request is written in the send's own transaction: no message without it.
    const answer = await acceptSms(
      { actor },
      { to, from, body: whole.text, route: b.user.route, scheduled_at: scheduledAt(pdu) },
      {
        messageId,
        also: async (accepted, transaction) => {
          await exec(
            `INSERT INTO smpp_messages (message_id, smpp_user_id, registered_delivery, data_coding) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
            [accepted.data![0].id, b.user.id, whole.receipt, whole.dataCoding & 0xff],
            { transaction },
          );
        },
      },
    );
    return { status: STATUS.ESME_ROK, messageId: answer.data![0].id }; // a one-number send always answers its message
  } catch (e) {
    return { status: submitStatus(e) };
  }
}

/** Requests handled at once per bound session (the window an ESME may keep open). */
const WINDOW = 64;

/** Whether a submit_sm/data_sm is one part of a concatenated message (its UDH says so). */
function isPart(pdu: PDU): boolean {
  if (pdu.command !== "submit_sm" && pdu.command !== "data_sm") return false;
  return concatOf(messageOf(pdu).udh) !== null;
}

/** schedule_delivery_time (absolute or relative, decoded by the codec) as acceptSms's scheduled_at (an unreadable one fails its check); null: at once. */
function scheduledAt(pdu: PDU): string | null {
  const at = pdu.schedule_delivery_time;
  if (!(at instanceof Date)) return null;
  return Number.isNaN(at.getTime()) ? "invalid" : at.toISOString();
}

type Answer = Record<string, unknown>;
/** Where a request is (for the log line of one left unanswered too long). */
type Trace = { stage: string };
/** A request still unanswered after this long is logged with its stage (an ESME's window holds it meanwhile). */
const SLOW_REQUEST_MS = 10_000;

/** The message_id of a query/cancel/replace as ours, or null when it cannot be one of our ids. */
const messageIdOf = (pdu: PDU): string | null => {
  const id = String(pdu.message_id ?? "").trim();
  return UUID.test(id) ? id.toLowerCase() : null;
};

/** query_sm: a message of the user's account (and of source_addr, when given). */
async function query(b: Bound, pdu: PDU): Promise<Answer> {
  const id = messageIdOf(pdu);
  if (!id) return { command_status: STATUS.ESME_RINVMSGID };
  const source = String(pdu.source_addr ?? "").trim();
  const [m] = await rows<{ status: MessageStatus; error_code: string | null; done_at: Date | null }>(
    `SELECT status, error_code, CASE WHEN status IN ('delivered','read','failed','unavailable','rejected','optout') THEN COALESCE(delivered_at, failed_at, updated_at) END AS done_at
     FROM messages WHERE id = $1 AND account_id = $2 AND channel = 'sms' AND direction = 'outbound' AND ($3 = '' OR sender = $3)`,
    [id, b.user.account_id, source],
  );
  if (!m) return { command_status: STATUS.ESME_RQUERYFAIL };
  const err = /^\d{1,3}$/.test(m.error_code ?? "") ? Math.min(255, Number(m.error_code)) : 0;
  return { message_id: id, final_date: m.done_at ?? "", message_state: messageState(m.status, m.error_code), error_code: err };
}

/**
 * cancel_sm: one scheduled message of the user's account by message_id; or, with no message_id,
 * every scheduled message this SMPP user submitted from source_addr to destination_addr (SMPP 3.4
 * §4.9: "all outstanding undelivered messages" of the pair). Messages already handed to the
 * provider cannot be recalled: none cancelled answers ESME_RCANCELFAIL.
 */
async function cancel(b: Bound, pdu: PDU): Promise<Answer> {
  const ctx = { actor: await actorFor(b.user) };
  if (String(pdu.message_id ?? "").trim() === "") {
    const to = e164(pdu.destination_addr);
    if (!to) return { command_status: STATUS.ESME_RINVDSTADR };
    const ids = await rows<{ id: string }>(
      `SELECT m.id FROM smpp_messages sm JOIN messages m ON m.id = sm.message_id AND m.created_at = sm.message_created_at
       WHERE sm.smpp_user_id = $1 AND m.account_id = $2 AND m.status = 'scheduled' AND m.recipient = $3 AND m.sender = $4
       ORDER BY m.created_at LIMIT 10000`,
      [b.user.id, b.user.account_id, to, String(pdu.source_addr ?? "").trim()],
    );
    let canceled = 0;
    for (const { id } of ids) if (await cancelScheduledSms(ctx, id)) canceled++;
    return canceled > 0 ? {} : { command_status: STATUS.ESME_RCANCELFAIL };
  }
  const id = messageIdOf(pdu);
  if (!id) return { command_status: STATUS.ESME_RINVMSGID };
  return (await cancelScheduledSms(ctx, id)) ? {} : { command_status: STATUS.ESME_RCANCELFAIL };
}

/** A new schedule for replace_sm: in the future and within MAX_SCHEDULE_DAYS, as a submit's. */
const validSchedule = (at: string) => {
  const t = new Date(at).getTime();
  return Number.isFinite(t) && t > Date.now() && t <= Date.now() + MAX_SCHEDULE_DAYS * 86_400_000;
};

/** replace_sm: the text of a scheduled message, in the data_coding it was submitted with (replace_sm carries none). */
async function replace(b: Bound, pdu: PDU): Promise<Answer> {
  const id = messageIdOf(pdu);
  if (!id) return { command_status: STATUS.ESME_RINVMSGID };
  const [sm] = await rows<{ data_coding: number }>(
    `SELECT sm.data_coding FROM smpp_messages sm JOIN smpp_users u ON u.id = sm.smpp_user_id WHERE sm.message_id = $1 AND u.account_id = $2`,
    [id, b.user.account_id],
  );
  const raw = (pdu.short_message as { message?: unknown } | undefined)?.message;
  const text = Buffer.isBuffer(raw) ? decodeText(sm?.data_coding ?? 0, raw) : null;
  if (text === null) return { command_status: sm ? STATUS.ESME_RINVDCS : STATUS.ESME_RREPLACEFAIL };
  try {
    // schedule_delivery_time of replace_sm moves the message (absent: it keeps its time);
    // registered_delivery replaces the submit's.
    const at = scheduledAt(pdu);
    if (at !== null && !validSchedule(at)) return { command_status: STATUS.ESME_RINVSCHED };
    const replaced = await replaceScheduledSms({ actor: await actorFor(b.user) }, id, text, {
      scheduledAt: at === null ? undefined : new Date(at),
      also: (transaction) => exec(`UPDATE smpp_messages SET registered_delivery = $2 WHERE message_id = $1`, [id, wantsReceipt(pdu)], { transaction }).then(() => undefined),
    });
    return replaced ? {} : { command_status: STATUS.ESME_RREPLACEFAIL };
  } catch (e) {
    if (e instanceof AppError && e.code === "VALIDATION") return { command_status: STATUS.ESME_RINVMSGLEN };
    if (e instanceof AppError) return { command_status: STATUS.ESME_RREPLACEFAIL };
    throw e;
  }
}

const isTooMany = (e: unknown) => e instanceof AppError && e.code === "TOO_MANY_ATTEMPTS";

/** The client's IP as one subject for every form Node gives it ("::ffff:10.0.0.1" is 10.0.0.1). */
function clientIp(session: Session): string {
  return (session.socket.remoteAddress ?? "unknown").replace(/^::ffff:/i, "");
}

type Authenticated = { user: UserRow } | { refused: true; limited: boolean };

/**
 * The SMPP user a bind may act as, or a refusal. An IP over its limit is refused before any
 * lookup. Unknown system_id and wrong password run the same argon2 check and count against the
 * IP; a disabled user or an unusable account is refused too (the right password: not counted).
 */
async function authenticate(ip: string, systemId: string, password: string): Promise<Authenticated> {
  try {
    await peek(BIND_FAILURES_PER_IP, ip);
  } catch (e) {
    if (isTooMany(e)) return { refused: true, limited: true };
    throw e;
  }
  const user = await findUser(systemId);
  const ok = await Bun.password.verify(password, user?.password_hash ?? (await dummyHash));
  if (!user || !ok) {
    const limited = await hit(BIND_FAILURES_PER_IP, ip).then(
      () => false,
      (e) => (isTooMany(e) ? true : Promise.reject(e)),
    );
    return { refused: true, limited };
  }
  if (!user.enabled) return { refused: true, limited: false };
  try {
    await actorFor(user);
  } catch {
    return { refused: true, limited: false };
  }
  return { user };
}

function onSession(session: Session) {
  let me: Bound | null = null;
  let failedBinds = 0;
  const ip = clientIp(session);
  const bind = (mode: Mode) => async (pdu: PDU) => {
    session.pause();
    let closing = false;
    try {
      if (me) return session.send(pdu.response({ command_status: STATUS.ESME_RALYBND }));
      const auth = await authenticate(ip, String(pdu.system_id ?? ""), String(pdu.password ?? ""));
      if ("refused" in auth) {
        failedBinds++;
        session.send(pdu.response({ command_status: STATUS.ESME_RBINDFAIL }));
        if (auth.limited || failedBinds >= MAX_FAILED_BINDS) {
          // The answer is flushed before the FIN; a peer that keeps its half open is cut a second later.
          closing = true;
          session.close();
          setTimeout(() => session.destroy(), 1000);
        }
        return;
      }
      me = { session, user: auth.user, mode };
      bound.add(me);
      session.send(pdu.response({ system_id: "MENSAGERIA" }));
    } catch (e) {
      console.error("smpp bind failed", e);
      session.send(pdu.response({ command_status: STATUS.ESME_RSYSERR }));
    } finally {
      // A closing session reads nothing more: binds queued behind this one get no answer.
      if (!closing) session.resume();
    }
  };
  session.on("bind_transmitter", bind("transmitter"));
  session.on("bind_receiver", bind("receiver"));
  session.on("bind_transceiver", bind("transceiver"));
  session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
  session.on("unbind", (pdu: PDU) => {
    if (me) bound.delete(me);
    me = null;
    session.send(pdu.response());
    session.close();
  });
  // Requests in progress on this session, and the chain that keeps concatenated parts in order.
  let outstanding = 0;
  let paused = false;
  let inOrder: Promise<void> = Promise.resolve();
  /**
   * A request of a bound transmitter/transceiver. Up to WINDOW are handled at once and each is
   * answered as soon as it is done (SMPP 3.4 2.7: responses may come out of order); past WINDOW
   * the socket is not read until one is answered. Parts of a concatenated message go one after
   * another, in the order they came, so they are reassembled in that order.
   */
  const transmit = (handle: (b: Bound, pdu: PDU, trace: Trace) => Promise<Answer>) => (pdu: PDU) => {
    if (!me || me.mode === "receiver") return session.send(pdu.response({ command_status: STATUS.ESME_RINVBNDSTS }));
    const b = me;
    outstanding++;
    if (outstanding >= WINDOW && !paused) {
      paused = true;
      session.pause();
    }
    const work = async () => {
      const trace: Trace = { stage: "queued" };
      const slow = setTimeout(
        () => console.error(`smpp ${pdu.command} #${pdu.sequence_number} of ${b.user.system_id} unanswered after ${SLOW_REQUEST_MS} ms, at ${trace.stage}`),
        SLOW_REQUEST_MS,
      );
      try {
        trace.stage = "handling";
        const answer = await handle(b, pdu, trace);
        trace.stage = "answering";
        const sent = session.send(pdu.response(answer));
        if (sent === false) console.error(`smpp ${pdu.command} #${pdu.sequence_number} of ${b.user.system_id}: the answer could not be written (session closed)`);
      } catch (e) {
        console.error(`smpp ${pdu.command} failed`, e);
        session.send(pdu.response({ command_status: STATUS.ESME_RSYSERR }));
      } finally {
        clearTimeout(slow);
        outstanding--;
        if (paused && outstanding < WINDOW) {
          paused = false;
          session.resume();
        }
      }
    };
    // Nothing here may throw: this runs inside the library's read loop, which an exception would stop for good.
    let part = false;
    try {
      part = isPart(pdu);
    } catch {
      // An unreadable message is refused by its handler (messageOf again, inside work's try).
    }
    if (part) inOrder = inOrder.then(work);
    else void work();
  };
  const submitted = async (b: Bound, pdu: PDU, trace: Trace): Promise<Answer> => {
    const r = await submit(b, pdu, trace);
    return r.status === STATUS.ESME_ROK ? { message_id: r.messageId } : { command_status: r.status };
  };
  session.on("submit_sm", transmit(submitted));
  session.on("data_sm", transmit(submitted));
  session.on("query_sm", transmit(query));
  session.on("cancel_sm", transmit(cancel));
  session.on("replace_sm", transmit(replace));
  session.on("pdu", (pdu: PDU) => {
    if (pdu.isResponse() || ANSWERED.has(pdu.command)) return;
    // An unknown command id parses as "unknown" (its response() is already generic_nack).
    const nack = pdu.command === "unknown" ? pdu.response() : new smpp.PDU("generic_nack", { command_status: STATUS.ESME_RINVCMDID, sequence_number: pdu.sequence_number });
    session.send(nack);
  });
  const gone = () => {
    if (me) bound.delete(me);
    me = null;
  };
  session.on("close", gone);
  session.on("error", (e: Error) => {
    // The library stops reading a session after an error (a PDU it cannot parse): close it, so the
    // ESME sees the connection go and binds again, instead of waiting on answers that never come.
    console.error(`smpp session of ${me?.user.system_id ?? "(not bound)"} from ${ip} failed; closing it`, e);
    gone();
    session.destroy();
  });
}

/**
 * Where each user's next receipt goes among its receiver/transceiver sessions: round robin that
 * carries over between passes (a pass often holds one receipt, which would otherwise always go to
 * the first session).
 */
const nextReceiver = new Map<string, number>();

/** Sends owed receipts to bound receivers; keeps users' settings fresh (disabled or deleted -> unbound). */
/** Receipts sent and not yet acknowledged (or timed out); past MAX_IN_FLIGHT a pass takes no new ones. */
let inFlight = 0;
const MAX_IN_FLIGHT = 2000;

async function pump() {
  const receivers = [...bound].filter((b) => b.mode !== "transmitter");
  await refreshBound(
    bound,
    (ids) => rows<UserRow>(`SELECT id, account_id, system_id, password_hash, route, tps, enabled, created_by FROM smpp_users WHERE id = ANY($1::uuid[])`, [ids]),
    (b) => {
      b.session.unbind?.({}, () => b.session.close());
      setTimeout(() => b.session.destroy(), 1000);
    },
  );
  const receiverUsers = [...new Set(receivers.filter((b) => bound.has(b)).map((b) => b.user.id))];
  if (!receiverUsers.length || inFlight >= MAX_IN_FLIGHT) return;
  const due = await rows<{
    message_id: string;
    smpp_user_id: string;
    status: MessageStatus;
    sender: string;
    recipient: string;
    error_code: string | null;
    body: string;
    created_at: Date;
    done_at: Date;
  }>(
    `WITH due AS (
       SELECT sm.message_id FROM smpp_messages sm JOIN messages m ON m.id = sm.message_id AND m.created_at = sm.message_created_at
       WHERE sm.smpp_user_id = ANY($1::uuid[]) AND sm.receipt_sent_at IS NULL AND sm.registered_delivery AND m.status = ANY($2::text[])
       ORDER BY sm.created_at LIMIT 200 FOR UPDATE OF sm SKIP LOCKED
     )
     UPDATE smpp_messages s SET receipt_sent_at = now() FROM due, messages m
     WHERE s.message_id = due.message_id AND m.id = s.message_id AND m.created_at = s.message_created_at
     RETURNING s.message_id, s.smpp_user_id, m.status, m.sender, m.recipient, m.error_code, left(m.body, 20) AS body, m.created_at,
               COALESCE(m.delivered_at, m.failed_at, m.updated_at) AS done_at`,
    [receiverUsers, FINAL],
  );
  // Each receipt waits for its own deliver_sm_resp (up to 10 s) without holding up the pass: one
  // slow or silent ESME must not delay every other ESME's receipts (head-of-line blocking).
  for (const r of due) {
    inFlight++;
    void (async () => {
      const targets = [...bound].filter((b) => b.user.id === r.smpp_user_id && b.mode !== "transmitter");
      const i = nextReceiver.get(r.smpp_user_id) ?? 0;
      nextReceiver.set(r.smpp_user_id, (i + 1) % 1_000_000);
      const target = targets[i % Math.max(1, targets.length)];
      const stat = receiptStat(r.status, r.error_code);
      const ok = target
        ? await new Promise<boolean>((resolve) => {
            const t = setTimeout(() => resolve(false), 10_000);
            const fields = {
              source_addr: r.recipient.replace(/^\+/, ""),
              source_addr_ton: 1,
              source_addr_npi: 1,
              destination_addr: r.sender,
              esm_class: 0x04,
              ...userData(
                receiptText({
                  id: r.message_id,
                  stat,
                  err: /^\d{1,3}$/.test(r.error_code ?? "") ? r.error_code! : stat === "DELIVRD" ? "000" : "001",
                  submitted: r.created_at,
                  done: r.done_at,
                  text: r.body,
                }),
              ),
              receipted_message_id: r.message_id,
              message_state: messageState(r.status, r.error_code),
            };
            const fail = (e?: unknown) => {
              if (e) console.error("smpp receipt not sent", r.message_id, e);
              clearTimeout(t);
              resolve(false);
            };
            try {
              // The PDU is encoded here: an encoding error throws now, and the receipt stays owed.
              const sent = target.session.deliver_sm(fields, (resp: PDU) => {
                clearTimeout(t);
                resolve(resp.command_status === STATUS.ESME_ROK);
              });
              if (!sent) fail();
            } catch (e) {
              fail(e);
            }
          })
        : false;
      // Not acknowledged: owed again (sent on a later pass or the next bind).
      if (!ok) await exec(`UPDATE smpp_messages SET receipt_sent_at = NULL WHERE message_id = $1`, [r.message_id]);
    })()
      .catch((e) => console.error("smpp receipt bookkeeping failed", r.message_id, e))
      .finally(() => inFlight--);
  }
}

let pumping = false;
/** A pass slower than this is logged with its time: receipts wait for it (a pass normally takes milliseconds). */
const SLOW_PASS_MS = 5_000;
const timer = setInterval(() => {
  if (pumping) return;
  pumping = true;
  const started = Date.now();
  pump()
    .catch((e) => console.error("smpp receipt pump failed", e))
    .finally(() => {
      pumping = false;
      const took = Date.now() - started;
      if (took > SLOW_PASS_MS) console.error(`smpp receipt pump: a pass took ${took} ms (receipts waited for it)`);
    });
}, 250);

const server = smpp.createServer(onSession);
server.listen(config.SMPP_PORT, config.SMPP_HOST, () => console.log(`smpp server listening on ${config.SMPP_HOST}:${config.SMPP_PORT}`));

function shutdown() {
  clearInterval(timer);
  for (const b of bound) b.session.destroy();
  server.close();
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
