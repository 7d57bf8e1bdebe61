import type { MigrationFn } from "../migrate";

/**
 * Opt-outs and the deny list (issue 4, accept step): numbers a recipient asked not to be sent to
 * (per channel; by keyword reply, by hand, by API or import) and numbers the account itself refuses
 * to send to (every channel). Recipients are stored E.164. `optout_settings` holds the account's
 * opt-out and resume keywords; an account without a row uses the defaults of the columns.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE optouts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      channel text NOT NULL DEFAULT 'sms' CHECK (channel ~ '^[a-z][a-z0-9_]{1,30}$'),
      recipient text NOT NULL CHECK (recipient ~ '^\\+[1-9][0-9]{7,14}$'),
      source text NOT NULL CHECK (source IN ('manual','keyword','api','import')),
      keyword text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, channel, recipient)
    );
    CREATE INDEX optouts_account_list_idx ON optouts(account_id, created_at DESC, id DESC);

    CREATE TABLE deny_list (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      recipient text NOT NULL CHECK (recipient ~ '^\\+[1-9][0-9]{7,14}$'),
      reason text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, recipient)
    );
    CREATE INDEX deny_list_account_list_idx ON deny_list(account_id, created_at DESC, id DESC);

    CREATE TABLE optout_settings (
      account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      keywords text[] NOT NULL DEFAULT '{SAIR,PARAR,CANCELAR,DESCADASTRAR,REMOVER,STOP}',
      resume_keywords text[] NOT NULL DEFAULT '{VOLTAR,START}',
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS optout_settings; DROP TABLE IF EXISTS deny_list; DROP TABLE IF EXISTS optouts;`);
};
