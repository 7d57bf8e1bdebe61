import type { MigrationFn } from "../migrate";

/**
 * The URL shortener (issue 22, ADR 057).
 * - shortener_links: an account's short link: title, the original http(s) URL, the short `domain`
 *   (the platform's SHORTENER_HOST or another host the platform serves, SHORTENER_DOMAINS) and its
 *   `slug` (generated base62, or the account's own [A-Za-z0-9_-]{3,50}), unique per domain.
 * - shortener_clicks: one row per click of the redirect host, written in batches by the worker
 *   from the clicks stream; `stream_entry` (shard + stream entry id) is unique, so an entry
 *   delivered twice is counted once.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE shortener_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      title text NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
      original_url text NOT NULL CHECK (length(original_url) BETWEEN 1 AND 2048),
      domain text NOT NULL CHECK (length(domain) BETWEEN 1 AND 253),
      slug text NOT NULL CHECK (slug ~ '^[A-Za-z0-9_-]{3,50}$'),
      custom_slug boolean NOT NULL DEFAULT false,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (domain, slug)
    );
    CREATE INDEX shortener_links_account_idx ON shortener_links(account_id, created_at DESC, id DESC);

    CREATE TABLE shortener_clicks (
      id bigserial PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      link_id uuid NOT NULL REFERENCES shortener_links(id) ON DELETE CASCADE,
      stream_entry text NOT NULL UNIQUE,
      clicked_at timestamptz NOT NULL,
      ua_class text NOT NULL CHECK (ua_class IN ('desktop','mobile','tablet','bot','other')),
      country char(2),
      referrer text CHECK (length(referrer) <= 253)
    );
    CREATE INDEX shortener_clicks_account_idx ON shortener_clicks(account_id, clicked_at);
    CREATE INDEX shortener_clicks_link_idx ON shortener_clicks(link_id, clicked_at);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query("DROP TABLE shortener_clicks; DROP TABLE shortener_links;");
};
