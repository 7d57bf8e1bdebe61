/**
 * Step 1 of the message pipeline for RCS (issue 21, ADR 055): accept one message from one of the
 * account's launched agents to one handset, as WhatsApp's accept does (api/whatsapp/send.ts):
 *   1. an Idempotency-Key answers the stored response of the same request (or 409 for another);
 *   2. the content is checked against the spec's and RBM's rules (./content.ts), or taken from a
 *      template of the account (`template_id`); the agent must be the account's and launched;
 *   3. a handset that opted out of RCS or is on the deny list gets a message `optout` /
 *      `rejected` at price 0 and no outbox row;
 *   4. the price by class (basic: a plain text under 160 characters; rich: anything else) in the
 *      account's currency (api/sms/pricing.ts CHANNEL_PRICING.rcs), or a unit of the account's RCS
 *      product (ADR 048);
 *   5. the message (`queued`, route = the class, content = the spec's content plus `fallbackSms`:
 *      whether a handset that is not RCS-capable gets an SMS instead — the request's `fallback_sms`,
 *      else the account's setting), its outbox row (topic messages:rcs), queued event, audit entry
 *      and key; the debit last (402 INSUFFICIENT_BALANCE and nothing written).
 * The worker's dispatcher then sends it through the RBM adapter (api/channels/rcs/rbm.ts): the
 * capability check, the SMS fallback, and RBM's callbacks (delivered, read) move it.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import { debitBalance } from "../accounts/balance";
import { auditFields, recordAudit } from "../audit/record";
import { dispatchStream } from "../channels/registry";
import type { SenderCtx, SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { exec, row } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { claimUnits, hasProductSql } from "../products/products";
import { writeOneSms } from "../sms/accept-batch";
import { blockedSql } from "../sms/accept";
import { storedAnswer } from "../sms/idempotency";
import { CHANNEL_PRICING, pickPrices, priceRowsSql, type PriceRow, type RcsPriceRoute } from "../sms/pricing";
import { plainText, priceClass, rcsContentSchema, type RcsContent } from "./content";

/** The provider of every RCS message (the one RCS adapter, ADR 055). */
export const RCS_PROVIDER = "rbm";

const E164 = /^\+[1-9]\d{7,14}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A form's checkbox ("on"), a JSON boolean, or absent. */
export const flag = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v === true || v === "on" || v === "true"));

export const sendRcsSchema = z
  .object({
    /** Absent or blank: the account's default agent (/settings/resources, ADR 071). */
    agent_id: z.string().trim().regex(UUID, "validation.option").optional().or(z.literal("")),
    to: z.string().trim().regex(E164, "validation.phone"),
    content: rcsContentSchema.optional(),
    template_id: z.string().trim().regex(UUID, "validation.option").optional(),
    fallback_sms: flag,
  })
  .superRefine((m, ctx) => {
    if (!m.content && !m.template_id) ctx.addIssue({ code: "custom", path: ["content", "type"], message: "validation.required" });
  });
export type SendRcsInput = z.input<typeof sendRcsSchema>;
type SendRcs = z.output<typeof sendRcsSchema>;

/** What is stored in messages.content: the spec's content and the fallback decided at accept. */
export type StoredRcsContent = RcsContent & { fallbackSms: boolean };

export type AcceptedRcs = {
  id: string;
  to: string;
  status: "queued" | "optout" | "rejected";
  price: number;
  currency: string;
  price_class: RcsPriceRoute;
  fallback_sms: boolean;
  error_code?: string;
};

type Agent = { id: string; rbm_agent_id: string | null; status: string };

export type Planned = {
  agent: Agent & { rbm_agent_id: string };
  priceClass: RcsPriceRoute;
  content: StoredRcsContent;
  text: string;
  currency: string;
  price: number;
  blocked: "optout" | "deny_list" | null;
  hasProduct: boolean;
};

