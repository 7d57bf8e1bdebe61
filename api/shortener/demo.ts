/**
 * The demo account's short links (issue 22), for `npm start`: two links on the default short
 * domain with custom slugs ("ofertas", "cardapio") and a few weeks of clicks (devices, countries
 * and referrers varied), so /shortener/links and /shortener/reports/stat show something real.
 * Idempotent: a link is found by its domain and slug, a seeded click by its `stream_entry`
 * ("seed-<slug>-<n>"); what people changed stays.
 */
import type { Transaction } from "sequelize";
import { exec, row } from "../lib/sql";
import { defaultShortDomain } from "./fields";

const LINKS = [
  { slug: "ofertas", title: "Ofertas da semana", url: "https://demo.example/ofertas", clicks: 48 },
  { slug: "cardapio", title: "Cardápio digital", url: "https://demo.example/cardapio", clicks: 21 },
];
const UA = ["mobile", "mobile", "mobile", "desktop", "tablet", "bot"];
const COUNTRY = ["BR", "BR", "BR", "BR", "PT", "US", null];
const REFERRER = [null, null, "l.instagram.com", "www.facebook.com", "t.co"];

/** Answers how many rows it wrote. */
export async function seedDemoShortener(accountId: string, transaction: Transaction): Promise<number> {
  const domain = defaultShortDomain();
  let created = 0;
  for (const l of LINKS) {
    let link = await row<{ id: string; account_id: string }>("SELECT id, account_id FROM shortener_links WHERE domain = $1 AND slug = $2", [domain, l.slug], { transaction });
    if (!link) {
      link = await row<{ id: string; account_id: string }>(
        `INSERT INTO shortener_links (account_id, title, original_url, domain, slug, custom_slug, created_at)
         VALUES ($1, $2, $3, $4, $5, true, now() - interval '21 days') RETURNING id, account_id`,
        [accountId, l.title, l.url, domain, l.slug],
        { transaction },
      );
      created++;
    }
    if (link?.account_id !== accountId) continue;
    const n = Array.from({ length: l.clicks }, (_, i) => i);
    created += await exec(
      `INSERT INTO shortener_clicks (account_id, link_id, stream_entry, clicked_at, ua_class, country, referrer)
       SELECT $1, $2, 'seed-' || $3 || '-' || i.n, now() - (i.n % 20) * interval '1 day' - (i.n * 37 % 600) * interval '1 minute', i.ua, i.country, i.referrer
         FROM unnest($4::int[], $5::text[], $6::text[], $7::text[]) AS i(n, ua, country, referrer)
       ON CONFLICT (stream_entry) DO NOTHING`,
      [accountId, link.id, l.slug, n, n.map((i) => UA[i % UA.length]), n.map((i) => COUNTRY[i % COUNTRY.length]), n.map((i) => REFERRER[i % REFERRER.length])],
      { transaction },
    );
  }
  return created;
}
