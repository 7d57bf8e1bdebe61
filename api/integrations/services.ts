/**
 * Integrations (issue 23, ADR 066, 072): the account's installed e-commerce platforms (today
 * Nuvemshop, ./nuvemshop.ts behind ./platform.ts), the message each order event sends the buyer,
 * the test and the uninstall; what the screens (/integrations…) and the API (/api/integrations)
 * both call. Reading needs the /integrations screen (spec section 6: product roles); changing
 * needs WRITE_ROLES.integrations. Every query is scoped by the actor's account: another account's
 * integration is 404. Secrets (the store's token, the app's webhook secret) are sealed at rest and
 * never answered.
 */
import { sequelize } from "../../models/db";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { seal, unseal } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { assertCanWrite, can } from "../policy/policy";
import { RULE_CHANNELS, type RuleContent } from "./channels";
import {
  ORDER_EVENTS,
  type OrderEvent,
  RULE_CHANNEL_NAMES,
  RULE_CONTENT,
  RULE_PARAM_MAX,
  RULE_PARAMS_MAX,
  RULE_SUBJECT_MAX,
  RULE_TEXT_MAX,
  type RuleChannelName,
} from "./constants";
import { PLATFORM_KINDS, platform, type Secrets } from "./platform";
import { unknownVariables } from "./render";
import { type RuleTemplate, type WhatsappRuleChoices, whatsappRuleChoices } from "./whatsapp-rule";

export { RULE_SUBJECT_MAX, RULE_TEXT_MAX, RULE_VARIABLES } from "./constants";

/** What a new integration sends (pt-BR, the platform's default language), every event on SMS. */
export const DEFAULT_RULES: Record<OrderEvent, { subject: string; text: string }> = {
  "order/created": {
    subject: "Recebemos seu pedido {{order_number}}",
    text: "Olá {{first_name}}, recebemos seu pedido {{order_number}} na {{store}} (total {{total}}). Obrigado!",
  },
  "order/paid": {
    subject: "Pagamento confirmado: pedido {{order_number}}",
    text: "{{first_name}}, o pagamento do pedido {{order_number}} ({{total}}) foi confirmado. A {{store}} já está preparando o envio.",
  },
  "order/fulfilled": {
    subject: "Seu pedido {{order_number}} foi enviado",
    text: "{{first_name}}, seu pedido {{order_number}} foi enviado! Código de rastreio: {{tracking_code}}.",
  },
};

const required = (max: number) => z.string("validation.required").trim().min(1, "validation.required").max(max, `validation.maxLength::${max}`);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `validation.maxLength::${max}`)
    .optional()
    .transform((v) => v || undefined);
const checkbox = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")])
  .optional()
  .transform((v) => v === true || v === "on" || v === "true");

export const installSchema = z.object({
  kind: z.enum(PLATFORM_KINDS as [string, ...string[]], "validation.invalid"),
  store_id: z
    .string("validation.required")
    .trim()
    .regex(/^\d{1,20}$/, "integrations.errors.storeIdFormat"),
  access_token: required(200),
  app_secret: required(200),
});

/** One template parameter's value: a short text with the order's {{variables}} (ADR 072). */
const param = z
  .string("validation.required")
  .trim()
  .min(1, "validation.required")
  .max(RULE_PARAM_MAX, `validation.maxLength::${RULE_PARAM_MAX}`)
  .refine((v) => unknownVariables(v).length === 0, "integrations.errors.unknownVariable");
const optionalParam = z
  .string()
  .trim()
  .max(RULE_PARAM_MAX, `validation.maxLength::${RULE_PARAM_MAX}`)
  .optional()
  .transform((v) => v || undefined)
  .refine((v) => v === undefined || unknownVariables(v).length === 0, "integrations.errors.unknownVariable");

/** A WhatsApp rule's template: an approved template of the number (name + language) and one value per parameter. */
export const ruleTemplateSchema = z.object({
  name: z.string("validation.required").trim().min(1, "validation.required").max(512, "validation.maxLength::512"),
  language: z.string("validation.required").trim().min(2, "validation.required").max(10, "validation.maxLength::10"),
  variables: z.array(param).max(RULE_PARAMS_MAX, `validation.maxItems::${RULE_PARAMS_MAX}`).optional().default([]),
  header_variable: optionalParam,
  button_variable: optionalParam,
});

