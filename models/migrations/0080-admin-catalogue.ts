import type { MigrationFn } from "../migrate";

/**
 * The staff's lists across customers (issue 23, ADR 064): /admin/invoices pages every customer's
 * invoices by due date, /admin/products every customer's products by creation; each keyset page
 * reads its index in order instead of sorting the whole table.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE INDEX invoices_due_idx ON invoices (due_at DESC, id DESC);
    CREATE INDEX customer_products_created_idx ON customer_products (created_at DESC, id DESC);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP INDEX IF EXISTS customer_products_created_idx;
    DROP INDEX IF EXISTS invoices_due_idx;
  `);
};
