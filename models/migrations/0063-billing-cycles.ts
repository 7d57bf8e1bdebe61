import type { MigrationFn } from "../migrate";

/**
 * Postpaid billing cycles and overdue invoices (issue 18, ADR 044). An account is prepaid (the
 * default) or postpaid with a weekly, biweekly or monthly cycle; `cycle_started_at` is the start of
 * its open cycle (a São Paulo midnight, stored in UTC). The worker's cycle job closes each cycle at
 * its end into one `cycle` invoice — its period on the invoice, unique per account and period start,
 * so a period is invoiced once however many times or processes close it — with its line items in
 * `invoice_lines`. An invoice left unpaid past its due date and the grace becomes `fail`; for a cycle
 * invoice the account is then suspended (`billing_suspended_at` says the job did it, so paying
 * reactivates only what billing suspended, never a staff suspension).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE accounts
      ADD COLUMN billing_cycle text NOT NULL DEFAULT 'prepaid' CHECK (billing_cycle IN ('prepaid', 'weekly', 'biweekly', 'monthly')),
      ADD COLUMN cycle_started_at timestamptz,
      ADD COLUMN billing_suspended_at timestamptz,
      ADD CONSTRAINT accounts_cycle_started CHECK (billing_cycle = 'prepaid' OR cycle_started_at IS NOT NULL);
    CREATE INDEX accounts_cycle_idx ON accounts (cycle_started_at) WHERE billing_cycle <> 'prepaid';

    ALTER TABLE invoices
      ADD COLUMN period_start timestamptz,
      ADD COLUMN period_end timestamptz,
      ADD CONSTRAINT invoices_cycle_period CHECK (
        (kind = 'cycle' AND period_start IS NOT NULL AND period_end > period_start) OR (kind <> 'cycle' AND period_start IS NULL AND period_end IS NULL)
      );
    CREATE UNIQUE INDEX invoices_cycle_period_uq ON invoices (account_id, period_start) WHERE kind = 'cycle';

    CREATE TABLE invoice_lines (
      id bigserial PRIMARY KEY,
      invoice_id uuid NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      position smallint NOT NULL,
      description text NOT NULL CHECK (length(description) BETWEEN 1 AND 200),
      quantity integer NOT NULL CHECK (quantity >= 0),
      amount bigint NOT NULL,
      UNIQUE (invoice_id, position)
    );
    CREATE INDEX invoice_lines_account_idx ON invoice_lines (account_id, invoice_id);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE IF EXISTS invoice_lines;
    DROP INDEX IF EXISTS invoices_cycle_period_uq;
    ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_cycle_period, DROP COLUMN IF EXISTS period_start, DROP COLUMN IF EXISTS period_end;
    DROP INDEX IF EXISTS accounts_cycle_idx;
    ALTER TABLE accounts DROP CONSTRAINT IF EXISTS accounts_cycle_started, DROP COLUMN IF EXISTS billing_cycle, DROP COLUMN IF EXISTS cycle_started_at, DROP COLUMN IF EXISTS billing_suspended_at;
  `);
};
