/**
 * `error_message` of an SMS answer (send entries, history rows, one message) in the caller's
 * language. The rows store a locale key where the reason is ours (errors.RECIPIENT_OPTED_OUT,
 * moderation.held, errors.CAMPAIGN_CANCELED…) and the provider's own text where it is theirs;
 * a key is answered translated (Accept-Language), any other text as stored. `error_code` stays
 * the stable, untranslated code a program reads.
 */
import { HELD_REASON } from "../moderation/hold";
import { CANCELED_REASON } from "../dispatch/dispatcher";
import { fromAcceptLanguage, translate } from "../lib/i18n";
import { MESSAGE_CANCELED_REASON } from "./cancel-scheduled";
import { STOPPED } from "../dispatch/suspended";

/**
 * Every reason we store in messages.error_message as a locale key (a provider's text is stored
 * as it came). An export, which PostgreSQL writes, translates these with one CASE.
 */
export const STORED_REASON_KEYS = [
  HELD_REASON,
  MESSAGE_CANCELED_REASON,
  CANCELED_REASON,
  STOPPED.suspended.reason,
  STOPPED.inactive.reason,
  "errors.RECIPIENT_OPTED_OUT",
  "errors.RECIPIENT_DENIED",
] as const;

/** A stored locale key: `<namespace>.<key>` with no spaces (a provider's text has them, or is not in the files). */
const KEY = /^([a-z][A-Za-z]*)\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)$/;

export function errorMessageText(message: string | null | undefined, locale: string): string | null | undefined {
  if (typeof message !== "string") return message;
  const m = KEY.exec(message);
  if (!m) return message;
  const [, ns, key] = m;
  const text = translate(locale, `${ns}:${key}`);
  // A missing key answers the key itself: then the stored text was not ours, keep it.
  return text === key || text === `${ns}:${key}` || text === "" ? message : text;
}

type WithError = { error_message?: string | null; events?: Array<{ details?: unknown }> };

/**
 * The same answer with `error_message` translated in `data` (one object or a list), and in the
 * details of a message's events (a failed or held event records the same reason).
 */
export function localizeErrors<T extends { data?: unknown }>(answer: T, acceptLanguage: string | null): T {
  const locale = fromAcceptLanguage(acceptLanguage);
  const details = (d: unknown) => {
    if (!d || typeof d !== "object" || typeof (d as WithError).error_message !== "string") return d;
    return { ...d, error_message: errorMessageText((d as WithError).error_message, locale) };
  };
  const one = <R>(row: R): R => {
    if (!row || typeof row !== "object" || !("error_message" in row)) return row;
    const r = row as R & WithError;
    const events = Array.isArray(r.events) ? { events: r.events.map((e) => ({ ...e, details: details(e.details) })) } : {};
    return { ...r, error_message: errorMessageText(r.error_message, locale), ...events } as R;
  };
  if (Array.isArray(answer.data)) return { ...answer, data: answer.data.map(one) };
  if (answer.data && typeof answer.data === "object") return { ...answer, data: one(answer.data) };
  return answer;
}
