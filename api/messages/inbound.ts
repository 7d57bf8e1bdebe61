/**
 * Inbound SMS (MO): a mobile's reply reaching us through a provider (SMPP deliver_sm, the HTTP
 * provider's or the simulator's signed webhook); WhatsApp's inbound messages take the same path
 * with `channel: "whatsapp"` and the number's account (api/whatsapp/webhooks.ts). Stored as a message of direction `inbound`,
 * status `received` (sender = the mobile, recipient = the number or short code it was sent to).
 *
 * Which account it belongs to (ADR 011): the account the short code it was sent to is assigned
 * to (`short_codes`, /admin short codes); else the account that last sent to this mobile FROM
 * this number/short code; else the account that last sent to this mobile at all; else nobody —
 * the MO is not stored (answered `unrouted`, logged).
 *
 * In the same transaction the account's keywords apply (api/optouts/account-keywords.ts, the
 * account's optout_keywords rows, seeded with the defaults and edited through the keywords API
 * or /sms/optouts): an opt-out keyword (SAIR, PARAR, CANCELAR, DESCADASTRAR, REMOVER, STOP by
 * default) opts the mobile out of SMS (source `keyword`, the keyword kept); a resume keyword
 * (VOLTAR, START by default) removes its SMS opt-out. Dedupe: a provider id seen before
 * (same provider) stores nothing again.
 */
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import { keywordsOf } from "../optouts/account-keywords";
import { matchKeyword } from "../optouts/keywords";
import { smsSegments } from "../sms/segments";
import { exec, rows } from "../lib/sql";

export type InboundSms = {
  provider: string;
  /** The provider's id of the MO, when it has one (dedupe); SMPP deliver_sm has none. */
  providerMessageId: string | null;
  /** E.164 of the mobile. */
  from: string;
  /** The number or short code it was sent to, as the provider gives it. */
  to: string;
  body: string;
  occurredAt: Date;
  /** The channel (sms by default; whatsapp, rcs for theirs): the message's and the keyword opt-out's. */
  channel?: "sms" | "whatsapp" | "rcs";
  /** What the message holds besides its text (RCS: a tapped suggestion's {suggestionResponse: {postbackData, text}}); stored in messages.content. */
  content?: Record<string, unknown> | null;
  /** The account, when the provider's address already says it (a WhatsApp number belongs to one account); else resolved as above. */
  accountId?: string;
};

export type InboundOutcome =
  | { result: "unrouted" }
  | { result: "duplicate"; messageId: string }
  | { result: "stored"; messageId: string; accountId: string; keyword: { action: "optout" | "resume"; keyword: string } | null };

/** The account an MO from `from` to `to` belongs to (see the module comment), or null. */
export async function accountForInbound(from: string, to: string): Promise<string | null> {
  const toDigits = to.replace(/^\+/, "");
  const [row] = await rows<{ account_id: string }>(
    `(SELECT account_id, -1 AS rank, updated_at AS created_at FROM short_codes WHERE number = $2 AND account_id IS NOT NULL)
     UNION ALL
     (SELECT account_id, 0, created_at FROM messages
        WHERE direction = 'outbound' AND recipient = $1 AND ltrim(sender, '+') = $2 ORDER BY created_at DESC LIMIT 1)
     UNION ALL
     (SELECT account_id, 1, created_at FROM messages WHERE direction = 'outbound' AND recipient = $1 ORDER BY created_at DESC LIMIT 1)
     ORDER BY rank LIMIT 1`,
    [from, toDigits],
  );
  return row?.account_id ?? null;
}