/** One event's rule: a text (SMS, e-mail) or a template (WhatsApp), as RULE_CONTENT says of its channel. */
export const ruleSchema = z
  .object({
    event: z.enum(ORDER_EVENTS, "validation.invalid"),
    channel: z.enum(RULE_CHANNEL_NAMES, "validation.invalid"),
    subject: optionalText(RULE_SUBJECT_MAX),
    text: optionalText(RULE_TEXT_MAX),
    /** The WhatsApp number it sends from; absent, null or blank: the account's default (ADR 071). */
    number_id: z
      .union([z.literal(""), z.null(), z.string().trim().regex(UUID, "validation.option")])
      .optional()
      .transform((v) => v || null),
    template: ruleTemplateSchema.optional(),
    enabled: checkbox,
  })
  .superRefine((r, ctx) => {
    if (RULE_CONTENT[r.channel] === "text" && !r.text) ctx.addIssue({ code: "custom", path: ["text"], message: "validation.required" });
    if (RULE_CONTENT[r.channel] === "template" && !r.template) ctx.addIssue({ code: "custom", path: ["template", "name"], message: "integrations.errors.templateRequired" });
  });

export const updateSchema = z.object({
  access_token: optionalText(200),
  app_secret: optionalText(200),
  sms_from: optionalText(20),
  email_from: z
    .string()
    .trim()
    .max(254, "validation.maxLength::254")
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), "validation.email"),
  rules: z.array(ruleSchema).max(ORDER_EVENTS.length, `validation.maxItems::${ORDER_EVENTS.length}`).optional(),
});

/**
 * The screen's rule as its form posts it: the template picker posts `template.key` ("name|language",
 * ./constants.ts templateKey), and the template fields of a rule on a text channel (posted without
 * JavaScript whatever the channel) are not part of it.
 */
const ruleFromForm = (raw: unknown) => {
  if (!raw || typeof raw !== "object") return raw;
  const { template, ...rule } = raw as { channel?: unknown; template?: { key?: unknown } & Record<string, unknown> };
  const channel = typeof rule.channel === "string" && Object.hasOwn(RULE_CONTENT, rule.channel) ? (rule.channel as RuleChannelName) : null;
  if (!channel || RULE_CONTENT[channel] !== "template" || typeof template?.key !== "string" || !template.key.includes("|")) return rule;
  const { key, ...values } = template;
  const cut = key.lastIndexOf("|");
  return { ...rule, template: { ...values, name: key.slice(0, cut), language: key.slice(cut + 1) } };
};
export const updateFormSchema = updateSchema.extend({
  rules: z.array(z.preprocess(ruleFromForm, ruleSchema)).max(ORDER_EVENTS.length, `validation.maxItems::${ORDER_EVENTS.length}`).optional(),
});

export type IntegrationRule = {
  event: OrderEvent;
  channel: string;
  subject: string;
  text: string;
  /** WhatsApp: the template and its parameters' values; null on the other channels. */
  template: RuleTemplate | null;
  /** WhatsApp: the number it sends from; null = the account's default. */
  number_id: string | null;
  enabled: boolean;
};
export type IntegrationView = {
  id: string;
  kind: string;
  label: string;
  name: string;
  store_id: string;
  status: "active" | "error";
  status_detail: string | null;
  settings: { sms_from: string | null; email_from: string | null };
  rules: IntegrationRule[];
  webhook_url: string;
  last_event_at: string | null;
  last_event: { event: string; status: string; received_at: string } | null;
  created_at: string;
};
export type IntegrationEventView = {
  id: string;
  event: string;
  order_id: string;
  order_number: string | null;
  status: "queued" | "sent" | "skipped" | "failed";
  channel: string | null;
  recipient: string | null;
  text: string | null;
  error: string | null;
  message_id: string | null;
  message_status: string | null;
  received_at: string;
  processed_at: string | null;
};

type Row = {
  id: string;
  kind: string;
  name: string;
  external_id: string;
  status: "active" | "error";
  status_detail: string | null;
  settings: { sms_from?: string; email_from?: string };
  secrets: string;
  last_event_at: Date | null;
  created_at: Date;
  rules: IntegrationRule[] | null;
  last_event: { event: string; status: string; received_at: string } | null;
};

