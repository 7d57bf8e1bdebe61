/**
 * The one place that changes an account's balance (integer minor units of its currency). The
 * balance lives in its own row, account_balances (ADR 027): a debit or a refund never rewrites the
 * accounts row that every request reads. Callers pass their transaction, so the money moves with
 * the messages it pays for, or not at all.
 *
 * Every change is a posting of the double-entry ledger (ADR 042, migration 0060): the trigger on
 * account_balances writes its two legs in the same statement, described by the `Posting` each
 * statement here sets first (`set_config('mensageria.ledger', …, true)` in its own FROM list, so
 * the description costs no round trip and lives only in that transaction).
 */
import type { Transaction } from "sequelize";
import { exec, rows } from "../lib/sql";

/**
 * One account's debit as SQL: takes `amount` from the account when balance + credit limit still
 * covers it (a negative amount, a refund of a difference, always applies). RETURNING the account
 * id when it applied.
 */
function debitSql(account: string, amount: string, posting: string) {
  return `UPDATE account_balances b SET balance = b.balance - ${amount}, updated_at = now() FROM accounts a, ${postingSql(posting)}
           WHERE b.account_id = ${account} AND a.id = b.account_id AND ${amount} <> 0 AND (${amount} < 0 OR b.balance + a.credit_limit >= ${amount})
           RETURNING b.account_id`;
}

/** What a balance change is, for its ledger posting: its kind, what it pays for or returns, why, and who did it (a person, for staff adjustments). */
export type Posting = {
  kind: "message" | "refund" | "topup" | "adjustment" | "plan_fee" | "agent" | "product";
  /** What it is about: a message, campaign, invoice… (`campaign:<id>`, `message:<id>`). */
  reference?: string | null;
  reason?: string | null;
  by?: string | null;
};

/** The posting as the JSON the ledger's trigger reads. */
export const postingJson = (p: Posting) =>
  JSON.stringify({ kind: p.kind, reference: p.reference?.slice(0, 200) ?? null, reason: p.reason?.slice(0, 500) ?? null, by: p.by ?? null });

/** A FROM item that sets the transaction's posting context (a bind or literal holding postingJson). */
const postingSql = (json: string) => `(SELECT set_config('mensageria.ledger', ${json}, true)) AS posting`;

/**
 * Debits of several accounts at once, as two CTEs for a statement that writes what they pay for
 * (api/sms/accept-batch.ts): `totals` is a relation (account_id, total). `lock` locks the balance
 * rows in account order first (two such statements in different processes can never deadlock)
 * and answers what each may spend as it locked it (`available`: balance + credit limit);
 * `debited` then takes each total where that still covers it and answers the account ids it
 * debited. An account it did not debit has nothing of its own written.
 */
export function debitEachSql(totals: string, lock: string, debited: string, posting: string) {
  return `${lock} AS (
      SELECT b.account_id, b.balance + a.credit_limit AS available
        FROM account_balances b JOIN ${totals} t ON t.account_id = b.account_id JOIN accounts a ON a.id = b.account_id
       WHERE t.total > 0 ORDER BY b.account_id FOR UPDATE OF b
    ), ${debited} AS (
      UPDATE account_balances b SET balance = b.balance - t.total, updated_at = now() FROM ${totals} t, accounts a, ${postingSql(posting)}
       WHERE b.account_id = t.account_id AND a.id = t.account_id AND t.total > 0 AND b.account_id IN (SELECT account_id FROM ${lock})
         AND b.balance + a.credit_limit >= t.total
      RETURNING b.account_id
    )`;
}

/** Takes `amount` from the account's balance if balance + credit limit covers it; false when it does not (nothing changed). Zero is a no-op. */
export async function debitBalance(accountId: string, amount: number, transaction: Transaction, posting: Posting = { kind: "message" }): Promise<boolean> {
  if (amount === 0) return true;
  return (await rows(debitSql("$1", "$2::bigint", "$3::text"), [accountId, amount, postingJson(posting)], { transaction })).length > 0;
}

/** Gives `amount` back to the account's balance (a refund: a failed, cancelled or rejected message). */
export async function creditBalance(accountId: string, amount: number, transaction: Transaction, posting: Posting = { kind: "refund" }): Promise<void> {
  if (amount <= 0) return;
  await exec(
    `UPDATE account_balances b SET balance = b.balance + $2, updated_at = now() FROM ${postingSql("$3::text")} WHERE b.account_id = $1`,
    [accountId, amount, postingJson(posting)],
    {
      transaction,
    },
  );
}

/**
 * A staff correction (ADR 046): adds `delta` (positive credits, negative debits) to the balance
 * whatever the credit limit, as one posting. Answers the balance after it, or null when the
 * account has no balance row. Zero is refused by the caller (a posting is never zero).
 */
export async function adjustBalance(accountId: string, delta: number, transaction: Transaction, posting: Posting): Promise<number | null> {
  const [r] = await rows<{ balance: string }>(
    `UPDATE account_balances b SET balance = b.balance + $2::bigint, updated_at = now() FROM ${postingSql("$3::text")} WHERE b.account_id = $1 AND $2::bigint <> 0 RETURNING b.balance`,
    [accountId, delta, postingJson(posting)],
    { transaction },
  );
  return r ? Number(r.balance) : null;
}