export async function receiveInbound(input: InboundSms): Promise<InboundOutcome> {
  const db = sequelize();
  if (input.providerMessageId) {
    const [seen] = await rows<{ id: string }>(`SELECT message_id AS id FROM message_provider_ids WHERE provider = $1 AND provider_message_id = $2`, [
      input.provider,
      input.providerMessageId,
    ]);
    if (seen) return { result: "duplicate", messageId: seen.id };
  }
  const channel = input.channel ?? "sms";
  const accountId = input.accountId ?? (await accountForInbound(input.from, input.to));
  if (!accountId) {
    console.warn(`inbound SMS from ${input.from} to ${input.to} (${input.provider}) matches no account: not stored`);
    return { result: "unrouted" };
  }
  const { coding, segments } = channel === "sms" ? smsSegments(input.body) : { coding: null, segments: 1 };
  const outcome = await db.transaction(async (transaction): Promise<InboundOutcome> => {
    // The (provider, provider_message_id) pair is claimed first in message_provider_ids (unique over every
    // month, ADR 029): a concurrent duplicate waits for it and inserts nothing. An MO without a provider id
    // (none today) is inserted as it is.
    const inserted = await rows<{ id: string; created_at: string }>(
      `WITH k AS (
         INSERT INTO message_provider_ids (provider, provider_message_id, message_id, message_created_at, account_id)
         SELECT $7, $8, gen_random_uuid(), $9, $1 WHERE $8::text IS NOT NULL
         ON CONFLICT (provider, provider_message_id) DO NOTHING
         RETURNING message_id
       )
       INSERT INTO messages (id, account_id, channel, direction, sender, recipient, body, segments, coding, status, provider, provider_message_id, price, created_at, updated_at, content)
       SELECT COALESCE((SELECT message_id FROM k), gen_random_uuid()), $1, $10, 'inbound', $2, $3, $4, $5, $6, 'received', $7, $8, 0, $9, now(), $11::jsonb
        WHERE $8::text IS NULL OR EXISTS (SELECT 1 FROM k)
       RETURNING id, created_at::text AS created_at`,
      [
        accountId,
        input.from,
        // An RCS agent's Google id (…@rbm.goog) is longer than a number or short code.
        input.to.slice(0, channel === "rcs" ? 200 : 40),
        input.body,
        segments,
        coding,
        input.provider,
        input.providerMessageId,
        input.occurredAt,
        channel,
        input.content ? JSON.stringify(input.content) : null,
      ],
      { transaction },
    );
    if (!inserted[0]) {
      const [seen] = await rows<{ id: string }>(
        `SELECT message_id AS id FROM message_provider_ids WHERE provider = $1 AND provider_message_id = $2`,
        [input.provider, input.providerMessageId],
        {
          transaction,
        },
      );
      return { result: "duplicate", messageId: seen.id };
    }
    const messageId = inserted[0].id;
    await exec(
      `INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload) VALUES ($1, $4, $2, 'received', 'provider', $3::jsonb)`,
      [messageId, accountId, JSON.stringify({ provider: input.provider, occurred_at: input.occurredAt.toISOString() }), inserted[0].created_at],
      { transaction },
    );

    const keywords = await keywordsOf(accountId, transaction);
    const stop = matchKeyword(input.body, keywords.optout);
    const resume = stop ? null : matchKeyword(input.body, keywords.resume);
    let keyword: { action: "optout" | "resume"; keyword: string } | null = null;
    if (stop) {
      keyword = { action: "optout", keyword: stop };
      const added = await rows<{ id: string }>(
        `INSERT INTO optouts (account_id, channel, recipient, source, keyword) VALUES ($1, $4, $2, 'keyword', $3)
         ON CONFLICT (account_id, channel, recipient) DO NOTHING RETURNING id`,
        [accountId, input.from, stop, channel],
        { transaction },
      );
      if (added[0]) await recordAudit({ transaction }, "optout.added", { accountId, meta: { id: added[0].id, channel, source: "keyword", keyword: stop, message_id: messageId } });
    } else if (resume) {
      keyword = { action: "resume", keyword: resume };
      const gone = await rows<{ id: string }>(`DELETE FROM optouts WHERE account_id = $1 AND channel = $3 AND recipient = $2 RETURNING id`, [accountId, input.from, channel], {
        transaction,
      });
      if (gone[0])
        await recordAudit({ transaction }, "optout.removed", { accountId, meta: { id: gone[0].id, channel, source: "keyword", keyword: resume, message_id: messageId } });
    }
    return { result: "stored", messageId, accountId, keyword };
  });
  return outcome;
}
