/**
 * Rate limits of the widget's public calls (/api/widget/{key}/…: no account, no password, callable
 * by anyone who reads the key in a page's script tag). Counted with the one limiter
 * (api/lib/rate-limit.ts) before anything is read or stored:
 *  - every call, per client IP and per widget key, per minute (WIDGET_CALLS_PER_IP_PER_MINUTE,
 *    WIDGET_CALLS_PER_KEY_PER_MINUTE): one machine cannot flood an account, nor many machines one key;
 *  - each new conversation (a first message or file, no visitor id yet) per client IP per hour
 *    (WIDGET_STARTS_PER_IP_PER_HOUR): rooms, protocols and contacts are not minted in bulk.
 * The client IP is the socket's, or the last X-Forwarded-For hop when the socket is our own web
 * proxy (remix/web-server.ts appends the address it saw; api/http/auth.ts clientIp): a client's own
 * X-Forwarded-For is never trusted. Over a limit: 429 TOO_MANY_ATTEMPTS with Retry-After.
 */
import { Elysia } from "elysia";
import { clientIp } from "../http/auth";
import { env } from "../lib/env";
import { hit, type Rule } from "../lib/rate-limit";

const rules = () => {
  const e = env();
  return {
    ip: { name: "widget-ip", limit: e.WIDGET_CALLS_PER_IP_PER_MINUTE, windowSeconds: 60 },
    key: { name: "widget-key", limit: e.WIDGET_CALLS_PER_KEY_PER_MINUTE, windowSeconds: 60 },
    start: { name: "widget-start-ip", limit: e.WIDGET_STARTS_PER_IP_PER_HOUR, windowSeconds: 3600 },
  } satisfies Record<string, Rule>;
};

/** What every request without a known address is counted as (all of them share one budget). */
const subject = (ip: string | null) => ip || "unknown";

/** Counts one widget call for its client IP and its widget key. */
export async function limitWidgetCall(widgetKey: string, ip: string | null): Promise<void> {
  const r = rules();
  await hit(r.ip, subject(ip));
  await hit(r.key, widgetKey);
}

/** Counts one new conversation for the client IP. */
export async function limitConversationStart(ip: string | null): Promise<void> {
  await hit(rules().start, subject(ip));
}

type Socket = { requestIP(r: Request): { address: string } | null } | null | undefined;

/** The widget caller of an HTTP request (its client IP, as above). */
export const widgetCaller = (request: Request, server: Socket) => ({ ip: clientIp(request, server?.requestIP(request)?.address) });

const WIDGET_PATH = /^\/api\/widget\/([^/]+)\//;

/**
 * Every /api/widget/{key}/… call is counted before its body is read (onRequest runs before
 * routing and parsing). A named plugin: the widget's route groups share one registration.
 */
export const widgetLimits = new Elysia({ name: "widget-limits" }).onRequest(async ({ request, server }) => {
  if (request.method === "OPTIONS") return;
  const m = WIDGET_PATH.exec(new URL(request.url).pathname);
  if (!m) return;
  await limitWidgetCall(m[1], widgetCaller(request, server).ip);
});
