/**
 * Step 1 of the message pipeline for WhatsApp (issue 16): accept one message to one contact from
 * one of the account's numbers, as the SMS accept does (api/sms/accept.ts), written atomically
 * (group-committed, else alone: see acceptWhatsapp):
 *   1. an Idempotency-Key answers the stored response of the same request (or 409 for another);
 *   2. a contact who opted out of WhatsApp or is on the deny list gets a message `optout` /
 *      `rejected` at price 0 and no outbox row;
 *   3. free text only inside the contact's 24-hour window (./window.ts), else 422 'Please provide a
 *      template before sending'; a template only when approved, with exactly its variables
 *      ('Please fill all parameters');
 *   4. the price by Meta's category (the template's, or `service` for text in the window) in the
 *      account's currency (api/sms/pricing.ts CHANNEL_PRICING.whatsapp);
 *   5. the message (`queued`, content = Graph's message object), its outbox row (topic
 *      messages:whatsapp) and queued event, the audit entry and the key; the debit last
 *      (402 INSUFFICIENT_BALANCE and nothing written when it no longer covers the price).
 * The worker's dispatcher then sends it through the channel adapter (api/channels/whatsapp/adapter.ts)
 * and Meta's status webhooks move it: sent, delivered, read, failed.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import { debitBalance } from "../accounts/balance";
import { auditFields, recordAudit } from "../audit/record";
import { writeOneSms } from "../sms/accept-batch";
import { storedAnswer } from "../sms/idempotency";
import { whatsappProvider } from "../channels/whatsapp/adapter";
import { dispatchStream } from "../channels/registry";
import type { SenderCtx, SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { exec, row } from "../lib/sql";
import { claimUnits, hasProductSql } from "../products/products";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { isIP } from "node:net";
import { addressRisk } from "../lib/outbound";
import { blockedSql } from "../sms/accept";
import { CHANNEL_PRICING, pickPrices, priceRowsSql, type PriceRow, type WhatsappPriceRoute } from "../sms/pricing";
import { isMediaKind, mediaByIdAsLink, mediaSha256 } from "./media";
import { SENDING_NUMBER, sendingNumber } from "./numbers";
import { messageSettingsOf } from "../message-settings/settings";
import { withSettingsTexts } from "../message-settings/apply";
import { variablesOf } from "./schemas";
import { WINDOW_HOURS } from "./window";

const E164 = /^\+[1-9]\d{7,14}$/;
const param = z.string().trim().min(1, "validation.required").max(1000, "validation.maxLength::1000");
const text = (max: number) => z.string().trim().min(1, "validation.required").max(max, `validation.maxLength::${max}`);

/**
 * A media link the provider fetches (Meta, not us): https, no credentials, not an address of a
 * private network or a loopback name ('Invalid media URL'). Checked on its own, whatever our own
 * outbound guard allows in development.
 */
export function publicMediaLink(v: string): boolean {
  try {
    const url = new URL(v);
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (url.protocol !== "https:" || url.username || url.password || host === "localhost" || host.endsWith(".localhost")) return false;
    return !(isIP(host) && addressRisk(host));
  } catch {
    return false;
  }
}
export const mediaLink = z.string().trim().max(2000, "validation.maxLength::2000").refine(publicMediaLink, "validation.waSendMediaUrl");
const caption = z.string().trim().max(1024, "validation.maxLength::1024").optional();
/**
 * Graph's media object: by `link` (a public https address the provider fetches) or by `id` (a
 * file uploaded here, POST /api/whatsapp/media: ./media.ts), exactly one of the two.
 */
const mediaSource = { link: mediaLink.optional(), id: z.string().trim().max(64, "validation.maxLength::64").optional() };
const oneSource = (m: { link?: string; id?: string }) => Boolean(m.link) !== Boolean(m.id);
const oneSourceIssue = { path: ["link"], message: "validation.waMediaLinkOrId" };

