import type { MigrationFn } from "../migrate";

/**
 * Product catalogue (issue 22, spec sections 3, 5 and 9): an account's products, which deals on
 * workflow boards reference (deal products) and messaging channels publish (RCS card, WhatsApp
 * product message).
 * - Limits of spec section 5: name 1..100, description up to 200; warranty none, 1 month, 5 months,
 *   1 year. Money in integer minor units of the account's currency (price, discount).
 * - weight in grams; published_channels names the channels the product is published to
 *   (/catalog/list/registered).
 * - Images live in catalog_product_images (added by the catalogue's own migration).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE catalog_products (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 200),
      brand text NOT NULL DEFAULT '' CHECK (length(brand) <= 100),
      model text NOT NULL DEFAULT '' CHECK (length(model) <= 100),
      reference text NOT NULL DEFAULT '' CHECK (length(reference) <= 100),
      barcode text NOT NULL DEFAULT '' CHECK (barcode ~ '^[0-9]{0,14}$'),
      included_items text NOT NULL DEFAULT '' CHECK (length(included_items) <= 200),
      additional_message text NOT NULL DEFAULT '' CHECK (length(additional_message) <= 200),
      warranty text NOT NULL DEFAULT 'none' CHECK (warranty IN ('none','1_month','5_months','1_year')),
      weight_grams integer CHECK (weight_grams IS NULL OR weight_grams >= 0),
      price_cents bigint NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
      discount_cents bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0 AND discount_cents <= price_cents),
      url text NOT NULL DEFAULT '' CHECK (length(url) <= 2048),
      published_channels text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX catalog_products_account_idx ON catalog_products(account_id, name);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query("DROP TABLE catalog_products;");
};