/** Everything a send must know before it is written, in ONE round trip: each piece is its rule's own SQL. */
const FACTS_SQL = `
  SELECT a.currency, a.rcs_fallback_sms AS fallback,
         (SELECT row_to_json(g) FROM (SELECT id, rbm_agent_id, status FROM rcs_agents
            WHERE account_id = $1 AND id = COALESCE(NULLIF($2::text, '')::uuid, (SELECT rcs_agent_id FROM account_message_settings WHERE account_id = $1))) g) AS agent,
         (SELECT content FROM rcs_templates WHERE account_id = $1 AND id = $3) AS template,
         (SELECT coalesce(json_agg(p), '[]'::json) FROM (${priceRowsSql("rcs", "$1", "NULL")}) p) AS prices,
         (SELECT why FROM (${blockedSql("$1", "'rcs'", "ARRAY[$4::text]")}) b LIMIT 1) AS why,
         ${hasProductSql("$1", "'rcs'")} AS has_product
    FROM accounts a WHERE a.id = $1`;
type Facts = { currency: string; fallback: boolean; agent: Agent | null; template: unknown; prices: PriceRow[]; why: "optout" | "deny_list" | null; has_product: boolean };

/**
 * Steps 2–4 of the module comment, read in `transaction` when given. Without `to` (a campaign,
 * ./bulk.ts: the same agent, content and price for every handset) nothing is blocked here.
 */
export async function planRcs(
  accountId: string,
  data: Pick<SendRcs, "agent_id" | "content" | "template_id" | "fallback_sms"> & { to?: string },
  transaction?: Transaction,
): Promise<Planned> {
  // No agent named: the account's default agent (/settings/resources, ADR 071), read in the same statement.
  const facts = await row<Facts>(FACTS_SQL, [accountId, data.agent_id ?? "", data.template_id ?? null, data.to ?? null], { transaction });
  const agent = facts?.agent;
  if (!agent) throw new AppError("VALIDATION", { fields: { agent_id: [data.agent_id ? "validation.option" : "validation.required"] } });
  if (agent.status !== "launched" || !agent.rbm_agent_id) throw new AppError("VALIDATION", { fields: { agent_id: ["validation.rcsAgentNotLaunched"] } });
  let content = data.content;
  if (!content) {
    if (!facts?.template) throw new AppError("VALIDATION", { fields: { template_id: ["validation.option"] } });
    content = validate(rcsContentSchema, facts.template);
  }
  const currency = (facts?.currency ?? "BRL").trim();
  const cls = priceClass(content);
  const [price] = pickPrices({ ...CHANNEL_PRICING.rcs, routes: [cls] }, currency, facts?.prices ?? []);
  if (!price) throw new AppError("VALIDATION", { fields: { "content.type": ["validation.option"] } });
  const blocked = facts?.why ?? null;
  return {
    agent: { ...agent, rbm_agent_id: agent.rbm_agent_id },
    priceClass: cls,
    content: { ...content, fallbackSms: data.fallback_sms ?? Boolean(facts?.fallback) },
    text: plainText(content),
    currency,
    price: blocked ? 0 : price.pricePerSegment,
    blocked,
    hasProduct: Boolean(facts?.has_product),
  };
}

const statusOf = (p: Planned) => (p.blocked ? (p.blocked === "optout" ? "optout" : "rejected") : "queued");

const answerOf = (id: string, to: string, p: Planned): { data: AcceptedRcs } => ({
  data: {
    id,
    to,
    status: statusOf(p),
    price: p.price,
    currency: p.currency,
    price_class: p.priceClass,
    fallback_sms: p.content.fallbackSms,
    ...(p.blocked ? { error_code: p.blocked } : {}),
  },
});

const auditMeta = (id: string, p: Planned) => ({ id, type: p.content.type, price_class: p.priceClass, price: p.price, currency: p.currency });

/**
 * What a send costs, without writing anything: the class and the price in the account's currency
 * (the composer shows it before sending). Checks the content like a send does.
 */
export async function quoteRcs(ctx: SignedInCtx, input: unknown): Promise<{ data: { price_class: RcsPriceRoute; price: number; currency: string } }> {
  if (!can(ctx.actor, "/rcs/send")) throw new AppError("FORBIDDEN");
  const p = await planRcs(ctx.actor.accountId, validate(sendRcsSchema, input));
  return { data: { price_class: p.priceClass, price: p.blocked ? 0 : p.price, currency: p.currency } };
}

