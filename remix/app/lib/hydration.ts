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
