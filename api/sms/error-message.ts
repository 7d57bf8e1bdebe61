/**
 * `error_message` of an SMS answer (send entries, history rows, one message) in the caller's
 * language. The rows store a locale key where the reason is ours (errors.RECIPIENT_OPTED_OUT,
 * moderation.held, errors.CAMPAIGN_CANCELED…) and the provider's own text where it is theirs;
 * a key is answered translated (Accept-Language), any other text as stored. `error_code` stays
 * the stable, untranslated code a program reads.
 */
import { fromAcceptLanguage, translate } from "../lib/i18n";

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

type WithError = { error_message?: string | null };

/** The same answer with `error_message` translated in `data` (one object or a list). */
export function localizeErrors<T extends { data?: unknown }>(answer: T, acceptLanguage: string | null): T {
  const locale = fromAcceptLanguage(acceptLanguage);
  const one = <R>(row: R): R => {
    if (!row || typeof row !== "object" || !("error_message" in row)) return row;
    const r = row as R & WithError;
    return { ...r, error_message: errorMessageText(r.error_message, locale) } as R;
  };
  if (Array.isArray(answer.data)) return { ...answer, data: answer.data.map(one) };
  if (answer.data && typeof answer.data === "object") return { ...answer, data: one(answer.data) };
  return answer;
}
