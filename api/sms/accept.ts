/**
 * Step 1 of the message pipeline for SMS: accept a send. Validates (api/sms/schemas.ts), counts
 * the segments, prices it, and in ONE transaction:
 *   1. locks the account row (SELECT … FOR UPDATE): sends of one account are serialized, so the
 *      balance check and the debit cannot race, and neither can two uses of one Idempotency-Key;
 *   2. with an Idempotency-Key, answers the stored response of the same request (nothing new is
 *      written) or refuses another request under the same key (409 IDEMPOTENCY_CONFLICT);
 *   3. looks the recipients up in the account's opt-outs (channel sms) and deny list: those are
 *      written as `optout` / `rejected` messages with price 0, error_code `optout` / `deny_list`
 *      and the locale key of the reason as error_message, with no outbox row and no charge;
 *   4. refuses with 402 INSUFFICIENT_BALANCE when balance + credit limit < total of the others;
 *   5. debits the balance, inserts the messages (queued), one outbox row each (topic
 *      `messages:sms`, read by api/dispatch/relay.ts) and a system `queued` event each (the
 *      blocked ones get their own `optout` / `rejected` event);
 *   6. stores the key with the request's hash and the answer, and the audit entry (counts only).
 * The caller gets the answer only after the commit; the worker's relay then publishes the outbox.
 */
