/**
 * Pages served without React in the browser (ADR 051): a route whose `handle` says
 * `hydrate: false` gets no Remix scripts at all, only the small shared enhancement script
 * (public-src/enhance, built to /enhance.js), which adds what JavaScript improves on these pages
 * (the SMS composer's live counter and mode switch, the account switcher's submit on change,
 * closing a toast). Everything there already works as plain HTML forms and links.
 *
 * Used by /login and /sms/send, the two screens issue 19 budgets at 60 KB of JavaScript: React,
 * react-dom and Remix's router alone are about 100 KB gzip.
 */
import { type ClientLoaderFunctionArgs, redirectDocument, useMatches } from "@remix-run/react";
import type { LiteI18n as I18n } from "./i18n-lite";

/** A route's `handle` field that turns hydration off for every page it is part of. */
export const NO_HYDRATION = { hydrate: false } as const;

/** True when no matched route turned hydration off. */
export function useHydrates(): boolean {
  return useMatches().every((m) => (m.handle as { hydrate?: boolean } | undefined)?.hydrate !== false);
}

/**
 * The `clientLoader` of such a route: a client-side navigation to it from a hydrated page (a
 * sidebar link, a redirect after an action) becomes a document load, so the page arrives as the
 * server renders it, with its enhancement script, instead of as an inert React render.
 */
export function documentLoad({ request }: ClientLoaderFunctionArgs): never {
  throw redirectDocument(request.url);
}

/**
 * The paths of those routes. The root loader must not run on the client navigation that
 * `documentLoad` turns into a document load: it would take the flash toast (e.g. "you signed
 * out" on the way to /login) that the document's own root loader is to show.
 */
export const DOCUMENT_PATHS: ReadonlySet<string> = new Set(["/login", "/sms/send"]);

const PLURAL_CATEGORIES = ["zero", "one", "two", "few", "many", "other"] as const;

/**
 * A plural key's templates in the current language, by category (`{ one: "{{count}} segmento",
 * other: "{{count}} segmentos", zero: … }`), for the enhancement script to choose from with
 * Intl.PluralRules as i18next does (`zero` for a count of 0 when the language has one).
 */
export function pluralTemplates(i18n: I18n, ns: string, key: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of PLURAL_CATEGORIES) {
    const v = i18n.getResource(i18n.language, ns, `${key}_${c}`);
    if (typeof v === "string") out[c] = v;
  }
  return out;
}
