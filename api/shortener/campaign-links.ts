/**
 * Links of a campaign shortened per recipient (issue 22, ADR 060). A send to many that asks for it
 * (`shorten_links`) gets each distinct http(s) address of its text as a short link of the account
 * (listed on /shortener/links, titled after the campaign), and each recipient its own code of each
 * link ("_" and 12 base64url characters, shortener_codes): the recipient's message carries its own
 * short URL, so a click says who clicked, and the campaign's report lists them (campaignClicks).
 *
 * How a send uses it, in its own transaction (nothing half written: any failure rolls it all back):
 * 1. `linksIn(text)` finds the addresses; `markLinks` puts a marker in place of each in the text
 *    that is rendered per recipient (SQL or JS), so variables are filled as before;
 * 2. `shortenCampaignLinks` makes the short links ('Failure to shorten a link: …' on `body` for an
 *    address that cannot be one: not public http(s), too long…);
 * 3. each recipient's codes are drawn (`CODES_SQL` per row in PostgreSQL, `newCodes` in JS) and
 *    the markers replaced by the short URLs (`unmarkSql` / `unmark`) BEFORE segments and prices
 *    are counted: a recipient pays for the message it gets;
 * 4. `insertCodes` writes the codes once the campaign exists; a code already taken (72 random bits:
 *    practically never) fails the send with 'Failure to shorten a link' rather than leave a
 *    recipient with a link that leads nowhere.
 */
import { randomBytes } from "node:crypto";
import type { Transaction } from "sequelize";
import { AppError } from "../lib/errors";
import { exec, row, rows } from "../lib/sql";
import { CODE_SLUG, defaultShortDomain, generateSlug, originalUrlProblem, shortUrl } from "./fields";

/** At most this many different addresses are shortened in one campaign's text. */
export const MAX_CAMPAIGN_LINKS = 5;
/** An address in a text: http(s):// up to white space, quotes, <> or {} (a {{variable}} right after it is not part of it). */
const URL_IN_TEXT = /https?:\/\/[^\s<>"'{}]+/gi;
/** What ends a sentence after an address is not part of it. */
const TRAILING = /[.,;:!?)\]]+$/;

/** The distinct http(s) addresses of `text`, in order of appearance. */
export function linksIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const url = m[0].replace(TRAILING, "");
    if (url.length > "https://".length && !found.includes(url)) found.push(url);
  }
  return found;
}

/** The marker of link `i` (1-based) in a text being rendered: control characters, never in a template or a contact's field that reaches a message. */
export const marker = (i: number) => `\u0001${i}\u0001`;

/** `text` with each of `links` replaced by its marker (the addresses as linksIn found them). */
export function markLinks(text: string, links: string[]): string {
  return text.replace(URL_IN_TEXT, (m) => {
    const url = m.replace(TRAILING, "");
    const i = links.indexOf(url);
    return i < 0 ? m : marker(i + 1) + m.slice(url.length);
  });
}

/** `count` new codes (JS side, for a list rendered in the process). */
export function newCodes(count: number): string[] {
  return Array.from({ length: count }, () => `_${randomBytes(9).toString("base64url")}`);
}

/** A rendered text with its markers replaced by the recipient's short URLs. */
export function unmark(text: string, short: CampaignLinks, codes: string[]): string {
  let out = text;
  codes.forEach((code, i) => {
    out = out.replaceAll(marker(i + 1), short.prefix + code);
  });
  return out;
}

/** SQL: `count` codes drawn for one row (shortener_code() is volatile: evaluated per row). */
export const CODES_SQL = (count: number) => `ARRAY[${Array.from({ length: count }, () => "shortener_code()").join(", ")}]::text[]`;

/** SQL: `expr` (a rendered text) with its markers replaced by `prefixParam` (the short URL without the code) and the row's `codes` column. */
export function unmarkSql(expr: string, count: number, codes: string, prefixParam: string): string {
  let out = expr;
  for (let i = 1; i <= count; i++) out = `replace(${out}, chr(1) || '${i}' || chr(1), ${prefixParam}::text || ${codes}[${i}])`;
  return out;
}

export type CampaignLinks = { domain: string; prefix: string; linkIds: string[]; urls: string[] };

const failure = (url: string, field = "body") => new AppError("VALIDATION", { fields: { [field]: [`shortener.errors.shortenFailed::${url}`] } });

