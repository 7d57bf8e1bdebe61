/** Accounts: a bare account row (without an owner) and changes to an existing one (balance, type, status). */
import { type Query, insertRow, runDb, sql, updateRows, given } from "./sql";

export type AccountFields = {
  name?: string;
  type?: "customer" | "reseller" | "platform";
  status?: "active" | "inactive" | "suspended";
  currency?: string;
  /** In the currency's smallest unit; kept in the account's account_balances row (ADR 027). */
  balance?: number;
  creditLimit?: number;
};

/**
 * An account with no one in it (a widget's or a sender's tenant). Tests that need a person in
 * the account register one through the API instead (registerPerson in tests/support/api.ts).
 */
export async function makeAccount(fields: AccountFields = {}, q: Query = runDb): Promise<string> {
  const { balance, ...columns } = fields;
  const name = fields.name ?? `Conta ${Math.random().toString(36).slice(2, 8)}`;
  const row = await insertRow("accounts", { ...given(columns), name, authToken: sql("md5(random()::text)") }, "id", q);
  if (balance !== undefined) await setAccount(row.id, { balance }, q);
  return row.id;
}

/** Sets columns of an account, e.g. setAccount(id, { balance: 100_000 }) (the balance in its own row). */
export async function setAccount(accountId: string, fields: AccountFields, q: Query = runDb): Promise<void> {
  const { balance, ...columns } = given(fields);
  if (Object.keys(columns).length) await updateRows("accounts", { id: accountId }, columns, "id", q);
  if (balance !== undefined) await updateRows("account_balances", { accountId }, { balance }, "account_id", q);
}

/** The account's balance now (minor units). */
export async function balanceOf(accountId: string, q: Query = runDb): Promise<number> {
  const [row] = await q<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]);
  return Number(row.balance);
}

/** A whitelabel (a reseller's brand on its own host), optionally owned by an account. */
export async function makeWhitelabel(fields: { name: string; host: string; color?: string; accountId?: string }, q: Query = runDb): Promise<string> {
  return (await insertRow("whitelabels", { color: "#000000", ...given(fields) }, "id", q)).id;
}
