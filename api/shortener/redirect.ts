/**
 * The redirect host (ADR 057): `GET /<slug>` on a short domain answers 302 to the link's original
 * URL. Kept tiny, it runs inside the web process before anything else (remix/web-server.ts):
 * 1. the slug's target from Redis (`keys.shortLink`), else from PostgreSQL (the source of truth),
 *    cached SHORTENER_CACHE_SECONDS; a slug that does not exist is cached too ("-"), so a flood of
 *    wrong slugs does not reach the database;
 * 2. the click appended to its shard of the clicks stream (XADD: time, user agent class, country,
 *    referrer host); the worker writes clicks to PostgreSQL in batches (./clicks.ts). The XADD is
 *    awaited so a 302 is only answered once its click is safely in Redis: no click is lost, and
 *    the cost is one round trip (~0.1 ms on loopback);
 * 3. 302 with `Cache-Control: private, no-store`: a browser asks again next time, so every click
 *    is counted and a deleted link stops working (a 301 would be cached by browsers for good).
 * HEAD answers the same without counting (link previews, monitors).
 * A campaign's per-recipient code ("_" and 12 characters, ADR 060) is looked up and cached the same
 * way; its click carries the code, so the campaign's report knows who clicked.
 */
import { env } from "../lib/env";
import { fromAcceptLanguage, translate } from "../lib/i18n";
import { connect, redis } from "../lib/redis";
import { keys, shardOf, streamShards } from "../lib/redis-keys";
import { row } from "../lib/sql";
import { CODE_SLUG, countryOf, platformShortDomains, referrerHost, SLUG_PATH, uaClass } from "./fields";

/** The logical stream of clicks (STREAM_SHARDS physical streams). */
export const CLICK_STREAM = "shortener:clicks";
const NONE = "-";

let hot: ReturnType<typeof redis> | undefined;
/**
 * The redirect's own connection, auto-pipelined: under load the GETs and XADDs of the requests in
 * flight go to Redis in one write per tick instead of one per command (bench/shortener.mjs).
 */
const fast = () => {
  hot ??= connect("shortener-redirect", { autoPipeline: true });
  return hot;
};

let domains: Set<string> | undefined;
/** Is `host` (lower-case, no port) one the redirect answers on? */
export function isShortHost(host: string): boolean {
  domains ??= new Set(platformShortDomains());
  return domains.has(host);
}

type Target = { linkId: string; accountId: string; url: string };

/** The link's target on `domain`, through the cache. */
export async function lookup(domain: string, slug: string): Promise<Target | null> {
  const key = keys.shortLink(domain, slug);
  const cached = await fast().get(key);
  if (cached === NONE) return null;
  if (cached) {
    const a = cached.indexOf(" ");
    const b = cached.indexOf(" ", a + 1);
    return { linkId: cached.slice(0, a), accountId: cached.slice(a + 1, b), url: cached.slice(b + 1) };
  }
  // A per-recipient code of a campaign (ADR 060) leads to its link's address; any other slug is a link's own.
  const found = await row<{ id: string; account_id: string; original_url: string }>(
    CODE_SLUG.test(slug)
      ? `SELECT l.id, l.account_id, l.original_url FROM shortener_codes c JOIN shortener_links l ON l.id = c.link_id WHERE c.domain = $1 AND c.slug = $2`
      : "SELECT id, account_id, original_url FROM shortener_links WHERE domain = $1 AND slug = $2",
    [domain, slug],
  );
  const ttl = env().SHORTENER_CACHE_SECONDS;
  if (!found) {
    await redis().set(key, NONE, "EX", Math.min(ttl, 60));
    return null;
  }
  await redis().set(key, `${found.id} ${found.account_id} ${found.original_url}`, "EX", ttl);
  return { linkId: found.id, accountId: found.account_id, url: found.original_url };
}

/** Drops a slug's cached answer (after the link is deleted or created, so a cached "-" does not hide it). */
export async function forget(domain: string, slug: string): Promise<void> {
  await redis().del(keys.shortLink(domain, slug));
}

/** Appends one click to the clicks stream (its shard by slug; `s` names the shard so the entry id is unique with it). */
export async function recordClick(target: Target, slug: string, request: Request, at = Date.now()): Promise<void> {
  const shard = shardOf(slug, streamShards());
  const h = request.headers;
  const fields = [
    "l",
    target.linkId,
    "a",
    target.accountId,
    "s",
    String(shard),
    "t",
    String(at),
    "u",
    uaClass(h.get("User-Agent")),
    "c",
    countryOf(h.get("CF-IPCountry"), h.get("Accept-Language")) ?? "",
    "r",
    referrerHost(h.get("Referer")) ?? "",
    // The recipient's code, when the click came through one (a campaign's link, ADR 060).
    ...(CODE_SLUG.test(slug) ? ["k", slug] : []),
  ];
  await fast().xadd(keys.jobStream(CLICK_STREAM, shard), "*", ...fields);
}

/** The host's only page: "link not found", in the visitor's language (shortener:redirect.notFound). */
function notFound(request: Request): Response {
  const text = translate(fromAcceptLanguage(request.headers.get("Accept-Language")), "shortener:redirect.notFound");
  return new Response(text, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** The redirect host's whole answer for a request on short domain `host`. */
export async function shortRedirect(request: Request, host: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
  const m = SLUG_PATH.exec(new URL(request.url).pathname);
  if (!m) return notFound(request);
  const target = await lookup(host, m[1]);
  if (!target) return notFound(request);
  if (request.method === "GET") await recordClick(target, m[1], request);
  return new Response(null, { status: 302, headers: { Location: target.url, "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer-when-downgrade" } });
}
