/**
 * Accepting e-mail (issue 17, POST /api/email/messages; ADR 036): step 1 of the message pipeline
 * for the e-mail channel. One request names one recipient or a list (up to MAX_RECIPIENTS), a
 * subject and an HTML and/or text part — or a template (`template_id`, active, of the account) whose
 * {{variables}} are filled per recipient from `variables` and the account's contact with that
 * address (./variables.ts: HTML-escaped, one-line subject) —, from an address of one of the account's validated
 * domains ('You need to register a domain and verify it before submitting' otherwise), now or at
 * `scheduled_at`. In ONE transaction: a message row per recipient (channel `email`, sender the from
 * address, recipient the address, body the text part, content the rest), its outbox row (unless
 * scheduled or blocked), its first event, the Idempotency-Key's answer, the audit entry and the
 * debit of the account's balance last (402 rolls everything back). Opted-out addresses end
 * `optout`, denied ones `rejected`, at price 0 (spec section 5: not charged).
 */
import { createHash, randomUUID } from "node:crypto";
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import { messageSettingsOf } from "../message-settings/settings";
import { debitBalance } from "../accounts/balance";
import { recordAudit } from "../audit/record";
import { dispatchStream } from "../channels/registry";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { exec, row } from "../lib/sql";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { claimUnits } from "../products/products";
import { blockedSql } from "../sms/accept";
import { CHANNEL_PRICING, pickPrices, priceRowsSql, type PriceRow } from "../sms/pricing";
import { MAX_SCHEDULE_DAYS } from "../sms/schemas";
import { EMAIL_PROVIDER } from "./provider";
import { type SendEmailInput, sendEmailSchema } from "./schemas";
import { contactValuesByEmail, templateForSend } from "./templates";
import { fillParts, partsVariables } from "./variables";

export { EMAIL_PROVIDER };

export type AcceptedEmail = { id: string; to: string; status: "queued" | "scheduled" | "optout" | "rejected"; price: number };
export type AcceptedEmails = { data: { messages: AcceptedEmail[]; total_price: number; currency: string; scheduled_at: string | null } };

const fieldError = (field: string, key: string) => new AppError("VALIDATION", { fields: { [field]: [key] } });

/** What the message row's `content` holds besides the text body (the adapter builds the e-mail from it). */
export type EmailContent = { subject: string; html: string | null; from_name: string | null; reply_to: string | null; domain: string; template_id?: string | null };

/**
 * Most bytes one request may render when a template's variables make each recipient's e-mail its
 * own (recipients × HTML): past it the list is refused on `to` (send it as a campaign).
 */
export const MAX_RENDERED_BYTES = 64 * 1024 * 1024;

const FACTS_SQL = `
  SELECT a.currency,
         (SELECT coalesce(json_agg(p), '[]'::json) FROM (${priceRowsSql("email", "$1", "NULL")}) p) AS prices,
         (SELECT coalesce(json_agg(b), '[]'::json) FROM (${blockedSql("$1", "'email'", "$2")}) b) AS blocked,
         EXISTS (SELECT 1 FROM email_domains WHERE account_id = $1 AND domain = $3 AND status = 'validated') AS domain_ok
    FROM accounts a WHERE a.id = $1`;
type Facts = { currency: string; prices: PriceRow[]; blocked: Array<{ recipient: string; why: "optout" | "deny_list" }>; domain_ok: boolean };

