/**
 * Named prepared statements on the process's one Sequelize pool, for the few fixed texts on the hot
 * paths: the reads every authenticated request makes (the actor, the acting account), the
 * receipts' flush, and the dispatcher's claim and `sent` write (once per message sent). PostgreSQL
 * parses and plans a named statement once per connection instead of on every call (the planning
 * of these cost more than their execution), and the call skips Sequelize's query object, hooks and
 * retry wrapper. Every other statement goes through api/lib/sql.ts (ADR 025). Values always travel
 * as parameters ($1, $2…), never in the text.
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models/db";

/** A fixed statement: its name is unique in the process and its text never changes. */
export type PreparedStatement = { name: string; text: string };

type PgClient = { query<T>(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }> };
/** The part of Sequelize's connection manager this uses (a pg Client from the pool, given back after). */
type ConnectionPool = { getConnection(options: { type: "SELECT" }): Promise<PgClient>; releaseConnection(client: PgClient): void };

export function prepared(name: string, text: string): PreparedStatement {
  return { name, text };
}

/**
 * Run first in a transaction whose prepared statements should use their one generic plan: with
 * an `id = ANY($1)` array PostgreSQL keeps choosing a custom plan, planned again on every call, and
 * over every month's partition of messages (13 indexes each) planning costs more than running.
 */
export const FORCE_GENERIC_PLANS = prepared("force_generic_plans", "SET LOCAL plan_cache_mode = force_generic_plan");

/** The rows of prepared statement(s) run in one transaction of their own, on their generic plans (FORCE_GENERIC_PLANS). */
export async function preparedGeneric<T>(statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  return sequelize().transaction(async (transaction) => {
    await preparedRowsIn(transaction, FORCE_GENERIC_PLANS, []);
    return preparedRowsIn<T>(transaction, statement, values);
  });
}

/** The rows of a prepared SELECT. */
export async function preparedRows<T>(statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const pool = sequelize().connectionManager as unknown as ConnectionPool;
  const client = await pool.getConnection({ type: "SELECT" });
  try {
    return (await client.query<T>({ name: statement.name, text: statement.text, values })).rows;
  } finally {
    // A client whose connection failed is marked invalid by Sequelize and dropped by the pool.
    pool.releaseConnection(client);
  }
}

/**
 * The rows of a prepared statement run inside `transaction` (on its own connection, so it is part of
 * it): for the statements a hot path runs once per batch in a transaction (the receipts' lock,
 * event insert and update), whose planning cost more than their execution.
 */
export async function preparedRowsIn<T>(transaction: Transaction, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const client = (transaction as unknown as { connection?: PgClient }).connection;
  if (!client) throw new Error(`prepared statement ${statement.name}: the transaction has no connection`);
  return (await client.query<T>({ name: statement.name, text: statement.text, values })).rows;
}
