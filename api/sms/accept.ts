/**
 * Step 1 of the message pipeline for SMS: accept a send. Validates (api/sms/schemas.ts), counts
 * the segments, prices it, and in ONE transaction:
 *   1. locks the account row (SELECT … FOR UPDATE): sends of one account are serialized, so the
 *      balance check and the debit cannot race, and neither can two uses of one Idempotency-Key;
 *   2. with an Idempotency-Key, answers the stored response of the same request (nothing new is
 *      written) or refuses another request under the same key (409 IDEMPOTENCY_CONFLICT);
 *   3. refuses with 402 INSUFFICIENT_BALANCE when balance + credit limit < total;
 *   4. debits the balance, inserts the messages (queued), one outbox row each (topic
 *      `messages:sms`, read by api/dispatch/relay.ts) and a system `queued` event each;
 *   5. stores the key with the request's hash and the answer, and the audit entry (counts only).
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
import { segmentPrice } from "./pricing";
import { sendSmsSchema, type SendSmsInput } from "./schemas";
import { smsSegments, type SmsCoding } from "./segments";

export type AcceptedSms = { id: string; to: string; status: "queued"; segments: number; coding: SmsCoding; price: number };
export type AcceptSmsAnswer = { data: AcceptedSms[]; total_price: number; currency: string };

const CHANNEL = "sms";

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
    const total = price * data.to.length;
    if (Number(account.balance) + Number(account.credit_limit) < total) throw new AppError("INSUFFICIENT_BALANCE");

    await db.query(`UPDATE accounts SET balance = balance - $2, updated_at = now() WHERE id = $1`, { bind: [accountId, total], transaction });
    const rows = await db.query<{ id: string; recipient: string }>(
      `WITH m AS (
         INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, coding, status, provider, route, price, currency, queued_at)
         SELECT $1, $2, 'outbound', $3, r.recipient, $4, $5, $6, 'queued', $7, $8, $9, $10, now()
         FROM unnest($11::text[]) WITH ORDINALITY AS r(recipient, n) ORDER BY r.n
         RETURNING id, recipient
       ), o AS (
         INSERT INTO outbox (topic, payload) SELECT $12, jsonb_build_object('message_id', m.id::text) FROM m
       ), e AS (
         INSERT INTO message_events (message_id, account_id, status, source, payload)
         SELECT m.id, $1, 'queued', 'system', jsonb_build_object('segments', $5::int, 'price', $9::bigint, 'currency', $10::text) FROM m
       )
       SELECT id, recipient FROM m`,
      {
        bind: [accountId, CHANNEL, data.from, data.body, segments, coding, provider, data.route, price, currency, data.to, dispatchStream(CHANNEL)],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    const idOf = new Map(rows.map((r) => [r.recipient, r.id]));
    const answer: AcceptSmsAnswer = {
      data: data.to.map((to) => ({ id: idOf.get(to)!, to, status: "queued" as const, segments, coding, price })),
      total_price: total,
      currency,
    };

    if (key !== null) {
      await db.query(`INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, $4::jsonb)`, {
        bind: [accountId, key, hash, JSON.stringify(answer)],
        transaction,
      });
    }
    await recordAudit({ ...ctx, transaction }, "sms.accepted", {
      meta: { messages: rows.length, segments: segments * rows.length, total_price: total, currency, route: data.route },
    });
    return answer;
  });
}
