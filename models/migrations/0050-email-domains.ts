import type { MigrationFn } from "../migrate";

/**
 * Sending domains of the e-mail channel (issue 17, /mail/domains; ADR 036): a domain the account
 * sends from once its DNS proves the account controls it.
 * - dkim_selector: ours, random per domain (so two accounts may each prove the same domain with
 *   their own key); dkim_public_key the SPKI of the RSA key, base64; the private key sealed
 *   (api/lib/crypto), never answered.
 * - status: pending (never validated) -> validated | failed; a recheck that cannot reach DNS keeps it.
 * - checks: the last look-up of each record {spf, dkim, dmarc, return_path: {status, found}}.
 * - checked_at: the last check (the worker's schedule claims by it); validated_at: the last success.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE email_domains (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      domain text NOT NULL CHECK (length(domain) <= 253 AND domain ~ '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$'),
      dkim_selector text NOT NULL CHECK (dkim_selector ~ '^[a-z0-9]{1,63}$'),
      dkim_public_key text NOT NULL,
      dkim_private_key_sealed text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','validated','failed')),
      checks jsonb NOT NULL DEFAULT '{}'::jsonb,
      checked_at timestamptz,
      validated_at timestamptz,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, domain)
    );
    CREATE INDEX email_domains_account_idx ON email_domains(account_id, created_at, id);
    CREATE INDEX email_domains_checked_idx ON email_domains(checked_at NULLS FIRST);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE email_domains;`);
};
