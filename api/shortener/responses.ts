/** The success answers of the shortener routes (./routes), as TypeBox schemas for the OpenAPI document. */
import { t } from "elysia";
import { Page } from "../lib/page-schema";

export const ShortLink = t.Object({
  id: t.String({ format: "uuid" }),
  title: t.String(),
  original_url: t.String({ description: "Where the short link leads (http or https, a public host)" }),
  domain: t.String({ description: "The short domain (SHORTENER_HOST unless another the platform serves)" }),
  slug: t.String({ description: "The path after the domain: 7 generated base62 characters, or the account's own [A-Za-z0-9_-]{3,50}" }),
  custom_slug: t.Boolean(),
  short_url: t.String({ description: "The link to share" }),
  clicks: t.Number({ description: "Clicks counted so far (written within a second or two of each visit)" }),
  created_at: t.String({ format: "date-time" }),
});
export const ShortLinkOne = t.Object({ data: ShortLink });
export const ShortLinks = Page(ShortLink, "The account's short links, newest first");
export const Deleted = t.Object({ deleted: t.Number() });

const Counted = t.Object({ key: t.String({ description: "The value (empty: not known)" }), clicks: t.Number() });
export const ClickStats = t.Object({
  from: t.String({ description: "First São Paulo day (YYYY-MM-DD)" }),
  to: t.String({ description: "Last São Paulo day (YYYY-MM-DD)" }),
  link_id: t.Union([t.String(), t.Null()]),
  total: t.Number(),
  per_day: t.Array(t.Object({ day: t.String(), clicks: t.Number() }), { description: "Every day of the period" }),
  per_link: t.Array(t.Object({ id: t.String(), title: t.String(), slug: t.String(), domain: t.String(), clicks: t.Number() }), { description: "The 50 most clicked links" }),
  ua: t.Array(Counted, { description: "By user agent class: desktop, mobile, tablet, bot, other" }),
  countries: t.Array(Counted, { description: "By country (ISO 3166 alpha-2), top 20" }),
  referrers: t.Array(Counted, { description: "By referrer host, top 20" }),
});
