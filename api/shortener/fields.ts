/**
 * The shortener's pure rules (ADR 057): slugs, which original URLs a link may point at, the short
 * domains the platform serves, and what a click records of its request (user agent class,
 * country, referrer host). No I/O: the redirect host and the use-cases share them.
 */
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { env } from "../lib/env";
import { addressRisk } from "../lib/outbound";

/**
 * A custom slug: 3 to 50 of letters, digits, "_" and "-" (case-sensitive), not starting with "_":
 * those are the per-recipient codes of campaigns (CODE_SLUG), so the two never meet.
 */
export const CUSTOM_SLUG = /^[A-Za-z0-9-][A-Za-z0-9_-]{2,49}$/;
/** A per-recipient code of a campaign link (ADR 060): "_" and 12 base64url characters (72 random bits). */
export const CODE_SLUG = /^_[A-Za-z0-9_-]{12}$/;
/** A path the redirect host answers: "/" and a slug (anything else is 404 without a lookup). */
export const SLUG_PATH = /^\/([A-Za-z0-9_-]{3,50})$/;
export const GENERATED_LENGTH = 7;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A random base62 slug (62^7 ≈ 3.5·10^12: not enumerable by guessing), unbiased (bytes ≥ 248 are drawn again). */
export function generateSlug(length = GENERATED_LENGTH): string {
  let out = "";
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

/** Host names that never are a public destination even when written as a name. */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|localdomain|home\.arpa)$/i;

/**
 * Why `raw` cannot be a link's destination (a locale key of the `shortener` namespace), or null:
 * only http(s), no credentials, a host that is a public name or a public address (no loopback,
 * private, link-local… in any notation `addressRisk` reads), at most 2048 characters.
 * The redirect host never fetches it, but a short link must not lead people to an intranet.
 */
export function originalUrlProblem(raw: string): string | null {
  if (raw.length > 2048) return "shortener.errors.urlTooLong";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "shortener.errors.urlInvalid";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "shortener.errors.urlScheme";
  if (url.username || url.password) return "shortener.errors.urlCredentials";
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (!host) return "shortener.errors.urlInvalid";
  if (platformShortDomains().includes(host.toLowerCase())) return "shortener.errors.urlLoop";
  if (isIP(host) || /^[0-9.]+$/.test(host) || /^0x/i.test(host)) {
    if (addressRisk(host)) return "shortener.errors.urlPrivate";
  } else if (LOCAL_NAMES.test(host) || !host.includes(".")) {
    return "shortener.errors.urlPrivate";
  }
  return null;
}

/** The default short domain (SHORTENER_HOST), lower-case. */
export const defaultShortDomain = () => env().SHORTENER_HOST.trim().toLowerCase();

/** Every host the redirect answers on: SHORTENER_HOST and SHORTENER_DOMAINS. */
export function platformShortDomains(): string[] {
  const extra = (env().SHORTENER_DOMAINS ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set([defaultShortDomain(), ...extra])];
}

/**
 * A link's short URL: SHORTENER_BASE_URL for the default domain when set; otherwise the domain
 * with APP_URL's scheme and port (development: http://short.localhost:3000/abc1234).
 */
export function shortUrl(domain: string, slug: string): string {
  const e = env();
  if (e.SHORTENER_BASE_URL && domain === defaultShortDomain()) return `${e.SHORTENER_BASE_URL.replace(/\/+$/, "")}/${slug}`;
  const app = new URL(e.APP_URL);
  return `${app.protocol}//${domain}${app.port ? `:${app.port}` : ""}/${slug}`;
}

export type UaClass = "desktop" | "mobile" | "tablet" | "bot" | "other";

/** The class of a User-Agent: bots and link previews first (WhatsApp, Facebook, Slack fetch previews), then tablets, phones, desktops. */
export function uaClass(ua: string | null): UaClass {
  if (!ua) return "other";
  if (/bot|crawl|spider|slurp|preview|facebookexternalhit|whatsapp|telegram|curl|wget|python|headless|monitor/i.test(ua)) return "bot";
  if (/ipad|tablet|kindle|silk|playbook|(android(?!.*mobile))/i.test(ua)) return "tablet";
  if (/mobi|iphone|ipod|android|windows phone|blackberry|opera mini/i.test(ua)) return "mobile";
  if (/windows nt|macintosh|mac os x|x11|linux|cros/i.test(ua)) return "desktop";
  return "other";
}

/**
 * The visitor's country (ISO 3166 alpha-2, upper-case) when the request tells: a country header
 * our trusted edge sets (`CF-IPCountry`, from the IP), else the region of the first
 * Accept-Language tag that has one ("pt-BR,pt;q=0.9" → BR). Null when neither says.
 */
export function countryOf(edgeCountry: string | null, acceptLanguage: string | null): string | null {
  if (edgeCountry && /^[A-Za-z]{2}$/.test(edgeCountry) && !/^(XX|T1)$/i.test(edgeCountry)) return edgeCountry.toUpperCase();
  if (!acceptLanguage) return null;
  for (const part of acceptLanguage.split(",").slice(0, 8)) {
    const m = /^\s*[A-Za-z]{2,3}-([A-Za-z]{2})\b/.exec(part);
    if (m) return m[1].toUpperCase();
  }
  return null;
}

/** The referrer's host only (no path or query: they may carry personal data), lower-case; null when none or unreadable. */
export function referrerHost(referer: string | null): string | null {
  if (!referer) return null;
  try {
    const h = new URL(referer).hostname.toLowerCase();
    return h && h.length <= 253 ? h : null;
  } catch {
    return null;
  }
}
