import type { MigrationFn } from "../migrate";

/**
 * Agent seats and what numbers cost (issue 18, ADR 047). A chat agent (a membership with
 * is_agent) is a paid seat: `charged_until` is the São Paulo month start up to which its seat is
 * paid (adding an agent pays the rest of the month and sets it to the next month start; the
 * worker's renewal pays each seat once per month and moves it on), `agent_since` when it last
 * became an agent. `omni_prices` is an account's own price per agent seat (route 'agent'), like
 * sms_prices per route; without a row the default AGENT_MONTHLY_PRICE applies (api/live/seats.ts).
 * Short codes and WhatsApp numbers get a monthly price in the account's currency (shown on
 * /numbers/active). The seeded and existing agents count as paid for the current month.
 */
const NEXT_MONTH = `(date_trunc('month', now() AT TIME ZONE 'America/Sao_Paulo') + interval '1 month') AT TIME ZONE 'America/Sao_Paulo'`;
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE memberships ADD COLUMN charged_until timestamptz, ADD COLUMN agent_since timestamptz;
    UPDATE memberships SET charged_until = ${NEXT_MONTH}, agent_since = created_at WHERE is_agent;
    CREATE INDEX memberships_agent_renewal_idx ON memberships (charged_until) WHERE is_agent;

    CREATE TABLE omni_prices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      route text NOT NULL CHECK (route IN ('agent')),
      price bigint NOT NULL CHECK (price >= 0),
      currency char(3) NOT NULL DEFAULT 'BRL',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, route)
    );

    -- R$ 990,00 a month per short code, R$ 99,00 per WhatsApp number (ADR 047), in minor units.
    ALTER TABLE short_codes ADD COLUMN monthly_price bigint NOT NULL DEFAULT 99000 CHECK (monthly_price >= 0);
    ALTER TABLE whatsapp_numbers ADD COLUMN monthly_price bigint NOT NULL DEFAULT 9900 CHECK (monthly_price >= 0);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE whatsapp_numbers DROP COLUMN IF EXISTS monthly_price;
    ALTER TABLE short_codes DROP COLUMN IF EXISTS monthly_price;
    DROP TABLE IF EXISTS omni_prices;
    DROP INDEX IF EXISTS memberships_agent_renewal_idx;
    ALTER TABLE memberships DROP COLUMN IF EXISTS charged_until, DROP COLUMN IF EXISTS agent_since;
  `);
};
