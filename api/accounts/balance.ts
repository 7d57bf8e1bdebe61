/**
 * The one place that changes an account's balance (integer minor units of its currency). The
 * balance lives in its own row, account_balances (ADR 027): a debit or a refund never rewrites the
 * accounts row that every request reads. Callers pass their transaction, so the money moves with
 * the messages it pays for, or not at all.
 */
import type { Transaction } from "sequelize";
import { exec, rows } from "../lib/sql";

/**
 * One account's debit as SQL: takes `amount` from the account when balance + credit limit still
 * covers it (a negative amount, a refund of a difference, always applies). RETURNING the account
 * id when it applied.
 */
function debitSql(account: string, amount: string) {
  return `UPDATE account_balances b SET balance = b.balance - ${amount}, updated_at = now() FROM accounts a
           WHERE b.account_id = ${account} AND a.id = b.account_id AND ${amount} <> 0 AND (${amount} < 0 OR b.balance + a.credit_limit >= ${amount})
           RETURNING b.account_id`;
}

/**
 * Debits of several accounts at once, as two CTEs for a statement that writes what they pay for
 * (api/sms/accept-batch.ts): `totals` is a relation (account_id, total). `lock` locks the balance
 * rows in account order first (two such statements in different processes can never deadlock)
 * and answers what each may spend as it locked it (`available`: balance + credit limit);
 * `debited` then takes each total where that still covers it and answers the account ids it
 * debited. An account it did not debit has nothing of its own written.
 */
export function debitEachSql(totals: string, lock: string, debited: string) {
  return `${lock} AS (
      SELECT b.account_id, b.balance + a.credit_limit AS available
        FROM account_balances b JOIN ${totals} t ON t.account_id = b.account_id JOIN accounts a ON a.id = b.account_id
       WHERE t.total > 0 ORDER BY b.account_id FOR UPDATE OF b
    ), ${debited} AS (
      UPDATE account_balances b SET balance = b.balance - t.total, updated_at = now() FROM ${totals} t, accounts a
       WHERE b.account_id = t.account_id AND a.id = t.account_id AND t.total > 0 AND b.account_id IN (SELECT account_id FROM ${lock})
         AND b.balance + a.credit_limit >= t.total
      RETURNING b.account_id
    )`;
}

/** Takes `amount` from the account's balance if balance + credit limit covers it; false when it does not (nothing changed). Zero is a no-op. */
export async function debitBalance(accountId: string, amount: number, transaction: Transaction): Promise<boolean> {
  if (amount === 0) return true;
  return (await rows(debitSql("$1", "$2::bigint"), [accountId, amount], { transaction })).length > 0;
}

/** Gives `amount` back to the account's balance (a refund: a failed, cancelled or rejected message). */
export async function creditBalance(accountId: string, amount: number, transaction: Transaction): Promise<void> {
  if (amount <= 0) return;
  await exec(`UPDATE account_balances SET balance = balance + $2, updated_at = now() WHERE account_id = $1`, [accountId, amount], { transaction });
}