/**
 * One send. Checked first (the stored answer of its Idempotency-Key, the agent, the content, the
 * price, opt-outs), then written group-committed with the other one-at-a-time sends in flight
 * (api/sms/accept-batch.ts, ADR 027); a send the batch could not write is done again alone in one
 * transaction, which gives it its exact answer (402, or the stored key's).
 */
export async function acceptRcs(ctx: SignedInCtx, input: unknown, idempotencyKey: string | null = null): Promise<{ data: AcceptedRcs }> {
  if (!can(ctx.actor, "/rcs/send")) throw new AppError("FORBIDDEN");
  const data = validate(sendRcsSchema, input);
  const accountId = ctx.actor.accountId;
  const hash = createHash("sha256").update(JSON.stringify(data)).digest("hex");
  if (idempotencyKey !== null) {
    const stored = await storedAnswer<{ data: AcceptedRcs }>(accountId, idempotencyKey, hash);
    if (stored) return stored;
  }
  const p = await planRcs(accountId, data);
  if (p.hasProduct && !p.blocked && p.price > 0) return acceptAlone(ctx, data, hash, idempotencyKey);
  const answer = answerOf(randomUUID(), data.to, p);
  try {
    const written = await writeOneSms({
      id: answer.data.id,
      accountId,
      channel: "rcs",
      topic: dispatchStream("rcs"),
      sender: p.agent.rbm_agent_id,
      recipient: data.to,
      body: p.text,
      segments: 1,
      coding: null as unknown as string,
      status: answer.data.status,
      errorCode: p.blocked,
      errorMessage: null,
      price: p.price,
      currency: p.currency,
      route: p.priceClass,
      provider: RCS_PROVIDER,
      scheduledAt: null,
      audit: auditFields(ctx, "rcs.accepted", { meta: auditMeta(answer.data.id, p) }),
      idempotency: idempotencyKey === null ? null : { key: idempotencyKey, hash, response: answer },
      type: p.content.type,
      content: p.content,
    });
    if (written.written) return answer;
  } catch {
    // The batch's statement failed (a key stored meanwhile by another request): this send alone, below.
  }
  return acceptAlone(ctx, data, hash, idempotencyKey);
}

/** The one-at-a-time write in ONE transaction, the debit last: the exact answer of a send the batch could not take. */
async function acceptAlone(ctx: SignedInCtx, data: SendRcs, hash: string, idempotencyKey: string | null) {
  const accountId = ctx.actor.accountId;
  return sequelize().transaction(async (transaction) => {
    if (idempotencyKey !== null) {
      const stored = await storedAnswer<{ data: AcceptedRcs }>(accountId, idempotencyKey, hash, transaction);
      if (stored) return stored;
    }
    return (await writeParsed(ctx, data, transaction, idempotencyKey === null ? null : { key: idempotencyKey, hash })).answer;
  });
}

/**
 * One RCS message in the caller's `transaction`, the debit last (402 INSUFFICIENT_BALANCE rolls it
 * all back): the message, its outbox row and queued event, the key's answer, the audit entry. Also
 * an agent's or the flow bot's message in an RCS live chat room and a keyword's answer, in their
 * transaction. It checks no permission (its callers do): `ctx` only names the account and the user
 * for the audit (null for the bot). The input is validated here.
 */
export async function writeRcsMessage(
  ctx: SenderCtx,
  input: SendRcsInput,
  transaction: Transaction,
  idempotency: { key: string; hash: string } | null = null,
): Promise<{ answer: { data: AcceptedRcs }; text: string }> {
  return writeParsed(ctx, validate(sendRcsSchema, input), transaction, idempotency);
}