async function storedAnswer(accountId: string, key: string, hash: string, transaction: Transaction): Promise<AcceptedEmails | null> {
  const stored = await row<{ request_hash: string; response: AcceptedEmails }>(
    `SELECT request_hash, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
    [accountId, key],
    {
      transaction,
    },
  );
  if (!stored) return null;
  if (stored.request_hash !== hash) throw new AppError("IDEMPOTENCY_CONFLICT");
  return stored.response;
}

/**
 * The address a send goes from: its own, else the account's default (/settings/resources, ADR 071)
 * with the default's display name unless the send names one; 422 on \`from\` when there is neither.
 */
export async function senderOf(accountId: string, data: { from?: string; from_name?: string }): Promise<{ from: string; fromName: string | undefined }> {
  if (data.from) return { from: data.from, fromName: data.from_name };
  const settings = await messageSettingsOf(accountId);
  if (!settings.email_from) throw fieldError("from", "validation.required");
  return { from: settings.email_from, fromName: data.from_name || settings.email_from_name || undefined };
}

export async function acceptEmail(ctx: SignedInCtx, input: unknown, idempotencyKey: string | null = null): Promise<AcceptedEmails> {
  if (!can(ctx.actor, "/mail/send")) throw new AppError("FORBIDDEN");
  const data: SendEmailInput = validate(sendEmailSchema, input);
  const scheduledAt = data.scheduled_at ?? null;
  if (scheduledAt && scheduledAt.getTime() <= Date.now()) throw fieldError("scheduled_at", "sms.errors.schedulePast");
  if (scheduledAt && scheduledAt.getTime() > Date.now() + MAX_SCHEDULE_DAYS * 86_400_000) throw fieldError("scheduled_at", `sms.errors.scheduleTooFar::${MAX_SCHEDULE_DAYS}`);
  const recipients = [...new Set(Array.isArray(data.to) ? data.to : [data.to])];
  const accountId = ctx.actor.accountId;
  const hash = createHash("sha256")
    .update(JSON.stringify({ ...data, scheduled_at: scheduledAt?.toISOString() ?? null }))
    .digest("hex");
  const { from, fromName } = await senderOf(accountId, data);
  const domain = from.slice(from.lastIndexOf("@") + 1);
  return sequelize().transaction(async (transaction) => {
    const t = { transaction };
    if (idempotencyKey !== null) {
      const stored = await storedAnswer(accountId, idempotencyKey, hash, transaction);
      if (stored) return stored;
    }
    const facts = (await row<Facts>(FACTS_SQL, [accountId, recipients, domain], t))!;
    if (!facts.domain_ok) throw fieldError("from", "validation.emailDomainNotValidated");
    const currency = facts.currency.trim();
    const [price] = pickPrices(CHANNEL_PRICING.email, currency, facts.prices);
    if (!price) throw fieldError("from", "validation.emailNotOffered");
    const why = new Map(facts.blocked.map((b) => [b.recipient, b.why]));
    // The account's e-mail product covers one unit per e-mail while its credits last (ADR 048); the balance pays the rest.
    const covered = await claimUnits(
      accountId,
      "email",
      recipients.map((to) => (why.has(to) ? 0 : 1)),
      transaction,
    );
    const messages: AcceptedEmail[] = recipients.map((to, i) => {
      const blocked = why.get(to);
      return {
        id: randomUUID(),
        to,
        status: blocked === "optout" ? "optout" : blocked === "deny_list" ? "rejected" : scheduledAt ? "scheduled" : "queued",
        price: blocked || covered[i] ? 0 : price.pricePerSegment,
      };
    });
    // Each recipient's parts: the request's own, or the template filled with the variables given and the recipient's contact (by address).
    const base = { from_name: fromName || null, reply_to: data.reply_to ?? null, domain };
    let parts: Array<{ body: string; content: EmailContent }>;
    if (data.template_id) {
      const template = await templateForSend(accountId, data.template_id, transaction);
      const source = { subject: template.subject, html: template.html, text: template.text };
      const perContact = partsVariables(template.subject, template.html, template.text).some((v) => !data.variables || !(v in data.variables));
      const contacts = perContact ? await contactValuesByEmail(accountId, recipients, transaction) : new Map();
      if (contacts.size > 0 && contacts.size * Buffer.byteLength(template.html) > MAX_RENDERED_BYTES) throw fieldError("to", "validation.emailRenderedSize");
      const shared = fillParts(source, [data.variables]);
      parts = recipients.map((to) => {
        const own = contacts.get(to);
        const filled = own ? fillParts(source, [data.variables, own]) : shared;
        return { body: filled.text ?? "", content: { ...base, subject: filled.subject, html: filled.html, template_id: template.id } };
      });
    } else {
      const content: EmailContent = { ...base, subject: data.subject ?? "", html: data.html?.trim() ? data.html : null };
      parts = recipients.map(() => ({ body: data.text?.trim() ? data.text! : "", content }));
    }
    await exec(
      `WITH m AS (
         INSERT INTO messages (id, account_id, channel, direction, sender, recipient, body, segments, status, provider, price, currency, type, content,
                               error_code, error_message, scheduled_at, queued_at, product_id)
         SELECT r.id, $1, 'email', 'outbound', $2, r.recipient, r.body, 1, r.status, $4, r.price, $5, 'email', r.content::jsonb,
                CASE r.status WHEN 'optout' THEN 'optout' WHEN 'rejected' THEN 'deny_list' END,
                CASE r.status WHEN 'optout' THEN 'errors.RECIPIENT_OPTED_OUT' WHEN 'rejected' THEN 'errors.RECIPIENT_DENIED' END,
                $7::timestamptz, CASE WHEN r.status = 'queued' THEN now() END, r.product
           FROM unnest($8::uuid[], $9::text[], $10::text[], $11::bigint[], $3::text[], $6::text[], $13::uuid[]) WITH ORDINALITY AS r(id, recipient, status, price, body, content, product, n)
          ORDER BY r.n
         RETURNING id, created_at, status, price
       ), o AS (
         INSERT INTO outbox (topic, payload) SELECT $12, jsonb_build_object('message_id', m.id::text) FROM m WHERE m.status = 'queued'
       )
       INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
       SELECT m.id, m.created_at, $1, m.status, 'system', jsonb_build_object('price', m.price, 'currency', $5::text) FROM m`,
      [
        accountId,
        from,
        parts.map((p) => p.body),
        EMAIL_PROVIDER,
        currency,
        parts.map((p) => JSON.stringify(p.content)),
        scheduledAt,
        messages.map((m) => m.id),
        messages.map((m) => m.to),
        messages.map((m) => m.status),
        messages.map((m) => m.price),
        dispatchStream("email"),
        covered,
      ],
      t,
    );
    const total = messages.reduce((sum, m) => sum + m.price, 0);
    const answer: AcceptedEmails = { data: { messages, total_price: total, currency, scheduled_at: scheduledAt?.toISOString() ?? null } };
    if (idempotencyKey !== null) {
      await exec(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, $4::jsonb)`,
        [accountId, idempotencyKey, hash, JSON.stringify(answer)],
        t,
      );
    }
    await recordAudit({ ...ctx, transaction }, "email.accepted", { meta: { messages: messages.length, domain, total_price: total, currency } });
    if (total > 0 && !(await debitBalance(accountId, total, transaction))) throw new AppError("INSUFFICIENT_BALANCE");
    return answer;
  });
}