/**
 * The short links of a campaign's addresses (one per address, on the default short domain), in
 * the send's transaction. Throws on `field` (the text's): too many addresses, or 'Failure to
 * shorten a link: <address>' for the first that cannot be a link's destination.
 */
export async function shortenCampaignLinks(
  actor: { accountId: string; userId: string | null },
  title: string,
  urls: string[],
  transaction: Transaction,
  field = "body",
): Promise<CampaignLinks> {
  if (urls.length > MAX_CAMPAIGN_LINKS) throw new AppError("VALIDATION", { fields: { [field]: ["shortener.errors.tooManyLinks"] } });
  for (const url of urls) if (originalUrlProblem(url)) throw failure(url, field);
  const domain = defaultShortDomain();
  const linkIds: string[] = [];
  for (const url of urls) {
    let id: string | null = null;
    // A generated slug that happens to be taken is drawn again (as createLink does).
    for (let attempt = 0; attempt < 5 && !id; attempt++) {
      const r = await row<{ id: string }>(
        // clock_timestamp(): the links of one send keep the text's order (now() is the transaction's start).
        `INSERT INTO shortener_links (account_id, title, original_url, domain, slug, custom_slug, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, false, $6, clock_timestamp()) ON CONFLICT (domain, slug) DO NOTHING RETURNING id`,
        [actor.accountId, title.slice(0, 120) || "-", new URL(url).href, domain, generateSlug(), actor.userId],
        { transaction },
      );
      id = r?.id ?? null;
    }
    if (!id) throw failure(url, field);
    linkIds.push(id);
  }
  return { domain, prefix: shortUrl(domain, ""), linkIds, urls };
}

/**
 * Writes the codes of a campaign: `codesSql` is a relation of (slug, link_id, recipient), with
 * `bind` from $4 on. `expected` codes must all be written: one already taken fails the send.
 */
export async function insertCodes(
  short: CampaignLinks,
  accountId: string,
  campaignId: string,
  codesSql: string,
  bind: unknown[],
  expected: number,
  transaction: Transaction,
): Promise<void> {
  const written = await exec(
    `INSERT INTO shortener_codes (domain, slug, account_id, link_id, campaign_id, recipient)
     SELECT $1, c.slug, $2, c.link_id, $3, c.recipient FROM (${codesSql}) AS c(slug, link_id, recipient)
     ON CONFLICT (domain, slug) DO NOTHING`,
    [short.domain, accountId, campaignId, ...bind],
    { transaction },
  );
  if (written !== expected) throw failure(short.urls[0]);
}

/** SQL of a set-based send's codes: each row of `table` (recipient, codes) times each link ($4: the link ids). */
export const tableCodesSql = (table: string) => `SELECT t.codes[k.i], ($4::uuid[])[k.i], t.recipient FROM ${table} t CROSS JOIN generate_subscripts($4::uuid[], 1) AS k(i)`;

/** SQL of a list's codes given as three arrays ($4 slugs, $5 link ids, $6 recipients). */
export const LIST_CODES_SQL = "SELECT * FROM unnest($4::text[], $5::uuid[], $6::text[])";

export type CampaignClicks = {
  recipients: number;
  clicked: number;
  clicks: number;
  links: Array<{ url: string; short_url: string | null; clicks: number; clicked: number }>;
  people: Array<{ recipient: string; name: string | null; clicks: number; first_at: Date; last_at: Date }>;
};

/**
 * Who clicked the shortened links of a campaign of the account (the caller checked it may read
 * the campaign): how many recipients got a code, how many clicked, the clicks; per link; and the
 * `limit` recipients who clicked last, with their contact's name when the account has one.
 */