/** Where a platform posts its events (the public webhook route, ./routes.ts). */
export const webhookUrl = (kind: string) => `${env().API_URL.replace(/\/+$/, "")}/api/webhooks/integrations/${kind}`;

export const openSecrets = (sealed: string): Secrets => JSON.parse(unseal(sealed)) as Secrets;

const SELECT = `
  SELECT i.id, i.kind, i.name, i.external_id, i.status, i.status_detail, i.settings, i.secrets, i.last_event_at, i.created_at,
         (SELECT json_agg(json_build_object('event', r.event, 'channel', r.channel, 'subject', r.subject, 'text', r.text, 'template', r.template,
                                            'number_id', r.number_id, 'enabled', r.enabled)
                          ORDER BY array_position(ARRAY['order/created','order/paid','order/fulfilled'], r.event))
            FROM integration_rules r WHERE r.integration_id = i.id) AS rules,
         (SELECT json_build_object('event', e.event, 'status', e.status, 'received_at', e.received_at)
            FROM integration_events e WHERE e.integration_id = i.id ORDER BY e.received_at DESC, e.id DESC LIMIT 1) AS last_event
    FROM integrations i`;

function view(r: Row): IntegrationView {
  return {
    id: r.id,
    kind: r.kind,
    label: platform(r.kind)?.label ?? r.kind,
    name: r.name,
    store_id: r.external_id,
    status: r.status,
    status_detail: r.status_detail,
    settings: { sms_from: r.settings.sms_from ?? null, email_from: r.settings.email_from ?? null },
    rules: r.rules ?? [],
    webhook_url: webhookUrl(r.kind),
    last_event_at: r.last_event_at ? new Date(r.last_event_at).toISOString() : null,
    last_event: r.last_event ? { ...r.last_event, received_at: new Date(r.last_event.received_at).toISOString() } : null,
    created_at: new Date(r.created_at).toISOString(),
  };
}

function assertRead(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/integrations")) throw new AppError("FORBIDDEN");
}
function assertWrite(ctx: SignedInCtx) {
  assertRead(ctx);
  assertCanWrite(ctx.actor, "integrations");
}

async function owned(ctx: SignedInCtx, id: string): Promise<Row> {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const r = await row<Row>(`${SELECT} WHERE i.id = $1 AND i.account_id = $2`, [id, ctx.actor.accountId]);
  if (!r) throw new AppError("NOT_FOUND");
  return r;
}

export async function listIntegrations(ctx: SignedInCtx): Promise<{ data: IntegrationView[] }> {
  assertRead(ctx);
  const found = await rows<Row>(`${SELECT} WHERE i.account_id = $1 ORDER BY i.created_at DESC, i.id DESC`, [ctx.actor.accountId]);
  return { data: found.map(view) };
}

export async function getIntegration(ctx: SignedInCtx, id: string): Promise<{ data: IntegrationView }> {
  assertRead(ctx);
  return { data: view(await owned(ctx, id)) };
}

const storeTaken = () => new AppError("VALIDATION", { fields: { store_id: ["integrations.errors.storeTaken"] } });

/**
 * Installs a platform: checks the credentials at the store (its name), points the store's order
 * webhooks at us, keeps the secrets sealed and writes the three rules (DEFAULT_RULES, on SMS).
 * One account per store: a store another integration has is refused on store_id.
 */
