import type { MigrationFn } from "../migrate";

/**
 * Platform and reseller administration of customers (issue 23, ADR 063; spec section 3 "Customer:
 * company name, corporate name, billing email…").
 * - accounts.corporate_name: the company's legal name (razão social); `name` stays the company
 *   (trade) name everyone sees. accounts.billing_email: where invoices are addressed (empty: none).
 * - accounts.deleted_at: a customer deleted by the staff or its reseller. The row stays (its ledger,
 *   invoices and messages keep pointing at it: ADR 063); its status is 'inactive', so no one signs
 *   in to it or sends from it, and every admin list and lookup leaves it out.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE accounts
      ADD COLUMN corporate_name text NOT NULL DEFAULT '' CHECK (length(corporate_name) <= 200),
      ADD COLUMN billing_email text NOT NULL DEFAULT '' CHECK (length(billing_email) <= 254),
      ADD COLUMN deleted_at timestamptz;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE accounts DROP COLUMN deleted_at, DROP COLUMN billing_email, DROP COLUMN corporate_name;
  `);
};
