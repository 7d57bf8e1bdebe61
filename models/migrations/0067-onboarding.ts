import type { MigrationFn } from "../migrate";

/**
 * Onboarding (issue 19, ADR 050). `accounts.onboarding_dismissed_at`: when someone of the account
 * hid the home page's checklist (the steps themselves are computed from real data, never stored).
 * The trial credit is an `adjustment` posting of the ledger with reference 'trial_credit': this
 * index makes it once per account whatever retries or concurrent requests do (its customer leg).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE accounts ADD COLUMN onboarding_dismissed_at timestamptz;
    CREATE UNIQUE INDEX ledger_entries_trial_credit_idx ON ledger_entries (account_id) WHERE reference = 'trial_credit' AND book = 'customer';
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP INDEX IF EXISTS ledger_entries_trial_credit_idx;
    ALTER TABLE accounts DROP COLUMN IF EXISTS onboarding_dismissed_at;
  `);
};