/** Graph's interactive messages: reply buttons (1–3, titles up to 20 and distinct) or a list (sections of rows, 10 rows in all). */
const interactive = z.discriminatedUnion(
  "type",
  [
    z.object({
      type: z.literal("button"),
      body: z.object({ text: text(1024) }),
      footer: z.object({ text: text(60) }).optional(),
      action: z.object({
        buttons: z
          .array(z.object({ type: z.literal("reply").default("reply"), reply: z.object({ id: text(256), title: text(20) }) }))
          .min(1, "validation.required")
          .max(3, "validation.waButtonsMax::3")
          .refine((b) => new Set(b.map((x) => x.reply.title.toLowerCase())).size === b.length, "validation.waQuickReplyRepeat"),
      }),
    }),
    z.object({
      type: z.literal("list"),
      body: z.object({ text: text(4096) }),
      footer: z.object({ text: text(60) }).optional(),
      action: z.object({
        button: text(20),
        sections: z
          .array(
            z.object({
              title: z.string().trim().max(24, "validation.maxLength::24").optional(),
              rows: z
                .array(z.object({ id: text(200), title: text(24), description: z.string().trim().max(72, "validation.maxLength::72").optional() }))
                .min(1, "validation.required"),
            }),
          )
          .min(1, "validation.required")
          .max(10, "validation.maxItems::10")
          .refine((s) => s.reduce((n, x) => n + x.rows.length, 0) <= 10, "validation.waListRows"),
      }),
    }),
  ],
  "validation.option",
);

export const SEND_TYPES = ["text", "template", "image", "video", "document", "audio", "sticker", "location", "interactive"] as const;
export type SendType = (typeof SEND_TYPES)[number];

export const sendWhatsappSchema = z
  .object({
    /** The sending number; absent or blank: the account's default WhatsApp number (/settings/resources, ADR 071). */
    from: z.string().trim().regex(SENDING_NUMBER, "validation.option").optional().or(z.literal("")),
    to: z.string().trim().regex(E164, "validation.phone"),
    type: z.enum(SEND_TYPES, "validation.option"),
    text: z.object({ body: text(4096) }).optional(),
    template: z
      .object({
        name: z.string().trim().min(1, "validation.required").max(512),
        language: z.string().trim().min(2, "validation.required").max(10),
        variables: z.array(param).max(100).optional().default([]),
        header_variable: param.optional(),
        header_media: z.object({ link: mediaLink }).optional(),
        button_variable: param.optional(),
      })
      .optional(),
    image: z
      .object({ ...mediaSource, caption })
      .refine(oneSource, oneSourceIssue)
      .optional(),
    video: z
      .object({ ...mediaSource, caption })
      .refine(oneSource, oneSourceIssue)
      .optional(),
    document: z
      .object({ ...mediaSource, caption, filename: z.string().trim().max(240, "validation.maxLength::240").optional() })
      .refine(oneSource, oneSourceIssue)
      .optional(),
    audio: z.object(mediaSource).refine(oneSource, oneSourceIssue).optional(),
    sticker: z.object(mediaSource).refine(oneSource, oneSourceIssue).optional(),
    location: z
      .object({
        latitude: z.coerce.number("validation.number").min(-90, "validation.min::-90").max(90, "validation.max::90"),
        longitude: z.coerce.number("validation.number").min(-180, "validation.min::-180").max(180, "validation.max::180"),
        name: z.string().trim().max(1000, "validation.maxLength::1000").optional(),
        address: z.string().trim().max(1000, "validation.maxLength::1000").optional(),
      })
      .optional(),
    interactive: interactive.optional(),
  })
  .superRefine((m, ctx) => {
    if (m.type === "text" && !m.text) ctx.addIssue({ code: "custom", path: ["text", "body"], message: "validation.required" });
    else if (m.type === "template" && !m.template) ctx.addIssue({ code: "custom", path: ["template"], message: "validation.waTemplateNeeded" });
    else if (m.type !== "text" && m.type !== "template" && !m[m.type]) ctx.addIssue({ code: "custom", path: [m.type], message: "validation.required" });
  });
export type SendWhatsappInput = z.infer<typeof sendWhatsappSchema>;

export type AcceptedWhatsapp = {
  id: string;
  to: string;
  status: "queued" | "optout" | "rejected";
  price: number;
  currency: string;
  category: WhatsappPriceRoute;
  error_code?: string;
};

