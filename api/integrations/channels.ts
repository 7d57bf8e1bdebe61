/**
 * How a rule reaches the buyer on each channel (ADR 066, 072): one entry per channel, so the worker
 * (./events.ts) and the rule's save (./services.ts) call `RULE_CHANNELS[rule.channel]` and never
 * compare the channel with a name. Each entry picks the buyer's address of the order, says what the
 * event records as sent, and sends through the channel's own accept use-case — priced, debited,
 * opt-outs and deny list honoured, moderated — exactly as a send from the API, under an
 * Idempotency-Key of the event: a retried job answers the first message instead of writing a second.
 * A sender the integration does not name is the account's default (ADR 071), which the accept
 * use-cases apply when `from` is absent.
 */
import type { Transaction } from "sequelize";
import { acceptEmail } from "../email/send";
import type { Actor } from "../lib/context";
import { AppError, type FieldErrors, isAppError } from "../lib/errors";
import { row } from "../lib/sql";
import { acceptSms } from "../sms/accept";
import { MAX_BODY } from "../sms/constants";
import { acceptWhatsapp } from "../whatsapp/send";
import type { RuleChannelName } from "./constants";
import type { Order } from "./platform";
import { renderRule } from "./render";
import { checkTemplateRule, fillTemplate, type RuleTemplate, templateSummary } from "./whatsapp-rule";

export type RuleSettings = { sms_from?: string; email_from?: string };
/** A rule as the channels read it (integration_rules). */
export type RuleContent = { subject: string; text: string; template: RuleTemplate | null; number_id: string | null };
export type RuleSend = {
  to: string;
  rule: RuleContent;
  /** The order's values ({{first_name}}…): ./render.ts orderVariables. */
  vars: Record<string, string>;
  /** The e-mail's subject when the rule has none. */
  fallbackSubject: string;
  settings: RuleSettings;
  idempotencyKey: string;
};

type RuleChannel = {
  /** The buyer's address on this channel, or null when the order has none. */
  recipient(order: Order): string | null;
  /** What the event records as the message (the rule filled with the order), before anything is sent. */
  content(rule: RuleContent, vars: Record<string, string>): string;
  /** Checks a rule being saved beyond its schema; errors keyed by the rule's own fields, or the content to store. */
  check?(accountId: string, rule: RuleContent, transaction?: Transaction): Promise<{ errors: FieldErrors } | { rule: RuleContent }>;
  /** The message written (its id) and its text. AppError when the send is refused. */
  send(actor: Actor, s: RuleSend): Promise<{ id: string; text: string }>;
};

/** A Brazilian phone as the stores write it ("(11) 98765-4321", "5511987654321", "+55 11 …") in E.164, or null. */
export function phoneE164(raw: string | null): string | null {
  if (!raw) return null;
  const digits = raw.replace(/\D/g, "");
  if (raw.trim().startsWith("+")) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  if (digits.length === 10 || digits.length === 11) return `+55${digits}`;
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith("55")) return `+${digits}`;
  return null;
}

const emailLike = (v: string | null) => (v && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? v.toLowerCase() : null);

/**
 * The accept use-case's refusal in the rule's words where the API's would puzzle the store owner:
 * `reasons[field][key]` replaces that field's error (no sender at all: neither the integration's
 * nor the account's default; a template the sending number does not have).
 */
async function inRuleWords<T>(send: Promise<T>, reasons: Record<string, Record<string, string>>): Promise<T> {
  try {
    return await send;
  } catch (e) {
    if (!isAppError(e) || !e.fields) throw e;
    for (const [field, keys] of Object.entries(e.fields)) {
      const reason = keys.map((k) => reasons[field]?.[k]).find(Boolean);
      if (reason) throw new AppError("VALIDATION", { fields: { [field]: [reason] } });
    }
    throw e;
  }
}

const filledText = (rule: RuleContent, vars: Record<string, string>) => renderRule(rule.text, vars);

export const RULE_CHANNELS: Record<RuleChannelName, RuleChannel> = {
  sms: {
    recipient: (order) => phoneE164(order.customer.phone),
    content: filledText,
    async send(actor, s) {
      const text = filledText(s.rule, s.vars);
      const answer = await acceptSms(
        { actor },
        { to: s.to, from: s.settings.sms_from ?? "", body: Array.from(text).slice(0, MAX_BODY).join("") },
        { idempotencyKey: s.idempotencyKey },
      );
      const id = answer.data?.[0]?.id;
      if (!id) throw new AppError("INTERNAL");
      return { id, text };
    },
  },
  email: {
    recipient: (order) => emailLike(order.customer.email),
    content: filledText,
    async send(actor, s) {
      const text = filledText(s.rule, s.vars);
      const subject = renderRule(s.rule.subject || s.fallbackSubject, s.vars);
      // The integration's own sender, else the account's default address (acceptEmail's senderOf, ADR 071).
      const from = s.settings.email_from ? { from: s.settings.email_from } : {};
      const answer = await inRuleWords(acceptEmail({ actor }, { to: s.to, ...from, subject, text }, s.idempotencyKey), {
        from: { "validation.required": "integrations.errors.emailFromMissing" },
      });
      const id = answer.data.messages[0]?.id;
      if (!id) throw new AppError("INTERNAL");
      return { id, text };
    },
  },
  whatsapp: {
    recipient: (order) => phoneE164(order.customer.phone),
    content: (rule, vars) => (rule.template ? templateSummary(rule.template, vars) : ""),
    async check(accountId, rule, transaction) {
      if (!rule.template) return { errors: { "template.name": ["integrations.errors.templateRequired"] } };
      const checked = await checkTemplateRule(accountId, { number_id: rule.number_id, template: rule.template }, transaction);
      return "errors" in checked ? checked : { rule: { ...rule, template: checked.template } };
    },
    async send(actor, s) {
      if (!s.rule.template) throw new AppError("VALIDATION", { fields: { "template.name": ["integrations.errors.templateRequired"] } });
      // The rule's number, else the account's default WhatsApp number (acceptWhatsapp, ADR 071).
      const from = s.rule.number_id ? { from: s.rule.number_id } : {};
      const answer = await inRuleWords(acceptWhatsapp({ actor }, { ...from, to: s.to, type: "template", template: fillTemplate(s.rule.template, s.vars) }, s.idempotencyKey), {
        from: { "validation.required": "integrations.errors.whatsappNumberMissing" },
        "template.name": { "validation.option": "integrations.errors.templateMissing", "validation.waTemplateNotApproved": "integrations.errors.templateNotApproved" },
        "template.variables": { "validation.waFillParameters": "integrations.errors.templateChanged" },
      });
      // The template's text filled, as the message keeps it (what the buyer reads).
      const sent = await row<{ body: string }>(`SELECT body FROM messages WHERE id = $1 AND account_id = $2`, [answer.data.id, actor.accountId]);
      return { id: answer.data.id, text: sent?.body ?? templateSummary(s.rule.template, s.vars) };
    },
  },
};
export { RULE_CHANNEL_NAMES } from "./constants";
