/**
 * How a rule's text reaches the buyer on each channel (ADR 066): one entry per channel, so the
 * worker (./events.ts) calls `RULE_CHANNELS[rule.channel]` and never compares the channel with a
 * name. Each entry picks the buyer's address of the order and sends through the channel's own
 * accept use-case — priced, debited, opt-outs and deny list honoured, moderated — exactly as a
 * send from the API, under an Idempotency-Key of the event: a retried job answers the first
 * message instead of writing a second.
 */
import type { Actor } from "../lib/context";
import { acceptEmail } from "../email/send";
import { AppError } from "../lib/errors";
import { acceptSms } from "../sms/accept";
import { MAX_BODY } from "../sms/constants";
import type { RuleChannelName } from "./constants";
import type { Order } from "./platform";

export type RuleSettings = { sms_from?: string; email_from?: string };
export type RuleSend = { to: string; text: string; subject: string; settings: RuleSettings; idempotencyKey: string };

type RuleChannel = {
  /** The buyer's address on this channel, or null when the order has none. */
  recipient(order: Order): string | null;
  /** The message written (its id). AppError when the send is refused. */
  send(actor: Actor, s: RuleSend): Promise<string>;
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

export const RULE_CHANNELS: Record<RuleChannelName, RuleChannel> = {
  sms: {
    recipient: (order) => phoneE164(order.customer.phone),
    async send(actor, s) {
      const answer = await acceptSms(
        { actor },
        { to: s.to, from: s.settings.sms_from ?? "", body: Array.from(s.text).slice(0, MAX_BODY).join("") },
        { idempotencyKey: s.idempotencyKey },
      );
      const id = answer.data?.[0]?.id;
      if (!id) throw new AppError("INTERNAL");
      return id;
    },
  },
  email: {
    recipient: (order) => emailLike(order.customer.email),
    async send(actor, s) {
      if (!s.settings.email_from) throw new AppError("VALIDATION", { fields: { email_from: ["integrations.errors.emailFromMissing"] } });
      const answer = await acceptEmail({ actor }, { to: s.to, from: s.settings.email_from, subject: s.subject, text: s.text }, s.idempotencyKey);
      const id = answer.data.messages[0]?.id;
      if (!id) throw new AppError("INTERNAL");
      return id;
    },
  },
};
export { RULE_CHANNEL_NAMES } from "./constants";
