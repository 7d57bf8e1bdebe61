import type { MigrationFn } from "../migrate";

/**
 * Short codes (issue 4, spec section 3: number, nickname, deliverability). The platform holds the
 * inventory and assigns a code to a customer (account_id); the customer names it (nickname) and
 * sends from it. Deliverability is the list of carriers the code is homologated with — a send
 * from the code reaches handsets of those carriers. A code without an account is unassigned.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE short_codes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid REFERENCES accounts(id) ON DELETE SET NULL,
      number text NOT NULL UNIQUE CHECK (number ~ '^[0-9]{4,8}$'),
      nickname text NOT NULL DEFAULT '' CHECK (length(nickname) <= 40),
      deliverability text[] NOT NULL DEFAULT '{}',
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX short_codes_account_idx ON short_codes(account_id, number) WHERE account_id IS NOT NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS short_codes`);
};