export async function campaignClicks(accountId: string, campaignId: string, limit = 100): Promise<CampaignClicks | null> {
  const [totals] = await rows<{ recipients: number; clicked: number; clicks: number }>(
    `SELECT count(DISTINCT c.recipient)::int AS recipients,
            count(DISTINCT c.recipient) FILTER (WHERE k.id IS NOT NULL)::int AS clicked,
            count(k.id)::int AS clicks
       FROM shortener_codes c LEFT JOIN shortener_clicks k ON k.code = c.slug AND k.link_id = c.link_id
      WHERE c.campaign_id = $1 AND c.account_id = $2`,
    [campaignId, accountId],
  );
  if (!totals || totals.recipients === 0) return null;
  const links = await rows<{ url: string; domain: string; slug: string; clicks: number; clicked: number }>(
    `SELECT l.original_url AS url, l.domain, l.slug, count(k.id)::int AS clicks, count(DISTINCT c.recipient) FILTER (WHERE k.id IS NOT NULL)::int AS clicked
       FROM shortener_codes c JOIN shortener_links l ON l.id = c.link_id
       LEFT JOIN shortener_clicks k ON k.code = c.slug AND k.link_id = c.link_id
      WHERE c.campaign_id = $1 AND c.account_id = $2
      GROUP BY l.id ORDER BY l.created_at, l.id`,
    [campaignId, accountId],
  );
  const people = await rows<CampaignClicks["people"][number]>(
    `SELECT p.recipient, p.clicks, p.first_at, p.last_at,
            (SELECT NULLIF(btrim(concat_ws(' ', ct.first_name, ct.last_name)), '') FROM contacts ct
              WHERE ct.account_id = $2 AND (ct.mobile_number = p.recipient OR ct.email = p.recipient) ORDER BY ct.created_at LIMIT 1) AS name
       FROM (SELECT c.recipient, count(*)::int AS clicks, min(k.clicked_at) AS first_at, max(k.clicked_at) AS last_at
               FROM shortener_codes c JOIN shortener_clicks k ON k.code = c.slug AND k.link_id = c.link_id
              WHERE c.campaign_id = $1 AND c.account_id = $2
              GROUP BY c.recipient ORDER BY max(k.clicked_at) DESC, c.recipient LIMIT $3) p
      ORDER BY p.last_at DESC, p.recipient`,
    [campaignId, accountId, limit],
  );
  return {
    ...totals,
    links: links.map(({ domain, slug, ...l }) => ({ ...l, short_url: shortUrl(domain, slug) })),
    people,
  };
}

/**
 * Who clicked an e-mail campaign's links: e-mail needs no short code (length does not matter
 * there), each message's links are already tracked and signed per message (ADR 039), so a click
 * event names its message and so its recipient. The same figures as campaignClicks, from the
 * campaign's click events; null until one is recorded.
 */
export async function emailCampaignClicks(accountId: string, campaignId: string, limit = 100): Promise<CampaignClicks | null> {
  const clicksOf = `SELECT e.url, e.created_at, m.recipient FROM email_engagements e
      JOIN messages m ON m.id = e.message_id AND m.account_id = e.account_id AND m.campaign_id = e.campaign_id
     WHERE e.campaign_id = $1 AND e.account_id = $2 AND e.kind = 'click'`;
  const [totals] = await rows<{ recipients: number; clicked: number; clicks: number }>(
    `SELECT (SELECT count(DISTINCT recipient)::int FROM messages WHERE campaign_id = $1 AND account_id = $2 AND status NOT IN ('optout', 'rejected')) AS recipients,
            count(DISTINCT k.recipient)::int AS clicked, count(*)::int AS clicks
       FROM (${clicksOf}) k`,
    [campaignId, accountId],
  );
  if (!totals || totals.clicks === 0) return null;
  const links = await rows<{ url: string; clicks: number; clicked: number }>(
    `SELECT k.url, count(*)::int AS clicks, count(DISTINCT k.recipient)::int AS clicked FROM (${clicksOf}) k GROUP BY k.url ORDER BY count(*) DESC, k.url LIMIT 50`,
    [campaignId, accountId],
  );
  const people = await rows<CampaignClicks["people"][number]>(
    `SELECT p.recipient, p.clicks, p.first_at, p.last_at,
            (SELECT NULLIF(btrim(concat_ws(' ', ct.first_name, ct.last_name)), '') FROM contacts ct
              WHERE ct.account_id = $2 AND ct.email = p.recipient ORDER BY ct.created_at LIMIT 1) AS name
       FROM (SELECT k.recipient, count(*)::int AS clicks, min(k.created_at) AS first_at, max(k.created_at) AS last_at
               FROM (${clicksOf}) k GROUP BY k.recipient ORDER BY max(k.created_at) DESC, k.recipient LIMIT $3) p
      ORDER BY p.last_at DESC, p.recipient`,
    [campaignId, accountId, limit],
  );
  return { ...totals, links: links.map((l) => ({ ...l, short_url: null })), people };
}

export { CODE_SLUG };
