import type { MigrationFn } from "../migrate";

/**
 * Accept (issue 4, pipeline step 1): the price of an SMS segment per account and route, and the
 * Idempotency-Key store of the accepting API. Prices are integer minor units of `currency`
 * (centavos); an account without a row for a route pays the default of api/sms/pricing.ts.
 * `idempotency_keys` keeps, per account and key, the hash of the normalized request and the
 * answer given, written in the same transaction as the messages it answers for.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE sms_prices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      route text NOT NULL CHECK (route IN ('T1','T2','T4','T6')),
      price_per_segment bigint NOT NULL CHECK (price_per_segment >= 0),
      currency char(3) NOT NULL DEFAULT 'BRL',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, route)
    );

    CREATE TABLE idempotency_keys (
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
      request_hash text NOT NULL,
      response jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, key)
    );
    CREATE INDEX idempotency_keys_created_idx ON idempotency_keys(created_at);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS idempotency_keys; DROP TABLE IF EXISTS sms_prices;`);
};