export async function installIntegration(ctx: SignedInCtx, input: unknown): Promise<{ data: IntegrationView }> {
  assertWrite(ctx);
  const v = validate(installSchema, input);
  const p = platform(v.kind)!;
  if (await row(`SELECT 1 FROM integrations WHERE kind = $1 AND external_id = $2`, [v.kind, v.store_id])) throw storeTaken();
  const { name } = await p.connect({ storeId: v.store_id, accessToken: v.access_token, appSecret: v.app_secret });
  const secrets: Secrets = { accessToken: v.access_token, appSecret: v.app_secret };
  await p.subscribe(v.store_id, secrets, webhookUrl(v.kind));
  const id = await sequelize().transaction(async (transaction) => {
    const created = await row<{ id: string }>(
      `INSERT INTO integrations (account_id, kind, external_id, name, secrets, created_by) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (kind, external_id) DO NOTHING RETURNING id`,
      [ctx.actor.accountId, v.kind, v.store_id, name.slice(0, 200), seal(JSON.stringify(secrets)), ctx.actor.userId],
      { transaction },
    );
    if (!created) throw storeTaken();
    await exec(
      `INSERT INTO integration_rules (account_id, integration_id, event, channel, subject, text)
       SELECT $1, $2, e.event, 'sms', e.subject, e.text FROM unnest($3::text[], $4::text[], $5::text[]) AS e(event, subject, text)`,
      [ctx.actor.accountId, created.id, ORDER_EVENTS, ORDER_EVENTS.map((e) => DEFAULT_RULES[e].subject), ORDER_EVENTS.map((e) => DEFAULT_RULES[e].text)],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "integration.installed", { meta: { integration_id: created.id, kind: v.kind, store_id: v.store_id } });
    return created.id;
  });
  return getIntegration(ctx, id);
}

type CheckedRule = RuleContent & { event: OrderEvent; channel: RuleChannelName; enabled: boolean };

/**
 * The rules given, each as it is stored: a text rule keeps no template, a template rule is checked
 * by its channel (WhatsApp: the template approved on the number it sends from, one value per
 * variable). Every rule's errors at once, keyed `rules.<n>.<field>`.
 */
async function checkedRules(accountId: string, given: z.infer<typeof ruleSchema>[]): Promise<CheckedRule[]> {
  const out: CheckedRule[] = [];
  const fields: Record<string, string[]> = {};
  for (const [n, r] of given.entries()) {
    const usesTemplate = RULE_CONTENT[r.channel] === "template";
    const content: RuleContent = {
      subject: r.subject ?? "",
      text: r.text ?? "",
      template: usesTemplate ? (r.template ?? null) : null,
      number_id: usesTemplate ? r.number_id : null,
    };
    const checked = (await RULE_CHANNELS[r.channel].check?.(accountId, content)) ?? { rule: content };
    if ("errors" in checked) for (const [field, keys] of Object.entries(checked.errors)) fields[`rules.${n}.${field}`] = keys;
    else out.push({ ...checked.rule, event: r.event, channel: r.channel, enabled: r.enabled });
  }
  if (Object.keys(fields).length) throw new AppError("VALIDATION", { fields });
  return out;
}

/**
 * Changes credentials (checked at the store again, webhooks re-pointed), the senders and the rules
 * (each rule given replaces that event's; a WhatsApp rule's template checked first, before the
 * store is called: ./whatsapp-rule.ts). Secrets left blank are kept.
 */
export async function updateIntegration(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: IntegrationView }> {
  assertWrite(ctx);
  const current = await owned(ctx, id);
  const v = validate(updateSchema, input);
  const rules = await checkedRules(ctx.actor.accountId, v.rules ?? []);
  const p = platform(current.kind)!;
  let sealed: string | null = null;
  if (v.access_token || v.app_secret) {
    const old = openSecrets(current.secrets);
    const secrets: Secrets = { accessToken: v.access_token ?? old.accessToken, appSecret: v.app_secret ?? old.appSecret };
    await p.connect({ storeId: current.external_id, ...secrets });
    await p.subscribe(current.external_id, secrets, webhookUrl(current.kind));
    sealed = seal(JSON.stringify(secrets));
  }
  // A sender field given (even blank: cleared) replaces the stored one; one not given is kept.
  const given = (input ?? {}) as Record<string, unknown>;
  const settings = { ...current.settings };
  if ("sms_from" in given) settings.sms_from = v.sms_from;
  if ("email_from" in given) settings.email_from = v.email_from;
  await sequelize().transaction(async (transaction) => {
    await exec(
      `UPDATE integrations SET settings = $3::jsonb, secrets = coalesce($4, secrets), status = CASE WHEN $4::text IS NULL THEN status ELSE 'active' END,
              status_detail = CASE WHEN $4::text IS NULL THEN status_detail END, updated_at = now()
        WHERE id = $1 AND account_id = $2`,
      [id, ctx.actor.accountId, JSON.stringify(settings), sealed],
      { transaction },
    );
    for (const r of rules) {
      await exec(
        `INSERT INTO integration_rules (account_id, integration_id, event, channel, subject, text, template, number_id, enabled)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)
         ON CONFLICT (integration_id, event) DO UPDATE SET channel = EXCLUDED.channel, subject = EXCLUDED.subject, text = EXCLUDED.text,
           template = EXCLUDED.template, number_id = EXCLUDED.number_id, enabled = EXCLUDED.enabled, updated_at = now()`,
        [ctx.actor.accountId, id, r.event, r.channel, r.subject, r.text, r.template ? JSON.stringify(r.template) : null, r.number_id, r.enabled],
        { transaction },
      );
    }
    await recordAudit({ ...ctx, transaction }, "integration.updated", {
      meta: {
        integration_id: id,
        credentials: sealed !== null,
        rules: rules.map((r) => `${r.event}:${r.channel}${r.template ? `:${r.template.name}` : ""}:${r.enabled ? "on" : "off"}`),
      },
    });
  });
  return getIntegration(ctx, id);
}

