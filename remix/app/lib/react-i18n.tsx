/**
 * `useTranslation` for the React tree, over the translator of i18n-lite.ts (ADR 052): the same
 * call shape as react-i18next's (`useTranslation(ns | ns[])` → `{ t, i18n }`, `t` looking in the
 * first namespace unless the key says `ns:key`), without i18next in the browser. The server render
 * (entry.server.tsx) and the browser (entry.client.tsx) each give the provider a LiteI18n over the
 * same resources, so both render the same text.
 */
import { createContext, useContext, useEffect, useMemo, useState } from "react";
import type { LiteI18n, TFunction } from "./i18n-lite";

const I18nContext = createContext<LiteI18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: LiteI18n; children: React.ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

export function useTranslation(ns?: string | readonly string[]): { t: TFunction; i18n: LiteI18n; ready: true } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useTranslation outside I18nProvider");
  const [language, setLanguage] = useState(i18n.language);
  useEffect(() => {
    setLanguage(i18n.language);
    return i18n.onLanguageChanged(setLanguage);
  }, [i18n]);
  const first = (typeof ns === "string" ? ns : ns?.[0]) ?? "common";
  // biome-ignore lint/correctness/useExhaustiveDependencies: language is a trigger: a new language is a new t
  const t = useMemo(() => i18n.getFixedT(first), [i18n, first, language]);
  return { t, i18n, ready: true };
}

/** The page's language from the root loader (a switch during client navigation): the texts follow it. */
export function useChangeLanguage(lng: string) {
  const i18n = useContext(I18nContext);
  useEffect(() => {
    i18n?.changeLanguage(lng);
  }, [i18n, lng]);
}
