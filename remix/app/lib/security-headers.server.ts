/**
 * The security headers of our answers, in one place: the Content-Security-Policy of every HTML
 * page (entry.server.tsx, with a fresh script nonce per response), and HSTS on every answer in
 * production (remix/web-server.ts).
 *
 * Scripts run only from our origin or with this response's nonce (Remix's inline context and
 * module scripts, ScrollRestoration, React's streaming scripts), so an injected <script> or
 * event-handler attribute does nothing. Styles may be inline: React style attributes, Radix's
 * positioning and the widget's shadow-root <style> need it, and CSS cannot run code.
 */
import { randomBytes } from "node:crypto";
import { env, type Env } from "~api/lib/env";
import { MAP_ORIGIN } from "./map";

export function newNonce() {
  return randomBytes(18).toString("base64");
}

export type PagePolicy = {
  nonce: string;
  /** Our origin as the browser sees it (http://host:port): its websocket twin is allowed too. */
  origin: string;
  /** Pages customers may frame on their own sites (a route's `handle.embeddable`, e.g. /webchat). */
  embeddable: boolean;
  /** Other origins a form POST may redirect to (the OAuth providers' sign-in pages). */
  formTargets: string[];
};

export function contentSecurityPolicy({ nonce, origin, embeddable, formTargets }: PagePolicy): string {
  const host = new URL(origin).host;
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "media-src": ["'self'", "blob:"],
    "font-src": ["'self'", "data:"],
    // The realtime socket is /realtime/ws on our own host (ws: behind plain HTTP, wss: behind TLS).
    "connect-src": ["'self'", `ws://${host}`, `wss://${host}`],
    "frame-src": ["'self'", MAP_ORIGIN],
    "frame-ancestors": embeddable ? ["*"] : ["'self'"],
    "base-uri": ["'self'"],
    // Chromium applies form-action to the redirects after a POST: /auth/{provider} answers one.
    "form-action": ["'self'", ...formTargets],
    "object-src": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/** Headers of every HTML page. */
export function htmlSecurityHeaders(request: Request, page: Omit<PagePolicy, "origin">): Record<string, string> {
  const { embeddable } = page;
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy({ ...page, origin: new URL(request.url).origin }),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
  };
  // For browsers without frame-ancestors; an embeddable page must not send it at all.
  if (!embeddable) headers["X-Frame-Options"] = "SAMEORIGIN";
  return headers;
}

/** Headers of every answer: HSTS only in production (development and tests speak plain HTTP). */
export function transportSecurityHeaders(nodeEnv: Env["NODE_ENV"] = env().NODE_ENV): Record<string, string> {
  return nodeEnv === "production" ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {};
}
