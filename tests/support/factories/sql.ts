/**
 * The two statements every factory is built from: insert rows and update rows of one table,
 * through the test database connection (tests/support/db.ts) or a private stack's (`stack.query`).
 * Option keys are camelCase and map to snake_case columns; an `undefined` value is left out (the
 * column keeps its default, or its value). `sql("now()")` passes an expression the database
 * computes, for times that must be on the database's clock.
 */
import { query } from "../db";

/** Where a factory writes: the run's database by default; a private stack passes `stack.query`. */
export type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
export const runDb: Query = query;

/** A SQL expression written into the statement as is (never user input: tests only). */
export class SqlExpression {
  constructor(readonly text: string) {}
}
export const sql = (text: string) => new SqlExpression(text);

/** The current date in São Paulo, as the platform's live opening hours and holidays read it. */
export const todayInSaoPaulo = sql("(now() AT TIME ZONE 'America/Sao_Paulo')::date");

/** `interval` ago on the database's clock, e.g. ago("25 hours"). */
export const ago = (interval: string) => sql(`now() - interval '${interval.replace(/'/g, "")}'`);

export type Fields = Record<string, unknown>;

/** The fields that have a value, so `{ ...defaults, ...given(fields) }` keeps a default a caller left undefined. */
export function given<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const column = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Renders one value as a parameter ($n) or, for `sql(...)`, as its expression. */
function rendered(value: unknown, params: unknown[]) {
  if (value instanceof SqlExpression) return value.text;
  params.push(value);
  return `$${params.length}`;
}

const present = (fields: Fields) => Object.keys(fields).filter((k) => fields[k] !== undefined);

/**
 * INSERT of one or more rows (columns: the union of the given keys; a row without one gets the
 * column's DEFAULT). `onConflict`: a conflict target such as "(account_id)"; the listed columns are
 * then updated instead (none listed: the row is skipped, and not returned).
 */
export async function insertRows<T = { id: string }>(
  table: string,
  rows: Fields[],
  opts: { returning?: string; onConflict?: { target: string; update: string[] } } = {},
  q: Query = runDb,
): Promise<T[]> {
  const keys = [...new Set(rows.flatMap(present))];
  const params: unknown[] = [];
  const values = rows.map((row) => `(${keys.map((k) => (row[k] === undefined ? "DEFAULT" : rendered(row[k], params))).join(", ")})`);
  const conflict = !opts.onConflict
    ? ""
    : opts.onConflict.update.length === 0
      ? ` ON CONFLICT ${opts.onConflict.target} DO NOTHING`
      : ` ON CONFLICT ${opts.onConflict.target} DO UPDATE SET ${opts.onConflict.update.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}`;
  const returning = opts.returning === "" ? "" : ` RETURNING ${opts.returning ?? "id"}`;
  return q<T>(`INSERT INTO ${table} (${keys.map(column).join(", ")}) VALUES ${values.join(", ")}${conflict}${returning}`, params);
}

export async function insertRow<T = { id: string }>(table: string, row: Fields, returning = "id", q: Query = runDb): Promise<T> {
  const [created] = await insertRows<T>(table, [row], { returning }, q);
  return created;
}

/**
 * UPDATE `table` SET the given fields WHERE every `where` key equals its value (an array value
 * means "any of"). Returns the updated rows' `returning` columns (id by default).
 */
export async function updateRows<T = { id: string }>(table: string, where: Fields, set: Fields, returning = "id", q: Query = runDb): Promise<T[]> {
  const params: unknown[] = [];
  const assignments = present(set).map((k) => `${column(k)} = ${rendered(set[k], params)}`);
  if (assignments.length === 0) throw new Error(`updateRows(${table}): nothing to set`);
  const conditions = present(where).map((k) => (Array.isArray(where[k]) ? `${column(k)} = ANY(${rendered(where[k], params)})` : `${column(k)} = ${rendered(where[k], params)}`));
  if (conditions.length === 0) throw new Error(`updateRows(${table}): no condition`);
  return q<T>(`UPDATE ${table} SET ${assignments.join(", ")} WHERE ${conditions.join(" AND ")} RETURNING ${returning}`, params);
}
