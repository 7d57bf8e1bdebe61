/**
 * Step 1 of the message pipeline for SMS: accept a send. Validates (api/sms/schemas.ts), renders
 * the body per recipient (template and {{variables}}, api/sms/template-vars.ts), counts the
 * segments of each rendered body, prices them, and in ONE transaction:
 *   1. reads the account (currency, and balance for an early 402) WITHOUT locking it: sends of one
 *      account run side by side; the debit is the transaction's LAST statement, a conditional
 *      UPDATE (balance + credit limit ≥ total), so the row is locked only from there to COMMIT and
 *      two sends can never spend the same balance; two uses of one Idempotency-Key meet on the
 *      key's primary key — the later one waits, fails, and is answered from the stored key;
 *   2. with an Idempotency-Key, answers the stored response of the same request (nothing new is
 *      written) or refuses another request under the same key (409 IDEMPOTENCY_CONFLICT);
 *      then refuses a sender the account may not send from (422 on `from`, api/sms/senders.ts) —
 *      here, so every path (API, send screen, campaigns, file sends, SMPP) meets the one rule;
 *   3. gathers the recipients: a list from the request (rendered here), or — set-based, inside
 *      PostgreSQL — every contact of a group or every row of an uploaded CSV file staged in
 *      sms_send_rows (rendered and counted by SQL, sms_segment_info), never row by row in JS;
 *   4. looks the recipients up in the account's opt-outs (channel sms) and deny list: those are
 *      written as `optout` / `rejected` messages with price 0, error_code `optout` / `deny_list`
 *      and the locale key of the reason as error_message, with no outbox row and no charge;
 *   5. refuses with 402 INSUFFICIENT_BALANCE when balance + credit limit < total of the others;
 *   6. creates the campaign of a send to many (group, file, or a list of
 *      more than one number), inserts the messages — `queued` with one outbox row each (topic
 *      `messages:sms`), or `scheduled` with none (api/sms/release.ts queues them when due) — and
 *      a system event each;
 *   7. stores the key with the request's hash and the answer, and the audit entry (counts only);
 *   8. debits the balance once (the conditional UPDATE above; 402 and nothing written if it no
 *      longer covers the total).
 * The caller gets the answer only after the commit; the worker's relay then publishes the outbox.
 * docs/decisions/008-send-paths.md explains the choices.
 *
 * A send to ONE number without a template (OTP codes, transactional messages) is checked by the
 * same rules in the same order but written group-committed with the other sends in flight
 * (acceptOne below, api/sms/accept-batch.ts, ADR 027); what cannot go that way (a body under
 * moderation, an account that could pay for only part of its batch, a failed batch) comes back
 * here, one at a time, under the message id it was given.
 */
