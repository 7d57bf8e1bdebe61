import type { MigrationFn } from "../migrate";

/**
 * The double-entry ledger (issue 18, ADR 042). Every change of an account's balance is a posting of
 * two legs that sum to zero: the `customer` book (what the account holds: its balance is the sum of
 * these legs) and the counter book of its kind — `revenue` for what a send, a plan fee or an agent
 * costs (a refund reverses it), `payments` for a paid top-up, `adjustments` for a staff correction,
 * `opening` for the balances that existed before the ledger. Rows are immutable: no UPDATE, and a
 * DELETE only by the account's own erasure (the cascade).
 *
 * The legs are written by a trigger on account_balances, in the statement that changes the
 * balance, so no path can move money without its entries and none can write entries without
 * moving it. What the posting is (kind, reference, reason, who) comes from the transaction-local
 * setting `mensageria.ledger` the writer sets in that same statement (api/accounts/balance.ts); a
 * change without it is an `adjustment` whose reason says so.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE ledger_entries (
      id bigserial PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      posting uuid NOT NULL,
      book text NOT NULL CHECK (book IN ('customer', 'revenue', 'payments', 'adjustments', 'opening')),
      amount bigint NOT NULL CHECK (amount <> 0),
      currency char(3) NOT NULL,
      kind text NOT NULL CHECK (kind IN ('opening', 'message', 'refund', 'topup', 'adjustment', 'plan_fee', 'agent')),
      reference text CHECK (reference IS NULL OR length(reference) <= 200),
      reason text CHECK (reason IS NULL OR length(reason) <= 500),
      created_by uuid,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, created_at DESC, id DESC);
    CREATE INDEX ledger_entries_posting_idx ON ledger_entries (posting);

    -- The counter book of each kind.
    CREATE FUNCTION ledger_counter_book(kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE kind WHEN 'message' THEN 'revenue' WHEN 'refund' THEN 'revenue' WHEN 'plan_fee' THEN 'revenue' WHEN 'agent' THEN 'revenue'
                       WHEN 'topup' THEN 'payments' WHEN 'opening' THEN 'opening' ELSE 'adjustments' END
    $$;

    -- One posting per balance change: the customer leg (+ credit, − debit) and its counter leg.
    CREATE FUNCTION ledger_post() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      ctx jsonb := nullif(current_setting('mensageria.ledger', true), '')::jsonb;
      delta bigint := NEW.balance - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.balance END;
      k text := coalesce(ctx->>'kind', 'adjustment');
      p uuid := gen_random_uuid();
      cur char(3);
    BEGIN
      IF delta = 0 THEN RETURN NEW; END IF;
      SELECT currency INTO cur FROM accounts WHERE id = NEW.account_id;
      INSERT INTO ledger_entries (account_id, posting, book, amount, currency, kind, reference, reason, created_by) VALUES
        (NEW.account_id, p, 'customer', delta, cur, k, ctx->>'reference', CASE WHEN ctx IS NULL THEN 'balance changed without a posting context' ELSE ctx->>'reason' END, (ctx->>'by')::uuid),
        (NEW.account_id, p, ledger_counter_book(k), -delta, cur, k, ctx->>'reference', CASE WHEN ctx IS NULL THEN 'balance changed without a posting context' ELSE ctx->>'reason' END, (ctx->>'by')::uuid);
      RETURN NEW;
    END $$;
    CREATE TRIGGER account_balances_ledger AFTER UPDATE OF balance ON account_balances FOR EACH ROW WHEN (OLD.balance IS DISTINCT FROM NEW.balance) EXECUTE FUNCTION ledger_post();
    CREATE TRIGGER account_balances_ledger_insert AFTER INSERT ON account_balances FOR EACH ROW WHEN (NEW.balance <> 0) EXECUTE FUNCTION ledger_post();

    -- The balances that exist now open the ledger.
    INSERT INTO ledger_entries (account_id, posting, book, amount, currency, kind, reason)
    SELECT b.account_id, o.posting, leg.book, leg.sign * b.balance, a.currency, 'opening', 'balance before the ledger'
      FROM account_balances b JOIN accounts a ON a.id = b.account_id
      CROSS JOIN LATERAL (SELECT gen_random_uuid() AS posting) o
      CROSS JOIN (VALUES ('customer', 1), ('opening', -1)) AS leg(book, sign)
     WHERE b.balance <> 0;

    -- Entries are written only by ledger_post (inside the balance's trigger), never rewritten, and
    -- go only with their account (the cascade runs inside a trigger too).
    CREATE FUNCTION ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' AND pg_trigger_depth() > 1 THEN RETURN NEW; END IF;
      IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN RETURN OLD; END IF;
      RAISE EXCEPTION 'ledger entries are written only by a balance change and never rewritten' USING ERRCODE = 'P0001';
    END $$;
    CREATE TRIGGER ledger_entries_immutable BEFORE INSERT OR UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_immutable();

    -- The proof: accounts whose balance is not the sum of their customer legs (none, always).
    CREATE FUNCTION ledger_mismatches() RETURNS TABLE (account_id uuid, balance bigint, ledger bigint) LANGUAGE sql STABLE AS $$
      SELECT b.account_id, b.balance, coalesce(l.total, 0)::bigint
        FROM account_balances b
        LEFT JOIN (SELECT e.account_id, sum(e.amount) AS total FROM ledger_entries e WHERE e.book = 'customer' GROUP BY e.account_id) l ON l.account_id = b.account_id
       WHERE b.balance <> coalesce(l.total, 0)
    $$;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP FUNCTION IF EXISTS ledger_mismatches();
    DROP TRIGGER IF EXISTS account_balances_ledger ON account_balances;
    DROP TRIGGER IF EXISTS account_balances_ledger_insert ON account_balances;
    DROP TABLE IF EXISTS ledger_entries;
    DROP FUNCTION IF EXISTS ledger_immutable();
    DROP FUNCTION IF EXISTS ledger_post();
    DROP FUNCTION IF EXISTS ledger_counter_book(text);
  `);
};
