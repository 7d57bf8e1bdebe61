import { QueryTypes } from "sequelize";
import { DEFAULT_OPTOUT_KEYWORDS, DEFAULT_RESUME_KEYWORDS, foldKeyword } from "../../api/optouts/keywords";
import type { MigrationFn } from "../migrate";

/**
 * Issue 4, moderation `keywords` and webhook secret overlap (ADR 012).
 *
 * - optout_keywords: the account's inbound keywords, one row each (spec "keywords": GET/POST,
 *   PUT/DELETE keywords/{id}, DELETE keywords bulk), with their action: `optout` (SAIR, PARAR…)
 *   or `resume` (VOLTAR, START). `folded` is the keyword uppercase without accents
 *   (api/optouts/keywords.ts foldKeyword), unique per account: "SAIR" and "Sáir" are one keyword.
 *   It replaces the two arrays of optout_settings (dropped here; their content is copied). Every
 *   account gets the defaults when it is created (trigger on accounts), and existing accounts
 *   without saved settings get them now, so the rows are the only truth: an account whose rows
 *   were edited keeps exactly what it chose.
 * - webhook_endpoints.previous_secret_sealed / previous_secret_expires_at: after a rotation, the
 *   replaced secret keeps signing (a second signature in webhook-signature) until it expires.
 */
export const up: MigrationFn = async ({ context: q }) => {
  const db = q.sequelize;
  const defaults = [
    ...DEFAULT_OPTOUT_KEYWORDS.map((k, i) => `('${k}', '${foldKeyword(k)}', 'optout', ${i + 1})`),
    ...DEFAULT_RESUME_KEYWORDS.map((k, i) => `('${k}', '${foldKeyword(k)}', 'resume', ${i + 1})`),
  ].join(", ");
  await db.query(`
    CREATE TABLE optout_keywords (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      keyword text NOT NULL CHECK (length(keyword) BETWEEN 1 AND 30 AND keyword !~ '\\s'),
      folded text NOT NULL CHECK (length(folded) BETWEEN 1 AND 30),
      action text NOT NULL CHECK (action IN ('optout','resume')),
      position integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, folded)
    );

    CREATE FUNCTION optout_keywords_seed() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO optout_keywords (account_id, keyword, folded, action, position)
      SELECT NEW.id, d.keyword, d.folded, d.action, d.position FROM (VALUES ${defaults}) AS d(keyword, folded, action, position)
      ON CONFLICT (account_id, folded) DO NOTHING;
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER accounts_optout_keywords_seed AFTER INSERT ON accounts
      FOR EACH ROW EXECUTE FUNCTION optout_keywords_seed();

    ALTER TABLE webhook_endpoints
      ADD COLUMN previous_secret_sealed text,
      ADD COLUMN previous_secret_expires_at timestamptz;
  `);

  // Saved settings are copied (folded in JS: accents cannot be folded in SQL without unaccent).
  const saved = await db.query<{ account_id: string; keywords: string[]; resume_keywords: string[] }>(`SELECT account_id, keywords, resume_keywords FROM optout_settings`, {
    type: QueryTypes.SELECT,
  });
  for (const s of saved) {
    const rows: [string, string, string, number][] = [];
    const seen = new Set<string>();
    const add = (list: string[], action: string) =>
      list.forEach((k, i) => {
        const folded = foldKeyword(k);
        if (!folded || seen.has(folded)) return;
        seen.add(folded);
        rows.push([k.trim().toUpperCase(), folded, action, i + 1]);
      });
    add(s.keywords, "optout");
    add(s.resume_keywords, "resume");
    await db.query(
      `INSERT INTO optout_keywords (account_id, keyword, folded, action, position)
       SELECT $1, k, f, a, p FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) AS t(k, f, a, p)`,
      { bind: [s.account_id, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])] },
    );
  }
  await db.query(`
    INSERT INTO optout_keywords (account_id, keyword, folded, action, position)
    SELECT a.id, d.keyword, d.folded, d.action, d.position FROM accounts a
    CROSS JOIN (VALUES ${defaults}) AS d(keyword, folded, action, position)
    WHERE NOT EXISTS (SELECT 1 FROM optout_settings s WHERE s.account_id = a.id);
    DROP TABLE optout_settings;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE optout_settings (
      account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      keywords text[] NOT NULL DEFAULT '{SAIR,PARAR,CANCELAR,DESCADASTRAR,REMOVER,STOP}',
      resume_keywords text[] NOT NULL DEFAULT '{VOLTAR,START}',
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO optout_settings (account_id, keywords, resume_keywords, updated_at)
    SELECT account_id,
           COALESCE(array_agg(keyword ORDER BY position, created_at) FILTER (WHERE action = 'optout'), '{}'),
           COALESCE(array_agg(keyword ORDER BY position, created_at) FILTER (WHERE action = 'resume'), '{}'),
           max(updated_at)
      FROM optout_keywords GROUP BY account_id;
    ALTER TABLE webhook_endpoints DROP COLUMN IF EXISTS previous_secret_expires_at, DROP COLUMN IF EXISTS previous_secret_sealed;
    DROP TRIGGER IF EXISTS accounts_optout_keywords_seed ON accounts;
    DROP FUNCTION IF EXISTS optout_keywords_seed();
    DROP TABLE IF EXISTS optout_keywords;
  `);
};
