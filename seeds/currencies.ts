/**
 * Currency reference data, generated at run time from the JavaScript Intl API (ICU/CLDR inside the
 * runtime) instead of a hand-copied table, so it follows the runtime's CLDR version.
 *
 * Which codes are kept: `Intl.supportedValuesOf('currency')` lists ~300 codes, most of them historic.
 * Intl has no "is this currency current?" flag, but CLDR only translates current currencies in its
 * "modern" coverage level, so a code that Intl.DisplayNames names in (nearly) every one of a sample of
 * smaller locales is in use; withdrawn ones (DEM, ZMK, MRO...) fall back to the bare code there.
 * On top of that: X.. codes (funds, precious metals, testing) are dropped except the four real
 * regional currencies, and so are names carrying a qualifier such as "(1964—2022)" or "(offshore)".
 */
export type CurrencySeed = {
  code: string;
  name: string;
  namePlural: string;
  symbol: string;
  symbolNative: string;
  decimalDigits: number;
  rounding: number;
};

const REGIONAL_X = new Set(["XOF", "XAF", "XPF", "XCD"]);
/** Locales with CLDR "modern" (not comprehensive) currency coverage: they name only current currencies. */
const PROBE_LOCALES = [
  "am",
  "km",
  "sw",
  "zu",
  "si",
  "lo",
  "my",
  "ky",
  "mn",
  "ne",
  "ps",
  "so",
  "uz",
  "yo",
  "ha",
  "ig",
  "kk",
  "ka",
  "hy",
  "az",
  "eu",
  "gl",
  "is",
  "mk",
  "sq",
  "bs",
  "ur",
  "pa",
  "gu",
  "kn",
  "ml",
  "mr",
  "ta",
  "te",
  "xh",
  "fo",
];
/** Native-locale hints where the code's first two letters are not a region (EUR, regional X..). */
const NATIVE_LOCALE: Record<string, string> = { EUR: "de-DE", XOF: "fr-SN", XAF: "fr-CM", XPF: "fr-PF", XCD: "en-AG" };
/**
 * Cash rounding increment. Intl exposes no cash rounding (CLDR's `cashRounding` supplemental data is not
 * reachable from ECMA-402), so the one case that matters for us is explicit: Swiss francs are settled in
 * cash to 5 rappen (the 1 and 2 rappen coins were withdrawn), hence 0.05. Everything else rounds to its
 * minor unit (0 = no extra rounding).
 */
const CASH_ROUNDING: Record<string, number> = { CHF: 0.05 };

/** Drop bidi marks, zero-width and no-break spaces ICU puts around some symbols (pt-CV's escudo is a bare U+200B). */
const clean = (s: string) => s.replace(/[\u200b-\u200f\u061c\u00a0]/g, " ").trim();

function currencyPart(locale: string, code: string, display: "symbol" | "narrowSymbol" | "name", value = 1): string {
  const parts = new Intl.NumberFormat(locale, { style: "currency", currency: code, currencyDisplay: display }).formatToParts(value);
  return clean(parts.find((p) => p.type === "currency")?.value ?? "") || code;
}

function nativeLocale(code: string): string | undefined {
  if (NATIVE_LOCALE[code]) return NATIVE_LOCALE[code];
  const region = code.slice(0, 2);
  try {
    const loc = new Intl.Locale(`und-${region}`).maximize();
    // language-REGION only: ICU misses regional data for tags with a script, e.g. "es-Latn-AR".
    return loc.region === region && loc.language !== "und" ? `${loc.language}-${region}` : undefined;
  } catch {
    return undefined;
  }
}

function isCurrent(code: string, probes: Intl.DisplayNames[]): boolean {
  if (probes.length < 10) return true; // runtime without full ICU data: keep the name-based filters only
  const named = probes.filter((d) => d.of(code) !== code).length;
  return named >= probes.length * 0.9;
}

export function buildCurrencies(): CurrencySeed[] {
  const en = new Intl.DisplayNames(["en"], { type: "currency", fallback: "code" });
  const probes = Intl.DisplayNames.supportedLocalesOf(PROBE_LOCALES).map((l) => new Intl.DisplayNames([l], { type: "currency", fallback: "code" }));
  const out: CurrencySeed[] = [];
  for (const code of Intl.supportedValuesOf("currency")) {
    if (code.startsWith("X") && !REGIONAL_X.has(code)) continue;
    const name = en.of(code) ?? code;
    if (name === code || name.includes("(") || !isCurrent(code, probes)) continue;
    const fmt = new Intl.NumberFormat("en", { style: "currency", currency: code });
    const decimalDigits = fmt.resolvedOptions().maximumFractionDigits ?? 2;
    if (decimalDigits < 0 || decimalDigits > 3) continue;
    const symbol = currencyPart("en", code, "symbol");
    const native = nativeLocale(code);
    const localSymbol = native ? currencyPart(native, code, "symbol") : code;
    const symbolNative = localSymbol !== code ? localSymbol : currencyPart("en", code, "narrowSymbol");
    const namePlural = currencyPart("en", code, "name", 2);
    out.push({ code, name, namePlural, symbol, symbolNative, decimalDigits, rounding: CASH_ROUNDING[code] ?? 0 });
  }
  return out;
}