type TemplateRow = { id: string; name: string; language: string; category: WhatsappPriceRoute; status: string; components: Array<Record<string, unknown>> };

type HeaderPart = { format?: string; example?: { header_handle?: string[] } };

/**
 * Graph's header parameter of a template whose header is an image, a video or a document (Meta
 * refuses such a send without one: 132012): the link given with the send, else the example the
 * template was submitted with. Null for a text header or none; undefined when a media header has no link.
 */
export function mediaHeaderComponent(header: HeaderPart | undefined, link?: string): Record<string, unknown> | null | undefined {
  const kind = header?.format?.toLowerCase();
  if (kind !== "image" && kind !== "video" && kind !== "document") return null;
  const url = link ?? header?.example?.header_handle?.[0];
  return url ? { type: "header", parameters: [{ type: kind, [kind]: { link: url } }] } : undefined;
}

/** Graph's template message and its readable text, from an approved template and the variables; 422 when they do not fit. */
function templateContent(t: TemplateRow, input: NonNullable<SendWhatsappInput["template"]>) {
  const part = (type: string) => t.components.find((c) => c.type === type) as (HeaderPart & { text?: string; buttons?: Array<{ type: string; url?: string }> }) | undefined;
  const body = part("BODY")?.text ?? "";
  const header = part("HEADER");
  const media = mediaHeaderComponent(header, input.header_media?.link);
  if (media === undefined) throw new AppError("VALIDATION", { fields: { "template.header_media.link": ["validation.waFillParameters"] } });
  const urlButton = part("BUTTONS")?.buttons?.findIndex((b) => b.type === "URL" && variablesOf(b.url ?? "").length > 0) ?? -1;
  const missing =
    variablesOf(body).length !== input.variables.length ||
    (header?.format === "TEXT" && variablesOf(header.text ?? "").length > 0 && !input.header_variable) ||
    (urlButton >= 0 && !input.button_variable);
  if (missing) throw new AppError("VALIDATION", { fields: { "template.variables": ["validation.waFillParameters"] } });
  const components: Array<Record<string, unknown>> = [];
  if (header?.format === "TEXT" && input.header_variable) components.push({ type: "header", parameters: [{ type: "text", text: input.header_variable }] });
  if (media) components.push(media);
  if (input.variables.length) components.push({ type: "body", parameters: input.variables.map((text) => ({ type: "text", text })) });
  if (urlButton >= 0 && input.button_variable)
    components.push({ type: "button", sub_type: "url", index: String(urlButton), parameters: [{ type: "text", text: input.button_variable }] });
  const text = body.replace(/\{\{\s*(\d+)\s*\}\}/g, (_, n) => input.variables[Number(n) - 1] ?? "");
  return { content: { type: "template", template: { name: t.name, language: { code: t.language }, ...(components.length ? { components } : {}) } }, text };
}

/** Graph's message object of a free-form send, and the text the history shows for it. */
function freeFormContent(data: SendWhatsappInput): { content: Record<string, unknown>; text: string } {
  switch (data.type) {
    case "text":
      return { content: { type: "text", text: { body: data.text!.body } }, text: data.text!.body };
    case "location": {
      const l = data.location!;
      return { content: { type: "location", location: l }, text: [l.name, l.address, `${l.latitude},${l.longitude}`].filter(Boolean).join(" — ") };
    }
    case "interactive": {
      const i = data.interactive!;
      const options = i.type === "button" ? i.action.buttons.map((b) => b.reply.title) : i.action.sections.flatMap((s) => s.rows.map((r) => r.title));
      return { content: { type: "interactive", interactive: i }, text: `${i.body.text}\n[${options.join(" | ")}]` };
    }
    default: {
      const media = data[data.type as "image" | "video" | "document" | "audio" | "sticker"]!;
      const said = "caption" in media && media.caption ? media.caption : "";
      return { content: { type: data.type, [data.type]: media }, text: said || `[${data.type}]` };
    }
  }
}

