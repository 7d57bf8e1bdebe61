/**
 * Set-based SQL for use-cases (ADR 025): one typed way to run a statement over the process's
 * Sequelize pool. Values always travel as bind parameters ($1, $2…), never in the text; a
 * tenant-owned table is always filtered by its account_id. The row type is the query's own shape
 * (snake_case columns as PostgreSQL names them), written beside the query.
 */
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "../../models/db";
import { onReader } from "./read-replica";

export type SqlOptions = { transaction?: Transaction | null };

/** The rows of a SELECT, or of an INSERT/UPDATE/DELETE … RETURNING. */
export function rows<T extends object = Record<string, unknown>>(sql: string, bind?: unknown[], opts: SqlOptions = {}): Promise<T[]> {
  return sequelize().query<T>(sql, { bind, type: QueryTypes.SELECT, transaction: opts.transaction ?? undefined });
}

/** The first row, or null when there is none. */
export async function row<T extends object = Record<string, unknown>>(sql: string, bind?: unknown[], opts: SqlOptions = {}): Promise<T | null> {
  return (await rows<T>(sql, bind, opts))[0] ?? null;
}

/**
 * A statement whose rows nobody reads; answers how many rows it touched. Sequelize reports the
 * driver's row count only for its UPDATE query type (for any statement text), hence the type.
 */
export async function exec(sql: string, bind?: unknown[], opts: SqlOptions = {}): Promise<number> {
  const [, affected] = await sequelize().query(sql, { bind, type: QueryTypes.UPDATE, transaction: opts.transaction ?? undefined });
  return affected;
}

/**
 * `rows` for a read that tolerates a few seconds of lag (ADR 030): on the read replica when
 * DATABASE_REPLICA_URL is set and healthy, else on the primary (api/lib/read-replica.ts). No
 * transaction option, on purpose: a transaction's reads belong to the primary.
 */
export function replicaRows<T extends object = Record<string, unknown>>(sql: string, bind?: unknown[]): Promise<T[]> {
  return onReader((db) => db.query<T>(sql, { bind, type: QueryTypes.SELECT }));
}

/** `row` on the lag-tolerant reader (see replicaRows). */
export async function replicaRow<T extends object = Record<string, unknown>>(sql: string, bind?: unknown[]): Promise<T | null> {
  return (await replicaRows<T>(sql, bind))[0] ?? null;
}

/** A text matched literally inside LIKE/ILIKE: its backslashes, % and _ escaped (LIKE's default escape character is the backslash). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
