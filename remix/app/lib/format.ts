/**
 * Money, dates and numbers through Intl, in the platform's zone (America/Sao_Paulo). Dates are
 * assembled from Intl's parts (no date library in the browser: issue 19's JavaScript budget).
 */
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

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `d` in `zone`, two digits each (24-hour clock). */
function wallClock(d: Date, zone: string) {
  let f = partsFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: zone, year: "2-digit", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    partsFormats.set(zone, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(d)) out[p.type] = p.value;
  return { yy: out.year, MM: out.month, dd: out.day, HH: out.hour, mm: out.minute };
}

/** `pattern` made of yy, MM, dd, HH and mm (and separators), in `zone`. */
export function formatInZone(d: Date, zone: string, pattern: string) {
  const w = wallClock(d, zone);
  return pattern.replace(/yy|MM|dd|HH|mm/g, (token) => w[token as keyof typeof w]);
}

export function formatDate(value: Date | string | null | undefined, lng: Lng = "pt-BR", withTime = false, zone = TIME_ZONE) {
  if (!value) return "";
  const d = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return "";
  return formatInZone(d, zone, withTime ? `${DATE[lng] ?? DATE["pt-BR"]} HH:mm` : (DATE[lng] ?? DATE["pt-BR"]));
}
