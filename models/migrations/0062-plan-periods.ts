import type { MigrationFn } from "../migrate";

/**
 * The current period of each plan an account has (issue 18, ADR 045): a plan that renews (weekly,
 * biweekly, monthly, with a price) is paid at the start of each period [period_start, period_end)
 * by a `plan_fee` posting, and a plan change inside a period pays or returns the price difference
 * for the part of the period left. Periods run between São Paulo midnights. NULL: a plan that does
 * not renew (prepaid, free, a trial: its `ends_at` ends it).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE account_plans ADD COLUMN period_start timestamptz, ADD COLUMN period_end timestamptz,
      ADD CONSTRAINT account_plans_period_check CHECK ((period_start IS NULL) = (period_end IS NULL) AND (period_end IS NULL OR period_end > period_start));
    CREATE INDEX account_plans_period_end_idx ON account_plans (period_end) WHERE period_end IS NOT NULL;
    -- Plans already held that renew: their period starts at today's São Paulo midnight.
    UPDATE account_plans ap SET
      period_start = (date_trunc('day', now() AT TIME ZONE 'America/Sao_Paulo')) AT TIME ZONE 'America/Sao_Paulo',
      period_end = (date_trunc('day', now() AT TIME ZONE 'America/Sao_Paulo') + CASE p.billing_cycle WHEN 'weekly' THEN interval '7 days' WHEN 'biweekly' THEN interval '14 days' ELSE interval '1 month' END) AT TIME ZONE 'America/Sao_Paulo'
      FROM plans p
     WHERE p.id = ap.plan_id AND p.billing_cycle IN ('weekly', 'biweekly', 'monthly') AND p.price > 0 AND NOT p.is_trial AND ap.ends_at IS NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP INDEX IF EXISTS account_plans_period_end_idx;
    ALTER TABLE account_plans DROP CONSTRAINT IF EXISTS account_plans_period_check, DROP COLUMN IF EXISTS period_start, DROP COLUMN IF EXISTS period_end;
  `);
};
