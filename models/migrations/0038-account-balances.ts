import type { MigrationFn } from "../migrate";

/**
 * The balance leaves the accounts row for a narrow row of its own (issue 14, ADR 027). Every send
 * debits the balance; every request reads the accounts row (the actor's memberships and status).
 * With both on one row, each debit left a new version of the whole account behind, and under a
 * few thousand sends a second the reads of the account walked the dead versions (a one-row lookup
 * touched 35 pages). account_balances is updated in place (HOT, fillfactor 50: room for new
 * versions on the same page) and read only where money is. Every account has its row: made by a
 * trigger on insert, so no creation path can forget it.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE account_balances (
      account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      balance bigint NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now()
    ) WITH (fillfactor = 50);
    INSERT INTO account_balances (account_id, balance) SELECT id, balance FROM accounts;
    CREATE FUNCTION account_balance_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO account_balances (account_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
      RETURN NEW;
    END $$;
    CREATE TRIGGER accounts_balance_row AFTER INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION account_balance_row();
    ALTER TABLE accounts DROP COLUMN balance;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE accounts ADD COLUMN balance bigint NOT NULL DEFAULT 0;
    UPDATE accounts a SET balance = b.balance FROM account_balances b WHERE b.account_id = a.id;
    DROP TRIGGER IF EXISTS accounts_balance_row ON accounts;
    DROP FUNCTION IF EXISTS account_balance_row();
    DROP TABLE IF EXISTS account_balances;
  `);
};
