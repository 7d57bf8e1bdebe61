import type { MigrationFn } from "../migrate";

/**
 * Products per customer (issue 18, ADR 048): what staff hire for an account — credits or
 * unlimited messages of one channel per billing cycle, at a price in minor units of the account's
 * currency. `credits_left` is decremented at accept (never below 0), `period_start`/`period_end`
 * is the current period between São Paulo midnights (NULL end for prepaid). A message covered by
 * a product records it (`messages.product_id`, price 0). The ledger gets the posting kind
 * `product` (counter book revenue).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE customer_products (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      channel text NOT NULL CHECK (channel IN ('sms', 'email', 'whatsapp', 'rcs', 'omni')),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      billing_cycle text NOT NULL CHECK (billing_cycle IN ('prepaid', 'weekly', 'biweekly', 'monthly')),
      currency char(3) NOT NULL CHECK (currency IN ('BRL', 'USD', 'EUR')),
      kind text NOT NULL CHECK (kind IN ('credits', 'unlimited')),
      credits integer CHECK (credits IS NULL OR credits > 0),
      credits_left integer CHECK (credits_left IS NULL OR credits_left >= 0),
      price bigint NOT NULL CHECK (price >= 0),
      period_start timestamptz NOT NULL,
      period_end timestamptz,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'cancelled')),
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      cancelled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((kind = 'credits') = (credits IS NOT NULL AND credits_left IS NOT NULL)),
      CHECK ((billing_cycle = 'prepaid') = (period_end IS NULL))
    );
    -- The accept's lookup: the account's active products of a channel.
    CREATE INDEX customer_products_accept_idx ON customer_products (account_id, channel) WHERE status = 'active';
    CREATE INDEX customer_products_account_idx ON customer_products (account_id, created_at DESC);
    CREATE INDEX customer_products_renewal_idx ON customer_products (period_end) WHERE status <> 'cancelled' AND period_end IS NOT NULL;

    ALTER TABLE messages ADD COLUMN product_id uuid;

    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
      CHECK (kind IN ('opening', 'message', 'refund', 'topup', 'adjustment', 'plan_fee', 'agent', 'product'));
    CREATE OR REPLACE FUNCTION ledger_counter_book(kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE kind WHEN 'message' THEN 'revenue' WHEN 'refund' THEN 'revenue' WHEN 'plan_fee' THEN 'revenue' WHEN 'agent' THEN 'revenue' WHEN 'product' THEN 'revenue'
                       WHEN 'topup' THEN 'payments' WHEN 'opening' THEN 'opening' ELSE 'adjustments' END
    $$;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE OR REPLACE FUNCTION ledger_counter_book(kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE kind WHEN 'message' THEN 'revenue' WHEN 'refund' THEN 'revenue' WHEN 'plan_fee' THEN 'revenue' WHEN 'agent' THEN 'revenue'
                       WHEN 'topup' THEN 'payments' WHEN 'opening' THEN 'opening' ELSE 'adjustments' END
    $$;
    ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
    ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
      CHECK (kind IN ('opening', 'message', 'refund', 'topup', 'adjustment', 'plan_fee', 'agent'));
    ALTER TABLE messages DROP COLUMN IF EXISTS product_id;
    DROP TABLE IF EXISTS customer_products;
  `);
};