/** `hasProduct`: the account has an active WhatsApp product (ADR 048): the send goes one at a time, which claims its credit. */
type Planned = {
  category: WhatsappPriceRoute;
  content: Record<string, unknown>;
  text: string;
  currency: string;
  price: number;
  blocked: "optout" | "deny_list" | null;
  hasProduct: boolean;
};

/** Everything a send must know before it is written, in ONE round trip: each piece is its rule's own SQL (pricing.ts, blockedSql, the window's). */
const FACTS_SQL = `
  SELECT a.currency,
         (SELECT row_to_json(t) FROM (SELECT id, name, language, category, status, components FROM whatsapp_templates
            WHERE account_id = $1 AND number_id = $2 AND name = $3 AND language = $4) t) AS template,
         COALESCE((SELECT last_inbound_at + make_interval(hours => ${WINDOW_HOURS}) > now() FROM whatsapp_windows
            WHERE account_id = $1 AND number_id = $2 AND contact = $5), false) AS window_open,
         (SELECT coalesce(json_agg(p), '[]'::json) FROM (${priceRowsSql("whatsapp", "$1", "NULL")}) p) AS prices,
         (SELECT why FROM (${blockedSql("$1", "'whatsapp'", "ARRAY[$5::text]")}) b LIMIT 1) AS why,
         ${hasProductSql("$1", "'whatsapp'")} AS has_product
    FROM accounts a WHERE a.id = $1`;
type Facts = { currency: string; template: TemplateRow | null; window_open: boolean; prices: PriceRow[]; why: "optout" | "deny_list" | null; has_product: boolean };

/** Everything a send must know before it is written (steps 2–4 of the module comment), read in `transaction` when given. */
async function plan(accountId: string, number: { id: string }, data: SendWhatsappInput, transaction?: Transaction): Promise<Planned> {
  const facts = await row<Facts>(FACTS_SQL, [accountId, number.id, data.template?.name ?? "", data.template?.language ?? "", data.to], { transaction });
  const currency = (facts?.currency ?? "BRL").trim();
  let category: WhatsappPriceRoute = "service";
  let content: Record<string, unknown>;
  let text: string;
  if (data.type === "template") {
    const tpl = facts?.template;
    if (!tpl) throw new AppError("VALIDATION", { fields: { "template.name": ["validation.option"] } });
    if (tpl.status !== "approved") throw new AppError("VALIDATION", { fields: { "template.name": ["validation.waTemplateNotApproved"] } });
    category = tpl.category;
    ({ content, text } = templateContent(tpl, data.template!));
  } else {
    if (!facts?.window_open) throw new AppError("VALIDATION", { fields: { template: ["validation.waTemplateNeeded"] } });
    ({ content, text } = freeFormContent(data));
  }
  const [price] = pickPrices({ ...CHANNEL_PRICING.whatsapp, routes: [category] }, currency, facts?.prices ?? []);
  if (!price) throw new AppError("VALIDATION", { fields: { type: ["validation.option"] } });
  const blocked = facts?.why ?? null;
  return { category, content, text, currency, price: blocked ? 0 : price.pricePerSegment, blocked, hasProduct: Boolean(facts?.has_product) };
}

const answerOf = (id: string, to: string, p: Planned): { data: AcceptedWhatsapp } => ({
  data: {
    id,
    to,
    status: p.blocked ? (p.blocked === "optout" ? "optout" : "rejected") : "queued",
    price: p.price,
    currency: p.currency,
    category: p.category,
    ...(p.blocked ? { error_code: p.blocked } : {}),
  },
});

/**
 * One send. Checked first (the stored answer of its Idempotency-Key, the template or the window,
 * the price, opt-outs), then written group-committed with the other one-number sends in flight
 * (api/sms/accept-batch.ts, ADR 027: one statement and one debit of the account's balance row per
 * batch, instead of every send of an account queueing on that row). A send the batch could not
 * write (its account's balance did not cover the batch, or the batch failed: a key raced) is done
 * again alone in one transaction, which gives it its exact answer (402, or the stored key's).
 */