import { createHash, randomUUID } from "node:crypto";
import { type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { debitBalance } from "../accounts/balance";
import { auditFields, recordAudit } from "../audit/record";
import { defaultProvider, dispatchStream } from "../channels/registry";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { TERMS_SQL, holdForReview, markHeld } from "../moderation/hold";
import { matchingTerms, type Term } from "../moderation/match";
import { prepared, preparedRows } from "../lib/prepared";
import { writeOneSms } from "./accept-batch";
import { type PriceRow, priceRowsSql, routeNotOffered, routePrice, segmentPrice } from "./pricing";
import { defaultSenderUnusable, isOwnSender, ownSenderSql, senderNotOwned } from "./senders";
import { messageSettingsOf } from "../message-settings/settings";
import { campaignSchedule, withSettingsTexts } from "../message-settings/apply";
import { MAX_BODY, MAX_SCHEDULE_DAYS, sendSmsSchema, type SendSmsInput } from "./schemas";
import { smsSegments, type SmsCoding } from "./segments";
import { templateForSend } from "./templates";
import { parseTemplate, renderTemplate, type ParsedTemplate } from "./template-vars";
import {
  type CampaignLinks,
  CODES_SQL,
  insertCodes,
  LIST_CODES_SQL,
  linksIn,
  markLinks,
  newCodes,
  shortenCampaignLinks,
  tableCodesSql,
  unmark,
  unmarkSql,
} from "../shortener/campaign-links";
import { exec, rows } from "../lib/sql";
import { refreshStatisticsAfterBulk } from "../messages/statistics";
import { claimUnits, claimUnitsSql, hasProductSql } from "../products/products";

export type AcceptedSms = {
  id: string;
  to: string;
  /** `pending`: held for review (a word or URL under moderation, ADR 012). */
  status: "queued" | "scheduled" | "pending" | "optout" | "rejected";
  segments: number;
  coding: SmsCoding;
  price: number;
  /** Only on a recipient that is not sent to: why (`optout` / `deny_list`, and the reason's locale key). */
  error_code?: string;
  error_message?: string;
};
/** Counts of a send to many (campaign): messages written, how many will be sent, blocked ones by reason, segments charged. */
export type AcceptSummary = { messages: number; sendable: number; optout: number; rejected: number; segments: number; invalid?: number };
export type AcceptSmsAnswer = {
  /** One entry per recipient, in request order — for a list; group and file sends answer `summary` only. */
  data?: AcceptedSms[];
  total_price: number;
  currency: string;
  campaign_id?: string;
  scheduled_at?: string;
  summary?: AcceptSummary;
};

/** A CSV file of recipients already COPYed into sms_send_rows (api/sms/recipients-file.ts). */
export type StagedFile = { batchId: string; name: string; rows: number; invalid: number; columns: string[]; hash: string };

const CHANNEL = "sms";

/** What a blocked recipient becomes: the message status, its error code and the reason's locale key. */
const BLOCKED = {
  optout: { status: "optout", error_code: "optout", error_message: "errors.RECIPIENT_OPTED_OUT" },
  deny_list: { status: "rejected", error_code: "deny_list", error_message: "errors.RECIPIENT_DENIED" },
} as const;
type Blocked = keyof typeof BLOCKED;

/** Contact fields a group send's {{variables}} may use besides the custom field keys. */
export const CONTACT_VARIABLES: Record<string, string> = {
  first_name: "c.first_name",
  last_name: "c.last_name",
  name: "NULLIF(concat_ws(' ', c.first_name, c.last_name), '')",
  email: "c.email::text",
  mobile: "c.mobile_number",
  company: "c.company",
  city: "c.city",
  state: "c.state",
};

/** The key as a client sends it: 1..255 visible ASCII characters. */
function checkKey(key: string) {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new AppError("VALIDATION", { fields: { idempotency_key: ["validation.invalid"] } });
}

const fieldError = (field: string, message: string, params?: Record<string, string | number>) => new AppError("VALIDATION", { fields: { [field]: [message] }, params });
const missingVariable = (name: string, count?: number) =>
  fieldError(`variables.${name}`, `sms.errors.variableMissing::${name}`, count === undefined ? { variable: name } : { variable: name, count });

/** A stable hash of what is sent (after normalization), so "+55 11 9…" and "11 9…" are one request. */
function requestHash(data: SendSmsInput, file?: StagedFile) {
  const { to, messages, group_id, from, body, template_id, variables, route, scheduled_at, campaign_name, shorten_links } = data;
  // The original four fields keep their place so keys stored before the other paths still match.
  const canonical = JSON.stringify({
    to,
    from,
    body,
    route,
    ...(messages ? { messages } : {}),
    ...(group_id ? { group_id } : {}),
    ...(file ? { file: file.hash } : {}),
    ...(template_id ? { template_id } : {}),
    ...(Object.keys(variables).length ? { variables } : {}),
    ...(scheduled_at ? { scheduled_at: scheduled_at.toISOString() } : {}),
    ...(campaign_name ? { campaign_name } : {}),
    ...(shorten_links ? { shorten_links } : {}),
  });
  return createHash("sha256").update(canonical).digest("hex");
}

/** São Paulo wall-clock time for a generated campaign name ("2026-11-22 14:05"). */
function spStamp(d: Date) {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

type Source = { kind: "list"; list: Array<{ to: string; variables: Record<string, string> }> } | { kind: "group"; groupId: string } | { kind: "file"; file: StagedFile };

function sourceOf(data: SendSmsInput, file?: StagedFile): Source {
  const given = [data.to ? "to" : null, data.messages ? "messages" : null, data.group_id ? "group_id" : null, file ? "file" : null].filter(Boolean);
  if (given.length === 0) throw fieldError("to", "sms.errors.recipientRequired");
  if (given.length > 1) throw fieldError(given[1]!, "sms.errors.oneSource");
  if (data.to) return { kind: "list", list: data.to.map((to) => ({ to, variables: {} })) };
  if (data.messages) {
    if (data.messages.length === 0) throw fieldError("messages", "validation.required");
    return { kind: "list", list: data.messages };
  }
  if (data.group_id) return { kind: "group", groupId: data.group_id };
  return { kind: "file", file: file! };
}

/**
 * The SQL expression of a body rendered per row: the template's texts (bind `$texts`) around
 * each variable's value — the first non-blank of the row's own sources (`rowVar`) and of
 * `variables` (bind `$globals`). NULL when a variable has no value (then `missingSql` names it).
 */
function renderSql(parsed: ParsedTemplate, rowVar: (name: string) => string | null, textsParam: string, globalsParam: string) {
  const value = (name: string) => {
    const own = rowVar(name);
    const global = `NULLIF(btrim((${globalsParam}::jsonb)->>'${name}'), '')`;
    return own ? `COALESCE(NULLIF(btrim(${own}), ''), ${global})` : global;
  };
  const parts = [`(${textsParam}::text[])[1]`];
  for (const [i, name] of parsed.vars.entries()) parts.push(value(name), `(${textsParam}::text[])[${i + 2}]`);
  const names = [...new Set(parsed.vars)];
  const missing = names.length ? `CASE ${names.map((n) => `WHEN ${value(n)} IS NULL THEN '${n}'`).join(" ")} END` : "NULL::text";
  return { body: parts.join(" || "), missing };
}

/** `messageId`: the id the one message of a one-number send gets — our SMPP server answers it before the message exists (concatenated parts). */
/**
 * `also`: more to write in the send's own transaction, once its messages exist (our SMPP server
 * records the ESME's receipt request there, so a message never exists without it). Not called
 * when an Idempotency-Key replays a stored answer.
 */
type AcceptOptions = {
  idempotencyKey?: string | null;
  file?: StagedFile;
  messageId?: string;
  also?: (answer: AcceptSmsAnswer, transaction: Transaction) => Promise<void>;
};

export async function acceptSms(ctx: SignedInCtx, input: unknown, opts: AcceptOptions = {}): Promise<AcceptSmsAnswer> {
  try {
    return await acceptOnce(ctx, input, opts);
  } catch (e) {
    // Two requests under one new key: the later one waited on the key's primary key and lost; the
    // retry finds the stored key and answers the first response (or 409 for another request).
    if (opts.idempotencyKey && isIdempotencyRace(e)) return acceptOnce(ctx, input, opts);
    throw e;
  }
}

async function acceptOnce(ctx: SignedInCtx, input: unknown, opts: AcceptOptions): Promise<AcceptSmsAnswer> {
  if (!can(ctx.actor, "/sms/send")) throw new AppError("FORBIDDEN");
  const key = opts.idempotencyKey ?? null;
  if (key !== null) checkKey(key);
  const data = validate(sendSmsSchema, input);
  const source = sourceOf(data, opts.file);
  if (opts.messageId && (source.kind !== "list" || source.list.length !== 1)) throw new AppError("INTERNAL", { message: "a message id is given for a one-number send only" });
  if (!data.template_id && data.body.trim() === "") throw fieldError("body", "validation.required");
  const scheduledAt = data.scheduled_at;
  if (scheduledAt) {
    if (scheduledAt.getTime() <= Date.now()) throw fieldError("scheduled_at", "sms.errors.schedulePast");
    if (scheduledAt.getTime() > Date.now() + MAX_SCHEDULE_DAYS * 86_400_000) throw fieldError("scheduled_at", `sms.errors.scheduleTooFar::${MAX_SCHEDULE_DAYS}`);
  }
  const accountId = ctx.actor.accountId;
  const provider = defaultProvider(CHANNEL);
  if (!provider) throw new AppError("INTERNAL", { message: "no SMS provider is registered" });
  const hash = requestHash(data, opts.file);
  // One number, no template (the OTP and transactional case): the group-committed path.
  if (source.kind === "list" && source.list.length === 1 && !data.template_id) {
    const one = await acceptOne(ctx, data, source.list[0], provider, scheduledAt, key === null ? null : { key, hash }, opts);
    if ("answer" in one) return one.answer;
    // Not written (a body under moderation, or the balance ran out for its batch): the same send,
    // with the same message id, one at a time below, which decides it exactly.
    opts = { ...opts, messageId: one.id };
  }
  const db = sequelize();

  const answer = await db.transaction(async (transaction) => {
    const [account] = await rows<{ balance: string; credit_limit: string; currency: string }>(
      `SELECT b.balance, a.credit_limit, a.currency FROM accounts a JOIN account_balances b ON b.account_id = a.id WHERE a.id = $1`,
      [accountId],
      { transaction },
    );
    if (!account) throw new AppError("NOT_FOUND");

    if (key !== null) {
      const [stored] = await rows<{ request_hash: string; response: AcceptSmsAnswer }>(
        `SELECT request_hash, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
        [accountId, key],
        { transaction },
      );
      if (stored) {
        if (stored.request_hash !== hash) throw new AppError("IDEMPOTENCY_CONFLICT");
        return stored.response;
      }
    }
    // The account's message settings (ADR 071): its default sender when none is named, the
    // signature, and for a campaign the opt-out text and the marketing window.
    const settings = await messageSettingsOf(accountId, transaction);
    const campaign = source.kind !== "list" || source.list.length > 1;
    const sender = data.from || settings.sms_sender;
    if (!(await isOwnSender(accountId, sender, transaction))) throw data.from ? senderNotOwned() : defaultSenderUnusable();
    const sendAt = campaign ? campaignSchedule(settings, scheduledAt) : scheduledAt;

    const currency = account.currency.trim();
    const { pricePerSegment } = await segmentPrice(accountId, currency, data.route, transaction);
    const template = data.template_id ? await templateForSend(ctx, data.template_id, transaction) : null;
    const text = withSettingsTexts(template ? template.body : data.body, settings, CHANNEL, campaign);

    const available = Number(account.balance) + Number(account.credit_limit);
    const run: Run = {
      ctx,
      data: { ...data, from: sender },
      transaction,
      accountId,
      currency,
      pricePerSegment,
      provider,
      text,
      scheduledAt: sendAt,
      available,
      debit: 0,
      messageId: opts.messageId ?? null,
    };
    const result = source.kind === "list" ? await acceptList(run, source.list) : await acceptBulk(run, source);
    // Moderation (api/moderation/hold.ts): a body with a word or URL under review holds the queued messages for approval.
    const queuedIds = result.answer.data
      ? result.answer.data.filter((m) => m.status === "queued").map((m) => m.id)
      : result.answer.campaign_id
        ? (await rows<{ id: string }>(`SELECT id FROM messages WHERE campaign_id = $1 AND status = 'queued'`, [result.answer.campaign_id], { transaction })).map((r) => r.id)
        : [];
    const { held } = await holdForReview({ accountId, body: text, messageIds: queuedIds, transaction });
    if (result.answer.data) markHeld(result.answer.data, held);
    await opts.also?.(result.answer, transaction);
    if (key !== null) {
      await exec(`INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, $4::jsonb)`, [accountId, key, hash, JSON.stringify(result.answer)], {
        transaction,
      });
    }
    await recordAudit({ ...ctx, transaction }, "sms.accepted", {
      meta: {
        ...result.audit,
        total_price: result.answer.total_price,
        currency,
        route: data.route,
        source: source.kind,
        ...(result.answer.campaign_id ? { campaign_id: result.answer.campaign_id } : {}),
        ...(sendAt ? { scheduled_at: sendAt.toISOString() } : {}),
        ...(template ? { template_id: template.id } : {}),
      },
    });
    // Last: the debit, only if the balance still covers it. The account row is locked from here to
    // COMMIT only, so concurrent sends of the account overlap everywhere else.
    const reference = result.answer.campaign_id ? `campaign:${result.answer.campaign_id}` : result.answer.data?.[0] ? `message:${result.answer.data[0].id}` : null;
    if (run.debit > 0 && !(await debitBalance(accountId, run.debit, transaction, { kind: "message", reference, by: ctx.actor.userId }))) throw new AppError("INSUFFICIENT_BALANCE");
    return result.answer;
  });
  if (answer.campaign_id && answer.summary) refreshStatisticsAfterBulk(answer.campaign_id, answer.summary.messages);
  return answer;
}

/** The stored key of a concurrent request with the same Idempotency-Key won the race: answer from it. */
function isIdempotencyRace(e: unknown) {
  const err = e as { name?: string; parent?: { constraint?: string }; original?: { constraint?: string } };
  return err?.name === "SequelizeUniqueConstraintError" && (err.parent?.constraint ?? err.original?.constraint) === "idempotency_keys_pkey";
}

type Run = {
  ctx: SignedInCtx;
  data: SendSmsInput;
  transaction: Transaction;
  accountId: string;
  currency: string;
  pricePerSegment: number;
  provider: string;
  text: string;
  scheduledAt: Date | null;
  /** Balance + credit limit as read at the start (unlocked: an early 402; the final debit decides). */
  available: number;
  /** The total to debit, set by debit() and written as the transaction's last statement. */
  debit: number;
  /** The id of a one-number send's message when the caller chose it (AcceptOptions), else null. */
  messageId: string | null;
  /** The campaign's name, once known (its short links are titled after it). */
  name?: string;
};

/** The campaign's name: the one asked for, or the recipients' label and the time. */
function campaignName(run: Run, label: string): string {
  run.name ??= run.data.campaign_name || `${label} · ${spStamp(new Date())}`.slice(0, 120);
  return run.name;
}

/**
 * The campaign's links shortened per recipient (`shorten_links`, ADR 060): its short links, made
 * in the send's transaction, and the text with a marker in place of each address; null when not
 * asked for or the text has no address.
 */
async function campaignShortLinks(run: Run, label: string): Promise<{ short: CampaignLinks; marked: string } | null> {
  if (!run.data.shorten_links) return null;
  const urls = linksIn(run.text);
  if (urls.length === 0) return null;
  const short = await shortenCampaignLinks({ accountId: run.accountId, userId: run.ctx.actor.userId }, campaignName(run, label), urls, run.transaction);
  return { short, marked: markLinks(run.text, urls) };
}
type Result = { answer: AcceptSmsAnswer; audit: { messages: number; segments: number; optout: number; rejected: number } };

/** The balance check and the one debit (the account row is locked since the start of the transaction). */
/** Notes the send's total: refused at once when the balance read at the start cannot cover it; debited last (acceptSms). */
async function debit(run: Run, total: number) {
  if (total > 0 && run.available < total) throw new AppError("INSUFFICIENT_BALANCE");
  run.debit = total;
}

/** The campaign of a send to many: running (or scheduled), completed at once when nobody can be sent to. */
async function createCampaign(run: Run, source: Record<string, unknown>, label: string, total: number, sendable: number): Promise<string> {
  const name = campaignName(run, label);
  const status = run.scheduledAt ? "scheduled" : sendable === 0 ? "completed" : "running";
  const [row] = await rows<{ id: string }>(
    `INSERT INTO campaigns (account_id, channel, name, status, sender, body, route, template_id, source, total, created_by, scheduled_at, started_at, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12,
             CASE WHEN $4 = 'scheduled' THEN NULL ELSE now() END, CASE WHEN $4 = 'completed' THEN now() END)
     RETURNING id`,
    [run.accountId, CHANNEL, name, status, run.data.from, run.text, run.data.route, run.data.template_id, JSON.stringify(source), total, run.ctx.actor.userId, run.scheduledAt],
    { transaction: run.transaction },
  );
  return row.id;
}

/**
 * The INSERT of the messages (with their outbox rows and, for a list, their first event) from
 * `rows`, a relation of (n, recipient, body, segments, coding, why). Bind $1..$10 are fixed;
 * callers add theirs after. A group or file send writes no per-message acceptance event: its
 * campaign row (and the audit entry) records the acceptance, and each message's events begin
 * with its release or dispatch — one event row and two foreign-key checks less per recipient
 * keeps a 20,000-contact accept well under a second (ADR 008).
 */
function insertMessagesSql(rows: string, select: string, opts: { events: boolean; ids?: boolean }) {
  return `WITH r AS (${rows}), m AS (
      INSERT INTO messages (${opts.ids ? "id, " : ""}account_id, channel, direction, sender, recipient, body, segments, coding, status, provider, route, price, currency,
                            scheduled_at, queued_at, error_code, error_message, campaign_id, product_id)
      SELECT ${opts.ids ? "COALESCE(r.id, gen_random_uuid()), " : ""}$1, $2, 'outbound', $3, r.recipient, r.body, r.segments, r.coding,
             CASE r.why WHEN 'optout' THEN 'optout' WHEN 'deny_list' THEN 'rejected' ELSE CASE WHEN $8::timestamptz IS NULL THEN 'queued' ELSE 'scheduled' END END,
             $4, $5, CASE WHEN r.why IS NULL AND r.product IS NULL THEN r.segments * $6::bigint ELSE 0 END, $7,
             $8::timestamptz, CASE WHEN r.why IS NULL AND $8::timestamptz IS NULL THEN now() END,
             CASE r.why WHEN 'optout' THEN 'optout' WHEN 'deny_list' THEN 'deny_list' END,
             CASE r.why WHEN 'optout' THEN '${BLOCKED.optout.error_message}' WHEN 'deny_list' THEN '${BLOCKED.deny_list.error_message}' END,
             $9::uuid, r.product
      FROM r ORDER BY r.n
      RETURNING id, created_at, recipient, status, segments, coding, price, error_code
    ), o AS (
      INSERT INTO outbox (topic, payload) SELECT $10, jsonb_build_object('message_id', m.id::text) FROM m WHERE m.status = 'queued'
    )${
      opts.events
        ? `, e AS (
      INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
      SELECT m.id, m.created_at, $1, m.status, 'system',
             CASE WHEN m.status IN ('queued', 'scheduled') THEN jsonb_build_object('segments', m.segments, 'price', m.price, 'currency', $7::text)
                  ELSE jsonb_build_object('reason', m.error_code) END
      FROM m
    )`
        : ""
    }
    ${select}`;
}

function fixedBinds(run: Run, campaignId: string | null) {
  return [run.accountId, CHANNEL, run.data.from, run.provider, run.data.route, run.pricePerSegment, run.currency, run.scheduledAt, campaignId, dispatchStream(CHANNEL)];
}

type Rendered = { to: string; body: string; segments: number; coding: SmsCoding };

/** One recipient's body: the text with its {{variables}} filled in (and `finish`ed: its short links), checked, its segments counted. */
function renderOne(text: string, m: { to: string; variables: Record<string, string> }, globals: Record<string, string>, finish?: (text: string) => string): Rendered {
  const r = renderTemplate(text, m.variables, globals);
  if (r.missing !== null) throw missingVariable(r.missing);
  const body = finish ? finish(r.text) : r.text;
  if ([...body].length > MAX_BODY) throw fieldError("body", `validation.maxLength::${MAX_BODY}`);
  return { to: m.to, body, ...smsSegments(body) };
}

/** The answer's entry of one recipient: sent to (priced), or blocked and why (free). */
function entryOf(id: string, r: Rendered, why: Blocked | undefined, status: "queued" | "scheduled", pricePerSegment: number, covered = false): AcceptedSms {
  const base = { id, to: r.to, segments: r.segments, coding: r.coding };
  if (!why) return { ...base, status, price: covered ? 0 : r.segments * pricePerSegment };
  const b = BLOCKED[why];
  return { ...base, status: b.status, price: 0, error_code: b.error_code, error_message: b.error_message };
}

/** Which of the recipients (bind: text[]) the account may not send to on the channel, and why: opted out (their own choice) wins over the deny list. */
export function blockedSql(account: string, channel: string, recipients: string) {
  return `SELECT DISTINCT ON (recipient) recipient, why FROM (
       SELECT recipient, 'optout' AS why, 0 AS rank FROM optouts WHERE account_id = ${account} AND channel = ${channel} AND recipient = ANY(${recipients}::text[])
       UNION ALL
       SELECT recipient, 'deny_list', 1 FROM deny_list WHERE account_id = ${account} AND recipient = ANY(${recipients}::text[])
     ) b ORDER BY recipient, rank`;
}

/**
 * Everything a one-number send must know before it is written, in one round trip (a prepared
 * statement): the account's currency, a stored answer under the request's Idempotency-Key,
 * whether it owns the sender, its price rows for
 * the route, why the recipient is blocked (if so), the terms under moderation, and whether it has
 * an active SMS product (ADR 048: then the send goes one at a time, which claims its credits). Each piece is
 * the rule's own SQL (senders.ts, pricing.ts, blockedSql, moderation/hold.ts).
 */
const ONE_FACTS = prepared(
  "sms-accept-one",
  `WITH s AS (SELECT sms_sender, CASE WHEN 'sms' = ANY(signature_channels) THEN signature ELSE '' END AS signature FROM account_message_settings WHERE account_id = $1)
   SELECT a.currency, ${ownSenderSql("$1", "COALESCE(NULLIF($2::text, ''), (SELECT sms_sender FROM s), '')")} AS sender_ok,
          (SELECT json_build_object('sender', sms_sender, 'signature', signature) FROM s) AS settings,
          COALESCE((SELECT json_agg(p) FROM (${priceRowsSql("sms", "$1", "$3")}) p), '[]') AS prices,
          (SELECT why FROM (${blockedSql("$1", "$4", "$5")}) b LIMIT 1) AS why,
          (SELECT json_agg(t) FROM (${TERMS_SQL}) t) AS terms,
          (SELECT json_build_object('request_hash', k.request_hash, 'response', k.response) FROM idempotency_keys k WHERE k.account_id = $1 AND k.key = $6::text) AS stored,
          ${hasProductSql("$1", "$4")} AS has_product
     FROM accounts a WHERE a.id = $1`,
);
type OneFacts = {
  currency: string;
  sender_ok: boolean;
  prices: PriceRow[];
  why: Blocked | null;
  terms: Term[] | null;
  stored: { request_hash: string; response: AcceptSmsAnswer } | null;
  has_product: boolean;
  /** The account's default sender and SMS signature (ADR 071); null when never saved. */
  settings: { sender: string; signature: string } | null;
};

/**
 * A one-number send, checked by the same rules in the same order as a list (sender, route, body,
 * opt-outs and deny list) and written group-committed with the other sends in flight
 * (api/sms/accept-batch.ts, ADR 027). Answers the send; refuses it (402) when its account could
 * not pay for it alone as its batch was written; or — when it must go one at a time (a body with
 * a term under moderation; a batch its account could pay for only in part; a batch whose
 * statement failed) — answers the message id it is to keep, with nothing written.
 */
async function acceptOne(
  ctx: SignedInCtx,
  data: SendSmsInput,
  m: { to: string; variables: Record<string, string> },
  provider: string,
  scheduledAt: Date | null,
  idempotency: { key: string; hash: string } | null,
  opts: AcceptOptions,
): Promise<{ answer: AcceptSmsAnswer } | { id: string }> {
  const accountId = ctx.actor.accountId;
  const id = opts.messageId ?? randomUUID();
  const [f] = await preparedRows<OneFacts>(ONE_FACTS, [accountId, data.from, [data.route], CHANNEL, [m.to], idempotency?.key ?? null]);
  if (!f) throw new AppError("NOT_FOUND");
  // The same request under a key already used answers what it answered then; another request under it is refused.
  if (f.stored) {
    if (f.stored.request_hash !== idempotency?.hash) throw new AppError("IDEMPOTENCY_CONFLICT");
    return { answer: f.stored.response };
  }
  if (!f.sender_ok) throw data.from ? senderNotOwned() : defaultSenderUnusable();
  const sender = data.from || f.settings?.sender || "";
  const body = f.settings?.signature
    ? withSettingsTexts(data.body, { signature: f.settings.signature, signature_channels: [CHANNEL], optout_text: "" }, CHANNEL, false)
    : data.body;
  const currency = f.currency.trim();
  const price = routePrice(data.route, currency, f.prices);
  if (!price) throw routeNotOffered();
  const r = renderOne(body, m, data.variables);
  if (f.terms && matchingTerms(body, f.terms).length > 0) return { id };
  // An account with a product of the channel: its credits are claimed (row locked) in the one-at-a-time transaction.
  if (f.has_product) return { id };
  const why = f.why ?? undefined;
  const total = why ? 0 : r.segments * price.pricePerSegment;
  const status = scheduledAt ? "scheduled" : "queued";
  const entry = entryOf(id, r, why, status, price.pricePerSegment);
  const answer: AcceptSmsAnswer = { data: [entry], total_price: total, currency, ...(scheduledAt ? { scheduled_at: scheduledAt.toISOString() } : {}) };
  const audit = { messages: 1, segments: why ? 0 : r.segments, optout: why === "optout" ? 1 : 0, rejected: why === "deny_list" ? 1 : 0 };
  const written = await writeOneSms({
    id,
    accountId,
    channel: CHANNEL,
    topic: dispatchStream(CHANNEL),
    sender,
    recipient: r.to,
    body: r.body,
    segments: r.segments,
    coding: r.coding,
    status: entry.status as "queued" | "scheduled" | "optout" | "rejected",
    errorCode: entry.error_code ?? null,
    errorMessage: entry.error_message ?? null,
    price: entry.price,
    currency,
    route: data.route,
    provider,
    scheduledAt,
    audit: auditFields(ctx, "sms.accepted", {
      meta: { ...audit, total_price: total, currency, route: data.route, source: "list", ...(scheduledAt ? { scheduled_at: scheduledAt.toISOString() } : {}) },
    }),
    idempotency: idempotency ? { ...idempotency, response: answer } : null,
    also: opts.also ? (transaction) => opts.also!(answer, transaction) : undefined,
  }).catch((e) => {
    console.error("sms accept batch failed; its sends go one at a time", e);
    return null;
  });
  if (written?.written) return { answer };
  // Its account could not pay for even this one when its batch was written: 402 at once, as the list path's early check.
  if (written && written.available < total) throw new AppError("INSUFFICIENT_BALANCE");
  return { id };
}

/** A list from the request (at most 1,000): rendered and counted here, inserted from arrays. */
async function acceptList(run: Run, list: Array<{ to: string; variables: Record<string, string> }>): Promise<Result> {
  const { transaction } = run;
  // A list of more than one is a campaign: its links may be shortened, a code per recipient drawn here.
  const links = list.length > 1 ? await campaignShortLinks(run, "SMS") : null;
  const codes = links ? list.map(() => newCodes(links.short.linkIds.length)) : [];
  const rendered = list.map((m, i) =>
    links ? renderOne(links.marked, m, run.data.variables, (text) => unmark(text, links.short, codes[i])) : renderOne(run.text, m, run.data.variables),
  );
  const recipients = rendered.map((r) => r.to);
  // Opted out (the recipient's own choice) wins over the deny list when a number is on both.
  const blockedRows = await rows<{ recipient: string; why: Blocked }>(blockedSql("$1", "$2", "$3"), [run.accountId, CHANNEL, recipients], { transaction });
  const blocked = new Map(blockedRows.map((r) => [r.recipient, r.why]));
  const sendable = rendered.filter((r) => !blocked.has(r.to));
  const segments = sendable.reduce((s, r) => s + r.segments, 0);
  // The account's SMS product covers what its credits allow, in order (ADR 048); the balance pays the rest.
  const covered = await claimUnits(
    run.accountId,
    CHANNEL,
    rendered.map((r) => (blocked.has(r.to) ? 0 : r.segments)),
    transaction,
  );
  const total = rendered.reduce((s, r, i) => s + (blocked.has(r.to) || covered[i] ? 0 : r.segments * run.pricePerSegment), 0);
  await debit(run, total);

  const optout = blockedRows.filter((r) => r.why === "optout").length;
  const rejected = blockedRows.filter((r) => r.why === "deny_list").length;
  const campaignId = rendered.length > 1 ? await createCampaign(run, { kind: "list", count: rendered.length }, "SMS", rendered.length, sendable.length) : null;
  if (links && campaignId) {
    const ids = links.short.linkIds;
    const bind = [codes.flat(), rendered.flatMap(() => ids), rendered.flatMap((r) => ids.map(() => r.to))];
    await insertCodes(links.short, run.accountId, campaignId, LIST_CODES_SQL, bind, rendered.length * ids.length, transaction);
  }
  const found = await rows<{ id: string; recipient: string }>(
    insertMessagesSql(
      `SELECT n, recipient, body, segments, coding, NULLIF(why, '') AS why, id, product
         FROM unnest($11::text[], $12::text[], $13::int[], $14::text[], $15::text[], $16::uuid[], $17::uuid[]) WITH ORDINALITY AS u(recipient, body, segments, coding, why, id, product, n)`,
      `SELECT id, recipient FROM m`,
      { events: true, ids: true },
    ),
    [
      ...fixedBinds(run, campaignId),
      recipients,
      rendered.map((r) => r.body),
      rendered.map((r) => r.segments),
      rendered.map((r) => r.coding),
      rendered.map((r) => blocked.get(r.to) ?? ""),
      rendered.map(() => run.messageId),
      covered,
    ],
    { transaction },
  );
  const idOf = new Map(found.map((r) => [r.recipient, r.id]));
  const status = run.scheduledAt ? "scheduled" : "queued";
  const answer: AcceptSmsAnswer = {
    data: rendered.map((r, i) => entryOf(idOf.get(r.to)!, r, blocked.get(r.to), status, run.pricePerSegment, covered[i] !== null)),
    total_price: total,
    currency: run.currency,
    ...(campaignId ? { campaign_id: campaignId } : {}),
    ...(run.scheduledAt ? { scheduled_at: run.scheduledAt.toISOString() } : {}),
    ...(campaignId ? { summary: { messages: rendered.length, sendable: sendable.length, optout, rejected, segments } } : {}),
  };
  return { answer, audit: { messages: found.length, segments, optout, rejected } };
}

/**
 * A group or a staged file: the recipients are gathered, rendered and counted by PostgreSQL into
 * a temporary table (dropped at commit), checked against opt-outs and the deny list with one
 * UPDATE, and inserted as messages with one INSERT … SELECT.
 */
async function acceptBulk(run: Run, source: Extract<Source, { kind: "group" | "file" }>): Promise<Result> {
  const { transaction, accountId } = run;
  const q = <T extends object>(sql: string, bind: unknown[]) => rows<T>(sql, bind, { transaction });
  const write = (sql: string, bind: unknown[] = []) => exec(sql, bind, { transaction });

  let label: string;
  let campaignSource: Record<string, unknown>;
  let from: string;
  let rowVar: (name: string) => string | null;
  let sourceBind: unknown[];
  if (source.kind === "group") {
    const [group] = await q<{ id: string; name: string }>(`SELECT id, name FROM contact_groups WHERE id = $1 AND account_id = $2`, [source.groupId, accountId]);
    if (!group) throw fieldError("group_id", "validation.option");
    label = group.name;
    campaignSource = { kind: "group", group_id: group.id, group_name: group.name };
    from = `contact_group_members gm JOIN contacts c ON c.id = gm.contact_id AND c.account_id = gm.account_id
            WHERE gm.group_id = $1 AND gm.account_id = $2 AND c.mobile_number IS NOT NULL`;
    rowVar = (name) => CONTACT_VARIABLES[name] ?? `(c.custom->>'${name}')`;
    sourceBind = [group.id, accountId];
  } else {
    const f = source.file;
    label = f.name;
    campaignSource = { kind: "file", file_name: f.name, rows: f.rows, invalid: f.invalid, columns: f.columns };
    // A column of the file first, then the contact with that number (if any).
    // The contacts are joined only when the body has variables ($2 is bound either way).
    from = `(SELECT DISTINCT ON (recipient) n, recipient, vars FROM sms_send_rows WHERE batch_id = $1 AND reason IS NULL ORDER BY recipient, n) s
            ${parseTemplate(run.text).vars.length ? "LEFT JOIN contacts c ON c.account_id = $2 AND c.mobile_number = s.recipient" : "WHERE $2::uuid IS NOT NULL"}`;
    rowVar = (name) => {
      const contact = CONTACT_VARIABLES[name] ?? `(c.custom->>'${name}')`;
      return name === "mobile" ? `COALESCE(NULLIF(btrim(s.vars->>'mobile'), ''), s.recipient)` : `COALESCE(NULLIF(btrim(s.vars->>'${name}'), ''), ${contact})`;
    };
    sourceBind = [f.batchId, accountId];
  }
  // Links shortened per recipient (ADR 060): the text is rendered with markers, each row draws its codes.
  const links = await campaignShortLinks(run, label);
  const parsed = parseTemplate(links ? links.marked : run.text);
  const recipientCol = source.kind === "group" ? "c.mobile_number" : "s.recipient";
  /** A variable without a value for some recipients refuses the send, naming it and how many lack it. */
  const refuseMissing = async () => {
    const [gap] = await q<{ missing: string; count: number }>(
      `SELECT missing, count(*)::int AS count FROM sms_accept_rows WHERE missing IS NOT NULL GROUP BY missing ORDER BY count(*) DESC, missing LIMIT 1`,
      [],
    );
    if (gap) throw missingVariable(gap.missing, gap.count);
  };
  const nCol = source.kind === "group" ? "row_number() OVER ()" : "s.n";

  await write(
    `CREATE TEMP TABLE sms_accept_rows (n bigint, recipient text, body text, segments int, coding text, missing text, why text, product uuid, codes text[]) ON COMMIT DROP`,
  );
  if (links) {
    // OFFSET 0 keeps the codes drawn once per row: the subquery is not merged into the outer one.
    const count = links.short.linkIds.length;
    const sql = renderSql(parsed, rowVar, "$3", "$4");
    await write(
      `INSERT INTO sms_accept_rows (n, recipient, body, missing, segments, coding, codes)
       SELECT y.n, y.recipient, y.body, y.missing, i.segments, i.coding, y.codes
         FROM (SELECT x.n, x.recipient, x.missing, x.codes, ${unmarkSql("x.body", count, "x.codes", "$5")} AS body
                 FROM (SELECT ${nCol} AS n, ${recipientCol} AS recipient, ${sql.body} AS body, ${sql.missing} AS missing, ${CODES_SQL(count)} AS codes FROM ${from} OFFSET 0) x) y
         LEFT JOIN LATERAL sms_segment_info(y.body) i ON true`,
      [...sourceBind, parsed.texts, JSON.stringify(run.data.variables), links.short.prefix],
    );
    await refuseMissing();
  } else if (parsed.vars.length === 0) {
    const { segments, coding } = smsSegments(run.text);
    await write(`INSERT INTO sms_accept_rows (n, recipient, body, segments, coding) SELECT ${nCol}, ${recipientCol}, $3, $4, $5 FROM ${from}`, [
      ...sourceBind,
      run.text,
      segments,
      coding,
    ]);
  } else {
    const sql = renderSql(parsed, rowVar, "$3", "$4");
    await write(
      `INSERT INTO sms_accept_rows (n, recipient, body, missing, segments, coding)
       SELECT x.n, x.recipient, x.body, x.missing, i.segments, i.coding
         FROM (SELECT ${nCol} AS n, ${recipientCol} AS recipient, ${sql.body} AS body, ${sql.missing} AS missing FROM ${from}) x
         LEFT JOIN LATERAL sms_segment_info(x.body) i ON true`,
      [...sourceBind, parsed.texts, JSON.stringify(run.data.variables)],
    );
    await refuseMissing();
  }
  await write(`ANALYZE sms_accept_rows`);

  // Opted out (the recipient's own choice) wins over the deny list when a number is on both.
  await write(`UPDATE sms_accept_rows r SET why = 'deny_list' FROM deny_list d WHERE d.account_id = $1 AND d.recipient = r.recipient`, [accountId]);
  await write(`UPDATE sms_accept_rows r SET why = 'optout' FROM optouts o WHERE o.account_id = $1 AND o.channel = $2 AND o.recipient = r.recipient`, [accountId, CHANNEL]);
  // The account's SMS product covers what its credits allow, in order (ADR 048); the balance pays the rest.
  await claimUnitsSql(accountId, CHANNEL, "sms_accept_rows", transaction);
  const [counts] = await q<{ messages: number; sendable: number; optout: number; rejected: number; segments: string; paid: string; too_long: number }>(
    `SELECT count(*)::int AS messages, count(*) FILTER (WHERE why IS NULL)::int AS sendable,
            count(*) FILTER (WHERE why = 'optout')::int AS optout, count(*) FILTER (WHERE why = 'deny_list')::int AS rejected,
            COALESCE(sum(segments) FILTER (WHERE why IS NULL), 0)::bigint AS segments,
            COALESCE(sum(segments) FILTER (WHERE why IS NULL AND product IS NULL), 0)::bigint AS paid,
            count(*) FILTER (WHERE char_length(body) > $1)::int AS too_long
       FROM sms_accept_rows`,
    [MAX_BODY],
  );
  if (counts.messages === 0) throw fieldError(source.kind === "group" ? "group_id" : "file", "sms.errors.noRecipients");
  if (counts.too_long > 0) throw fieldError("body", `validation.maxLength::${MAX_BODY}`);
  const segments = Number(counts.segments);
  const total = Number(counts.paid) * run.pricePerSegment;
  await debit(run, total);

  const campaignId = await createCampaign(run, campaignSource, label, counts.messages, counts.sendable);
  if (links) {
    const ids = links.short.linkIds;
    await insertCodes(links.short, accountId, campaignId, tableCodesSql("sms_accept_rows"), [ids], counts.messages * ids.length, transaction);
  }
  const [inserted] = await q<{ n: number }>(
    insertMessagesSql(`SELECT n, recipient, body, segments, coding, why, product FROM sms_accept_rows`, `SELECT count(*)::int AS n FROM m`, { events: false }),
    fixedBinds(run, campaignId),
  );
  if (source.kind === "file") {
    // The invalid rows stay with the campaign, for its report (api/sms/invalid-rows.ts).
    if (source.file.invalid > 0) {
      await write(
        `INSERT INTO campaign_invalid_rows (campaign_id, account_id, line, value, reason)
         SELECT $2, $3, n, recipient, reason FROM sms_send_rows WHERE batch_id = $1 AND reason IS NOT NULL ON CONFLICT DO NOTHING`,
        [source.file.batchId, campaignId, accountId],
      );
    }
    await write(`DELETE FROM sms_send_rows WHERE batch_id = $1`, [source.file.batchId]);
  }

  const summary: AcceptSummary = {
    messages: inserted.n,
    sendable: counts.sendable,
    optout: counts.optout,
    rejected: counts.rejected,
    segments,
    ...(source.kind === "file" ? { invalid: source.file.invalid } : {}),
  };
  return {
    answer: {
      total_price: total,
      currency: run.currency,
      campaign_id: campaignId,
      ...(run.scheduledAt ? { scheduled_at: run.scheduledAt.toISOString() } : {}),
      summary,
    },
    audit: { messages: inserted.n, segments, optout: counts.optout, rejected: counts.rejected },
  };
}
