import type { MigrationFn } from "../migrate";

/**
 * Links shortened per recipient in campaigns (issue 22, ADR 060).
 * - shortener_codes: one short code per recipient and link of a campaign. The code is "_" and 12
 *   base64url characters (72 random bits: no collision in practice, not guessable); a custom
 *   slug never starts with "_" and a generated one is base62, so the two never meet on a domain.
 *   It leads to its link's original URL; a click of it is the click of that recipient. A deleted
 *   campaign leaves its codes working (campaign_id NULL: the messages are out there); a deleted
 *   link takes its codes with it (they answer 404, as the link does).
 * - shortener_code(): a new code, drawn by PostgreSQL for set-based sends (one per row: volatile).
 *   The 72 random bits are gen_random_uuid()'s (bytes 1-6 of one version 4 UUID and bytes 11-13 of
 *   another are all random), so no extension is needed; one expression, so the planner inlines it.
 * - shortener_clicks.code: the per-recipient code a click came through (NULL for the link itself).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE FUNCTION shortener_code() RETURNS text LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
      SELECT '_' || translate(encode(substring(uuid_send(gen_random_uuid()) FROM 1 FOR 6) || substring(uuid_send(gen_random_uuid()) FROM 11 FOR 3), 'base64'), '+/', '-_')
    $$;

    CREATE TABLE shortener_codes (
      domain text NOT NULL CHECK (length(domain) BETWEEN 1 AND 253),
      slug text NOT NULL CHECK (slug ~ '^_[A-Za-z0-9_-]{12}$'),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      link_id uuid NOT NULL REFERENCES shortener_links(id) ON DELETE CASCADE,
      campaign_id uuid REFERENCES campaigns(id) ON DELETE SET NULL,
      recipient text NOT NULL CHECK (length(recipient) BETWEEN 1 AND 320),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (domain, slug)
    );
    CREATE INDEX shortener_codes_campaign_idx ON shortener_codes(campaign_id, recipient);
    CREATE INDEX shortener_codes_link_idx ON shortener_codes(link_id);

    ALTER TABLE shortener_clicks ADD COLUMN code text CHECK (code ~ '^_[A-Za-z0-9_-]{12}$');
    CREATE INDEX shortener_clicks_code_idx ON shortener_clicks(code, clicked_at) WHERE code IS NOT NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE shortener_clicks DROP COLUMN code;
    DROP TABLE shortener_codes;
    DROP FUNCTION shortener_code();
  `);
};
