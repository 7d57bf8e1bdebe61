/**
 * The rooms' private SQL helpers: positional binds, typed rows. Kept in this one file for the room
 * modules only; a shared api/lib/sql.ts is being written on another branch (issue 13) and these
 * go when it lands.
 */
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "../../../models";

export const db = () => sequelize();
export type Q = { transaction?: Transaction };

/** SELECT (or … RETURNING *) rows. */
export async function rows<T extends object>(sql: string, bind: unknown[], opts: Q = {}): Promise<T[]> {
  return db().query<T>(sql, { bind, type: QueryTypes.SELECT, transaction: opts.transaction });
}

/** The first row, or undefined. */
export async function one<T extends object>(sql: string, bind: unknown[], opts: Q = {}): Promise<T | undefined> {
  return (await rows<T>(sql, bind, opts))[0];
}
