/**
 * Server-side translation for texts produced outside a screen (e-mails, notifications, API
 * error messages). Resources are the same JSON files the web uses: public/locales/<lng>/<ns>.json.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import i18next, { type i18n as I18n } from "i18next";
import { LOCALES, type Locale } from "../../models/constants";

export const DEFAULT_LOCALE: Locale = "pt-BR";
/** public/locales, found by walking up from this module (it may run bundled inside remix/build). */
function findLocalesDir(): string {
  let dir = import.meta.dirname ?? process.cwd();
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, "public", "locales");
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return join(process.cwd(), "public", "locales");
}
export const LOCALES_DIR = findLocalesDir();

export function loadResources(lng: string) {
  const dir = join(LOCALES_DIR, lng);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, f), "utf8"))]),
  );
}

let instance: I18n | undefined;
function i18n(): I18n {
  if (!instance) {
    instance = i18next.createInstance();
    void instance.init({
      initImmediate: false,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: [...LOCALES],
      defaultNS: "common",
      resources: Object.fromEntries(LOCALES.map((l) => [l, loadResources(l)])),
      interpolation: { escapeValue: false },
    });
  }
  return instance;
}

export function translate(locale: string | undefined, key: string, params?: Record<string, unknown>): string {
  return i18n().getFixedT(isLocale(locale) ? locale : DEFAULT_LOCALE)(key, params ?? {}) as string;
}

export function isLocale(v: unknown): v is Locale {
  return typeof v === "string" && (LOCALES as readonly string[]).includes(v);
}

/** Pick the best supported locale from an Accept-Language header. */
export function fromAcceptLanguage(header: string | null | undefined): Locale {
  for (const part of (header ?? "").split(",")) {
    const tag = part.split(";")[0].trim().toLowerCase();
    if (tag.startsWith("pt")) return "pt-BR";
    if (tag.startsWith("en")) return "en";
    if (tag.startsWith("es")) return "es";
    if (tag.startsWith("zh")) return "zh";
  }
  return DEFAULT_LOCALE;
}
