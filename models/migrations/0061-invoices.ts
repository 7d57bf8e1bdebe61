import type { MigrationFn } from "../migrate";

/**
 * Invoices and the payment provider's events (issue 18, ADR 043). A top-up is a prepaid invoice
 * created at once (`pending`), charged at the account's payment provider as a Pix charge (its
 * BR Code kept on the invoice); the provider's signed confirmation makes it `paid` and credits the
 * ledger (a `topup` posting) in one transaction, once: each provider event is stored under its id
 * (a repeat changes nothing), and only a pending invoice can become paid.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE invoices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('topup', 'cycle')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'fail')),
      amount bigint NOT NULL CHECK (amount > 0),
      currency char(3) NOT NULL,
      due_at timestamptz NOT NULL,
      paid_at timestamptz,
      failed_at timestamptz,
      provider text NOT NULL,
      provider_charge_id text,
      txid text NOT NULL CHECK (txid ~ '^[A-Za-z0-9]{1,25}$'),
      pix_payload text,
      pay_url text,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (provider, provider_charge_id),
      UNIQUE (txid)
    );
    CREATE INDEX invoices_account_idx ON invoices (account_id, created_at DESC, id DESC);
    CREATE INDEX invoices_pending_due_idx ON invoices (due_at) WHERE status = 'pending';

    CREATE TABLE payment_events (
      provider text NOT NULL,
      event_id text NOT NULL CHECK (length(event_id) BETWEEN 1 AND 200),
      invoice_id uuid REFERENCES invoices(id) ON DELETE CASCADE,
      kind text NOT NULL,
      outcome text NOT NULL,
      payload jsonb NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider, event_id)
    );
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE IF EXISTS payment_events;
    DROP TABLE IF EXISTS invoices;
  `);
};