async function writeParsed(ctx: SenderCtx, data: SendRcs, transaction: Transaction, idempotency: { key: string; hash: string } | null) {
  const accountId = ctx.actor.accountId;
  const t = { transaction };
  const planned = await planRcs(accountId, data, transaction);
  // Covered by the account's RCS product (ADR 048): price 0, the product recorded; else the balance pays below.
  const [product] = planned.hasProduct && !planned.blocked && planned.price > 0 ? await claimUnits(accountId, "rcs", [1], transaction) : [null];
  const p = product ? { ...planned, price: 0 } : planned;
  const status = statusOf(p);
  const written = await row<{ id: string }>(
    `WITH m AS (
       INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, provider, route, price, currency, type, content, error_code, queued_at, product_id)
       VALUES ($1, 'rcs', 'outbound', $2, $3, $4, 1, $5, $6, $13, $7, $8, $9, $10::jsonb, $11, CASE WHEN $5 = 'queued' THEN now() END, $14::uuid)
       RETURNING id, created_at
     ), o AS (
       INSERT INTO outbox (topic, payload) SELECT $12, jsonb_build_object('message_id', m.id::text) FROM m WHERE $5 = 'queued'
     ), e AS (
       INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
       SELECT m.id, m.created_at, $1, $5, 'system', jsonb_build_object('price', $7::bigint, 'currency', $8::text, 'price_class', $13::text) FROM m
     )
     SELECT id FROM m`,
    [
      accountId,
      p.agent.rbm_agent_id,
      data.to,
      p.text,
      status,
      RCS_PROVIDER,
      p.price,
      p.currency,
      p.content.type,
      JSON.stringify(p.content),
      p.blocked,
      dispatchStream("rcs"),
      p.priceClass,
      product ?? null,
    ],
    t,
  );
  const answer = answerOf(written!.id, data.to, p);
  if (idempotency) {
    await exec(
      `INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, $4::jsonb)`,
      [accountId, idempotency.key, idempotency.hash, JSON.stringify(answer)],
      t,
    );
  }
  await recordAudit({ ip: ctx.ip, userAgent: ctx.userAgent, transaction }, "rcs.accepted", { accountId, userId: ctx.actor.userId, meta: auditMeta(answer.data.id, p) });
  // The debit last: the balance row is locked only from here to the commit.
  if (!(await debitBalance(accountId, p.price, transaction))) throw new AppError("INSUFFICIENT_BALANCE");
  return { answer, text: p.text };
}

export type RcsMessageView = {
  id: string;
  direction: string;
  agent_id: string | null;
  from: string;
  to: string;
  type: string;
  content: StoredRcsContent | null;
  body: string;
  status: string;
  price: number;
  currency: string;
  price_class: string | null;
  provider_message_id: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  failed_at: Date | null;
  /** The SMS that stood in for it (a handset not RCS-capable), if any. */
  fallback: { id: string; status: string; price: number; currency: string; created_at: Date } | null;
};

/** GET /api/rcs/messages/{id}: one RCS message of the account with its SMS fallback leg, read on the primary (the message just sent). */
export async function getRcsMessage(ctx: SignedInCtx, id: string): Promise<{ data: RcsMessageView }> {
  if (!can(ctx.actor, "/rcs/history")) throw new AppError("FORBIDDEN");
  const found = UUID.test(id)
    ? await row<RcsMessageView>(
        `SELECT m.id, m.direction, g.id AS agent_id, m.sender AS "from", m.recipient AS "to", m.type, m.content, m.body, m.status, m.price::int AS price,
                trim(m.currency) AS currency, m.route AS price_class, m.provider_message_id, m.error_code, m.error_message,
                m.created_at, m.sent_at, m.delivered_at, m.read_at, m.failed_at,
                (SELECT json_build_object('id', f.id, 'status', f.status, 'price', f.price::int, 'currency', trim(f.currency), 'created_at', f.created_at)
                   FROM messages f WHERE f.account_id = m.account_id AND f.fallback_of = m.id LIMIT 1) AS fallback
           FROM messages m
           LEFT JOIN rcs_agents g ON g.account_id = m.account_id AND g.rbm_agent_id = (CASE WHEN m.direction = 'outbound' THEN m.sender ELSE m.recipient END)
          WHERE m.id = $1 AND m.account_id = $2 AND m.channel = 'rcs'`,
        [id, ctx.actor.accountId],
      )
    : null;
  if (!found) throw new AppError("NOT_FOUND");
  return { data: found };
}