export async function acceptWhatsapp(ctx: SignedInCtx, input: unknown, idempotencyKey: string | null = null): Promise<{ data: AcceptedWhatsapp }> {
  if (!can(ctx.actor, "/whatsapp/send")) throw new AppError("FORBIDDEN");
  const data = validate(sendWhatsappSchema, input);
  const accountId = ctx.actor.accountId;
  // The account's settings (ADR 071): its default number when none is named, its signature on text.
  const settings = await messageSettingsOf(accountId);
  const number = await sendingNumber(accountId, data.from || settings.whatsapp_number_id || "");
  if (!number) throw new AppError("VALIDATION", { fields: { from: [data.from ? "validation.option" : "validation.required"] } });
  // An uploaded file counts by its bytes: the same form posted twice (each post uploads its own copy) is the same request.
  const hash = createHash("sha256")
    .update(JSON.stringify(await mediaByContent(accountId, data)))
    .digest("hex");
  if (data.type === "text" && data.text) data.text = { body: withSettingsTexts(data.text.body, settings, "whatsapp", false) };
  if (idempotencyKey !== null) {
    const stored = await storedAnswer<{ data: AcceptedWhatsapp }>(accountId, idempotencyKey, hash);
    if (stored) return stored;
  }
  await withMediaLinks(accountId, data);
  const p = await plan(accountId, number, data);
  // A send an account's product may cover claims its credit in the one-at-a-time transaction (row locked there).
  if (p.hasProduct && !p.blocked && p.price > 0) return acceptAlone(ctx, data, number, hash, idempotencyKey);
  const answer = answerOf(randomUUID(), data.to, p);
  try {
    const written = await writeOneSms({
      id: answer.data.id,
      accountId,
      channel: "whatsapp",
      topic: dispatchStream("whatsapp"),
      sender: number.phone_number_id,
      recipient: data.to,
      body: p.text,
      segments: 1,
      coding: null as unknown as string,
      status: answer.data.status,
      errorCode: p.blocked,
      errorMessage: null,
      price: p.price,
      currency: p.currency,
      route: null as unknown as string,
      provider: whatsappProvider(number.integration),
      scheduledAt: null,
      audit: auditFields(ctx, "whatsapp.accepted", { meta: { id: answer.data.id, type: data.type, category: p.category, price: p.price, currency: p.currency } }),
      idempotency: idempotencyKey === null ? null : { key: idempotencyKey, hash, response: answer },
      type: data.type,
      content: p.content,
    });
    if (written.written) return answer;
  } catch {
    // The batch's statement failed (a key stored meanwhile by another request): this send alone, below.
  }
  return acceptAlone(ctx, data, number, hash, idempotencyKey);
}

/** The send as its Idempotency-Key compares it: an uploaded file named by the SHA-256 of its bytes instead of its id. */
async function mediaByContent(accountId: string, data: SendWhatsappInput): Promise<unknown> {
  if (!isMediaKind(data.type) || !data[data.type]?.id) return data;
  const { id, ...rest } = data[data.type]!;
  return { ...data, [data.type]: { ...rest, sha256: (await mediaSha256(accountId, id!)) ?? id } };
}

/** A media message naming an uploaded file by id goes with its signed link (Graph's object then carries the link the provider fetches). */
async function withMediaLinks(accountId: string, data: SendWhatsappInput) {
  if (!isMediaKind(data.type)) return;
  const kind = data.type;
  const m = data[kind];
  if (m?.id) Object.assign(data, { [kind]: await mediaByIdAsLink(accountId, kind, m) });
}

type SendingNumber = { id: string; phone_number_id: string; integration: "cloud" | "onprem" };

/** The one-at-a-time write (steps 1–5 in ONE transaction, the debit last): the exact answer of a send the batch could not take. */
async function acceptAlone(ctx: SignedInCtx, data: SendWhatsappInput, number: SendingNumber, hash: string, idempotencyKey: string | null) {
  const accountId = ctx.actor.accountId;
  return sequelize().transaction(async (transaction) => {
    if (idempotencyKey !== null) {
      const stored = await storedAnswer<{ data: AcceptedWhatsapp }>(accountId, idempotencyKey, hash, transaction);
      if (stored) return stored;
    }
    const written = await writeWhatsappMessage(ctx, data, number, transaction, idempotencyKey === null ? null : { key: idempotencyKey, hash });
    return written.answer;
  });
}