/** What a WhatsApp rule may name (the rule form's picker): the account's numbers, its default number and its approved templates. */
export async function integrationWhatsappChoices(ctx: SignedInCtx): Promise<WhatsappRuleChoices> {
  assertRead(ctx);
  return whatsappRuleChoices(ctx.actor.accountId);
}

/** Stops the store's webhooks (best effort) and deletes the integration with its rules and events. */
export async function uninstallIntegration(ctx: SignedInCtx, id: string): Promise<void> {
  assertWrite(ctx);
  const current = await owned(ctx, id);
  await platform(current.kind)?.unsubscribe(current.external_id, openSecrets(current.secrets), webhookUrl(current.kind));
  await sequelize().transaction(async (transaction) => {
    await exec(`DELETE FROM integrations WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId], { transaction });
    await recordAudit({ ...ctx, transaction }, "integration.uninstalled", { meta: { integration_id: id, kind: current.kind, store_id: current.external_id } });
  });
}

/**
 * The test: a test order at the store for the person testing (their mobile and e-mail), so the
 * store posts its order/created and the order/created rule sends them a real message.
 */
export async function testIntegration(ctx: SignedInCtx, id: string): Promise<{ data: { order_id: string; phone: string | null; email: string } }> {
  assertWrite(ctx);
  const current = await owned(ctx, id);
  const me = (await row<{ first_name: string; last_name: string; email: string; mobile: string | null }>(`SELECT first_name, last_name, email, mobile FROM users WHERE id = $1`, [
    ctx.actor.userId,
  ]))!;
  const buyer = { name: `${me.first_name} ${me.last_name}`.trim(), email: me.email, phone: me.mobile };
  const { orderId } = await platform(current.kind)!.testOrder(current.external_id, openSecrets(current.secrets), buyer);
  await recordAudit(ctx, "integration.tested", { meta: { integration_id: id, order_id: orderId } });
  return { data: { order_id: orderId, phone: me.mobile, email: me.email } };
}

/** The events received (newest first, up to `limit`) with the message each produced and its status now. */
export async function listIntegrationEvents(ctx: SignedInCtx, id: string, limit = 50): Promise<{ data: IntegrationEventView[] }> {
  assertRead(ctx);
  await owned(ctx, id);
  const n = Math.min(Math.max(Number.isFinite(limit) ? Math.trunc(limit) : 50, 1), 200);
  const found = await rows<IntegrationEventView & { received_at: Date; processed_at: Date | null }>(
    `SELECT e.id, e.event, e.order_id, e.order_number, e.status, e.channel, e.recipient, e.text, e.error, e.message_id, m.status AS message_status,
            e.received_at, e.processed_at
       FROM integration_events e
       LEFT JOIN messages m ON m.id = e.message_id AND m.account_id = e.account_id
      WHERE e.integration_id = $1 AND e.account_id = $2
      ORDER BY e.received_at DESC, e.id DESC LIMIT $3`,
    [id, ctx.actor.accountId, n],
  );
  return {
    data: found.map((e) => ({ ...e, received_at: new Date(e.received_at).toISOString(), processed_at: e.processed_at ? new Date(e.processed_at).toISOString() : null })),
  };
}
