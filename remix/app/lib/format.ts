/** Money, dates and numbers through Intl, in the platform's zone (America/Sao_Paulo). */
import { formatInTimeZone } from "date-fns-tz";
import { intlLocale, TIME_ZONE, type Lng } from "./i18n";

/**
 * Integer minor units of `currency` (the account's) as money in the reader's language: R$ 1,50 /
 * US$ 1,50 in pt-BR, $1.50 in en. The minor-unit digits are the currency's own (2 for BRL and USD,
 * 0 for JPY) unless a finer unit is given.
 */
export function formatMoney(minor: number, currency = "BRL", lng: Lng = "pt-BR", digits?: number) {
  const format = new Intl.NumberFormat(intlLocale[lng] ?? "pt-BR", { style: "currency", currency });
  const places = digits ?? format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** places);
}

/** dd/mm/yy for pt-BR (spec section 9); each language's own short form otherwise. */
const DATE: Record<Lng, string> = { "pt-BR": "dd/MM/yy", en: "MM/dd/yy", es: "dd/MM/yy", zh: "yy/MM/dd" };

export function formatDate(value: Date | string | null | undefined, lng: Lng = "pt-BR", withTime = false, zone = TIME_ZONE) {
  if (!value) return "";
  const d = typeof value === "string" ? new Date(value) : value;
  return formatInTimeZone(d, zone, withTime ? `${DATE[lng] ?? DATE["pt-BR"]} HH:mm` : (DATE[lng] ?? DATE["pt-BR"]));
}
