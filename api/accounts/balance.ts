/**
 * The one place that changes an account's balance (integer minor units of its currency). The
 * balance lives in its own row, account_balances (ADR 027): a debit or a refund never rewrites the
 * accounts row that every request reads. Callers pass their transaction, so the money moves with
 * the messages it pays for, or not at all.
 */
import type { Transaction } from "sequelize";
import { exec, rows } from "../lib/sql";

/**
 * A debit as SQL, for statements that debit together with other writes (api/sms/accept-batch.ts):
 * takes `amount` from the account when balance + credit limit still covers it (a negative amount,
 * a refund of a difference, always applies). RETURNING the account id when it applied.
 */
export function debitSql(account: string, amount: string) {
  return `UPDATE account_balances b SET balance = b.balance - ${amount}, updated_at = now() FROM accounts a
           WHERE b.account_id = ${account} AND a.id = b.account_id AND ${amount} <> 0 AND (${amount} < 0 OR b.balance + a.credit_limit >= ${amount})
           RETURNING b.account_id`;
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

/** What an account may still spend now: balance + credit limit (read without a lock: the debit decides). */
export async function spendable(accountId: string, transaction?: Transaction): Promise<{ balance: number; creditLimit: number } | null> {
  const [r] = await rows<{ balance: string; credit_limit: string }>(
    `SELECT b.balance, a.credit_limit FROM accounts a JOIN account_balances b ON b.account_id = a.id WHERE a.id = $1`,
    [accountId],
    { transaction },
  );
  return r ? { balance: Number(r.balance), creditLimit: Number(r.credit_limit) } : null;
}