import { createHash } from "node:crypto";
import { QueryTypes } from "sequelize";
import { initModels, sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import { defaultProvider, dispatchStream } from "../channels/registry";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { holdForReview, markHeld } from "../moderation/hold";
import { segmentPrice } from "./pricing";
import { sendSmsSchema, type SendSmsInput } from "./schemas";
import { smsSegments, type SmsCoding } from "./segments";

export type AcceptedSms = {
  id: string;
  to: string;
  status: "queued" | "pending" | "optout" | "rejected";
  segments: number;
  coding: SmsCoding;
  price: number;
  /** Only on a recipient that is not sent to: why (`optout` / `deny_list`, and the reason's locale key). */
  error_code?: string;
  error_message?: string;
};
export type AcceptSmsAnswer = { data: AcceptedSms[]; total_price: number; currency: string };

const CHANNEL = "sms";

/** What a blocked recipient becomes: the message status, its error code and the reason's locale key. */
const BLOCKED = {
  optout: { status: "optout", error_code: "optout", error_message: "errors.RECIPIENT_OPTED_OUT" },
  deny_list: { status: "rejected", error_code: "deny_list", error_message: "errors.RECIPIENT_DENIED" },
} as const;
type Blocked = keyof typeof BLOCKED;

/** The key as a client sends it: 1..255 visible ASCII characters. */
function checkKey(key: string) {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new AppError("VALIDATION", { fields: { idempotency_key: ["validation.invalid"] } });
}

/** A stable hash of what is sent (after normalization), so "+55 11 9…" and "11 9…" are one request. */
function requestHash(data: SendSmsInput) {
  const canonical = JSON.stringify({ to: data.to, from: data.from, body: data.body, route: data.route });
  return createHash("sha256").update(canonical).digest("hex");
}

export async function acceptSms(ctx: SignedInCtx, input: unknown, opts: { idempotencyKey?: string | null } = {}): Promise<AcceptSmsAnswer> {
  if (!can(ctx.actor, "/sms/send")) throw new AppError("FORBIDDEN");
  initModels();
  const key = opts.idempotencyKey ?? null;
  if (key !== null) checkKey(key);
  const data = validate(sendSmsSchema, input);
  const { coding, segments } = smsSegments(data.body);
  const accountId = ctx.actor.accountId;
  const provider = defaultProvider(CHANNEL);
  if (!provider) throw new AppError("INTERNAL", { message: "no SMS provider is registered" });
  const hash = requestHash(data);
  const db = sequelize();

  return db.transaction(async (transaction) => {
    const [account] = await db.query<{ balance: string; credit_limit: string; currency: string }>(
      `SELECT balance, credit_limit, currency FROM accounts WHERE id = $1 FOR UPDATE`,
      { bind: [accountId], type: QueryTypes.SELECT, transaction },
    );
    if (!account) throw new AppError("NOT_FOUND");

    if (key !== null) {
      const [stored] = await db.query<{ request_hash: string; response: AcceptSmsAnswer }>(
        `SELECT request_hash, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
        { bind: [accountId, key], type: QueryTypes.SELECT, transaction },
      );
      if (stored) {
        if (stored.request_hash !== hash) throw new AppError("IDEMPOTENCY_CONFLICT");
        return stored.response;
      }
    }

    const currency = account.currency.trim();
    const { pricePerSegment } = await segmentPrice(accountId, currency, data.route, transaction);
    const price = segments * pricePerSegment;

    // Opted out (the recipient's own choice) wins over the deny list when a number is on both.
    const blockedRows = await db.query<{ recipient: string; why: Blocked }>(
      `SELECT DISTINCT ON (recipient) recipient, why FROM (
         SELECT recipient, 'optout' AS why, 0 AS rank FROM optouts WHERE account_id = $1 AND channel = $2 AND recipient = ANY($3::text[])
         UNION ALL
         SELECT recipient, 'deny_list', 1 FROM deny_list WHERE account_id = $1 AND recipient = ANY($3::text[])
       ) b ORDER BY recipient, rank`,
      { bind: [accountId, CHANNEL, data.to], type: QueryTypes.SELECT, transaction },
    );
    const blocked = new Map(blockedRows.map((r) => [r.recipient, r.why]));
    const sendable = data.to.filter((to) => !blocked.has(to)).length;
    const total = price * sendable;
    if (total > 0 && Number(account.balance) + Number(account.credit_limit) < total) throw new AppError("INSUFFICIENT_BALANCE");

    if (total > 0) {
      await db.query(`UPDATE accounts SET balance = balance - $2, updated_at = now() WHERE id = $1`, { bind: [accountId, total], transaction });
    }
    // Per recipient, in request order: its status, error code and reason ('' for a queued one).
    const statuses = data.to.map((to) => (blocked.has(to) ? BLOCKED[blocked.get(to)!].status : "queued"));
    const errorCodes = data.to.map((to) => (blocked.has(to) ? BLOCKED[blocked.get(to)!].error_code : ""));
    const errorMessages = data.to.map((to) => (blocked.has(to) ? BLOCKED[blocked.get(to)!].error_message : ""));
    const rows = await db.query<{ id: string; recipient: string }>(
      `WITH m AS (
         INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, coding, status, provider, route, price, currency, queued_at, error_code, error_message)
         SELECT $1, $2, 'outbound', $3, r.recipient, $4, $5, $6, r.status, $7, $8,
                CASE WHEN r.status = 'queued' THEN $9::bigint ELSE 0 END, $10,
                CASE WHEN r.status = 'queued' THEN now() END, NULLIF(r.error_code, ''), NULLIF(r.error_message, '')
         FROM unnest($11::text[], $13::text[], $14::text[], $15::text[]) WITH ORDINALITY AS r(recipient, status, error_code, error_message, n) ORDER BY r.n
         RETURNING id, recipient, status, error_code
       ), o AS (
         INSERT INTO outbox (topic, payload) SELECT $12, jsonb_build_object('message_id', m.id::text) FROM m WHERE m.status = 'queued'
       ), e AS (
         INSERT INTO message_events (message_id, account_id, status, source, payload)
         SELECT m.id, $1, m.status, 'system',
                CASE WHEN m.status = 'queued' THEN jsonb_build_object('segments', $5::int, 'price', $9::bigint, 'currency', $10::text)
                     ELSE jsonb_build_object('reason', m.error_code) END
         FROM m
       )
       SELECT id, recipient FROM m`,
      {
        bind: [
          accountId, CHANNEL, data.from, data.body, segments, coding, provider, data.route, price, currency, data.to, dispatchStream(CHANNEL),
          statuses, errorCodes, errorMessages,
        ],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    // Moderation (api/moderation/hold.ts): a body with a word or URL under review holds the queued messages for approval.
    const { held } = await holdForReview({ accountId, body: data.body, messageIds: rows.map((r) => r.id), transaction });
    const idOf = new Map(rows.map((r) => [r.recipient, r.id]));
    const answer: AcceptSmsAnswer = {
      data: data.to.map((to): AcceptedSms => {
        const why = blocked.get(to);
        if (!why) return { id: idOf.get(to)!, to, status: "queued", segments, coding, price };
        const b = BLOCKED[why];
        return { id: idOf.get(to)!, to, status: b.status, segments, coding, price: 0, error_code: b.error_code, error_message: b.error_message };
      }),
      total_price: total,
      currency,
    };

    markHeld(answer.data, held);
    if (key !== null) {
      await db.query(`INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, $4::jsonb)`, {
        bind: [accountId, key, hash, JSON.stringify(answer)],
        transaction,
      });
    }
    await recordAudit({ ...ctx, transaction }, "sms.accepted", {
      meta: {
        messages: rows.length, segments: segments * sendable, total_price: total, currency, route: data.route,
        optout: blockedRows.filter((r) => r.why === "optout").length, rejected: blockedRows.filter((r) => r.why === "deny_list").length,
      },
    });
    return answer;
  });
}
