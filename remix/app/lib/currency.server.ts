import { CURRENCY_NAMES } from "~api/accounts/currency-names";
import type { Lng } from "~/lib/i18n";

/**
 * "BRL — Real brasileiro": the code and the currency's name in the reader's language, from the one
 * table shipped with the app (api/accounts/currency-names.ts), never the runtime's Intl: Bun and
 * the browser name some currencies differently and /settings failed to hydrate (issue 19). Server
 * only (loaders), so the table stays out of the pages' JavaScript.
 */
export function currencyLabel(code: string, fallbackName: string, lng: Lng) {
  return `${code} — ${CURRENCY_NAMES[code]?.[lng] ?? fallbackName}`;
}
