/** Money, dates and numbers through Intl, in the platform's zone (America/Sao_Paulo). */
import { formatInTimeZone } from "date-fns-tz";
import { intlLocale, TIME_ZONE, type Lng } from "./i18n";

export function formatMoney(minor: number, currency = "BRL", lng: Lng = "pt-BR", digits = 2) {
  return new Intl.NumberFormat(intlLocale[lng] ?? "pt-BR", { style: "currency", currency }).format(minor / 10 ** digits);
}

/** dd/mm/yy for pt-BR (spec section 9); each language's own short form otherwise. */
const DATE: Record<Lng, string> = { "pt-BR": "dd/MM/yy", en: "MM/dd/yy", es: "dd/MM/yy", zh: "yy/MM/dd" };

export function formatDate(value: Date | string | null | undefined, lng: Lng = "pt-BR", withTime = false, zone = TIME_ZONE) {
  if (!value) return "";
  const d = typeof value === "string" ? new Date(value) : value;
  return formatInTimeZone(d, zone, withTime ? `${DATE[lng] ?? DATE["pt-BR"]} HH:mm` : DATE[lng] ?? DATE["pt-BR"]);
}
