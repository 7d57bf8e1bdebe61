import type { MigrationFn } from "../migrate";

/**
 * What a provider charges the platform per SMS segment (issue 23, ADR 070), for the margin of
 * /admin/sms/sales. One row per provider, route and start: a cost change is a new row with its own
 * `valid_from`, so a message is costed at the row in force when it was handed to the provider
 * (messages.sent_at) and the history of a period stays what it was. `provider` is the connection's
 * name, the value messages.provider carries (fixed once the connection is created), kept as text so
 * a deleted connection's history keeps its costs. Integer minor units of `currency`, like prices.
 * A row may be deleted only before it applies (api/providers/costs.ts).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE provider_costs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      provider text NOT NULL CHECK (provider ~ '^[a-z][a-z0-9_-]{1,40}$'),
      route text NOT NULL CHECK (route IN ('T1','T2','T4','T6')),
      currency char(3) NOT NULL REFERENCES currencies(code),
      cost_per_segment integer NOT NULL CHECK (cost_per_segment >= 0),
      valid_from timestamptz NOT NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (provider, route, valid_from)
    );
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS provider_costs`);
};