/**
 * Steps 2–5 of one send in the caller's `transaction`, the debit last (402 INSUFFICIENT_BALANCE
 * rolls it all back): the message, its outbox row and queued event, the key's answer, the audit
 * entry. Also an agent's or the flow bot's message in a WhatsApp live chat room (./live.ts), in the
 * room's transaction. It checks no permission (its callers do): `ctx` only names the account and
 * the user for the audit (null for the bot).
 */
export async function writeWhatsappMessage(
  ctx: SenderCtx,
  data: SendWhatsappInput,
  number: SendingNumber,
  transaction: Transaction,
  idempotency: { key: string; hash: string } | null = null,
): Promise<{ answer: { data: AcceptedWhatsapp }; text: string }> {
  const accountId = ctx.actor.accountId;
  const t = { transaction };
  const planned = await plan(accountId, number, data, transaction);
  // Covered by the account's WhatsApp product (ADR 048): price 0, the product recorded; else the balance pays below.
  const [product] = planned.hasProduct && !planned.blocked && planned.price > 0 ? await claimUnits(accountId, "whatsapp", [1], transaction) : [null];
  const p = product ? { ...planned, price: 0 } : planned;
  const status = p.blocked ? (p.blocked === "optout" ? "optout" : "rejected") : "queued";
  const written = await row<{ id: string }>(
    `WITH m AS (
       INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, provider, price, currency, type, content, error_code, queued_at, product_id)
       VALUES ($1, 'whatsapp', 'outbound', $2, $3, $4, 1, $5, $6, $7, $8, $9, $10::jsonb, $11, CASE WHEN $5 = 'queued' THEN now() END, $14::uuid)
       RETURNING id, created_at
     ), o AS (
       INSERT INTO outbox (topic, payload) SELECT $12, jsonb_build_object('message_id', m.id::text) FROM m WHERE $5 = 'queued'
     ), e AS (
       INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
       SELECT m.id, m.created_at, $1, $5, 'system', jsonb_build_object('price', $7::bigint, 'currency', $8::text, 'category', $13::text) FROM m
     )
     SELECT id FROM m`,
    [
      accountId,
      number.phone_number_id,
      data.to,
      p.text,
      status,
      whatsappProvider(number.integration),
      p.price,
      p.currency,
      data.type,
      JSON.stringify(p.content),
      p.blocked,
      dispatchStream("whatsapp"),
      p.category,
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
  await recordAudit({ ip: ctx.ip, userAgent: ctx.userAgent, transaction }, "whatsapp.accepted", {
    accountId,
    userId: ctx.actor.userId,
    meta: { id: answer.data.id, type: data.type, category: p.category, price: p.price, currency: p.currency },
  });
  // The debit last: the balance row is locked only from here to the commit.
  if (!(await debitBalance(accountId, p.price, transaction))) throw new AppError("INSUFFICIENT_BALANCE");
  return { answer, text: p.text };
}

export type WhatsappMessageView = {
  id: string;
  from: string;
  to: string;
  type: string;
  body: string;
  status: string;
  price: number;
  currency: string;
  provider_message_id: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  failed_at: Date | null;
};

/** GET /api/whatsapp/messages/{id}: one message of the account, read on the primary (the message just sent). */
export async function getWhatsappMessage(ctx: SignedInCtx, id: string): Promise<{ data: WhatsappMessageView }> {
  if (!can(ctx.actor, "/whatsapp/history")) throw new AppError("FORBIDDEN");
  const found = /^[0-9a-f-]{36}$/i.test(id)
    ? await row<WhatsappMessageView>(
        `SELECT id, sender AS "from", recipient AS "to", type, body, status, price::int AS price, trim(currency) AS currency, provider_message_id, error_code, error_message,
                created_at, sent_at, delivered_at, read_at, failed_at
           FROM messages WHERE id = $1 AND account_id = $2 AND channel = 'whatsapp'`,
        [id, ctx.actor.accountId],
      )
    : null;
  if (!found) throw new AppError("NOT_FOUND");
  return { data: found };
}
