/**
 * The one list style of the API (issue 12 item 14): every list answers `{data, next_cursor}` and
 * pages by keyset. `?limit=` is the page size (1..MAX_LIMIT, DEFAULT_LIMIT when absent) and
 * `?cursor=` is the `next_cursor` of the previous answer (opaque: base64url JSON of the last row's
 * sort key), so page 1,000 costs what page 1 costs and rows written meanwhile never shift a page.
 * `next_cursor` is null on the last page.
 *
 * A use-case pages with `keyset()`: it asks SQL for `limit + 1` rows after the cursor's key (a
 * `WHERE (sort, id) < ($x, $y)` that the list's index serves) and hands the rows here. A list
 * bounded by a business rule (departments, senders, a day's chart) answers one page with
 * `next_cursor: null` and documents its bound.
 */
import { AppError } from "./errors";
import { intParam } from "./validate";
import { z } from "./zod";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** The same parameters for a use-case's zod schema: `limit` an integer in range, `cursor` a string. */
export const pageInput = {
  cursor: z.string().max(1000).optional(),
  limit: intParam(1, MAX_LIMIT, DEFAULT_LIMIT),
};

export type Cursor = Array<string | number | null>;

export function encodeCursor(key: Cursor): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

/**
 * The sort key a cursor carries, checked against its expected shape (one kind per position:
 * "string", "number", or "nullable-string"); anything else is a 422 on `cursor`, never SQL input.
 */
export function decodeCursor(raw: string | undefined, shape: Array<"string" | "number" | "nullable-string">): Cursor | null {
  if (raw === undefined || raw === "") return null;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    key = undefined;
  }
  const ok =
    Array.isArray(key) &&
    key.length === shape.length &&
    key.every((v, i) =>
      shape[i] === "number"
        ? typeof v === "number" && Number.isFinite(v)
        : shape[i] === "nullable-string"
          ? v === null || (typeof v === "string" && v.length <= 200)
          : typeof v === "string" && v.length <= 200,
    );
  if (!ok) throw new AppError("VALIDATION", { fields: { cursor: ["validation.invalid"] } });
  return key as Cursor;
}

/**
 * One page from `limit + 1` rows fetched after the cursor: the first `limit` rows, and the cursor
 * of the last one when there was one more.
 */
export function keyset<T, R = T>(rows: T[], limit: number, keyOf: (row: T) => Cursor, map?: (row: T) => R): { data: R[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { data: (map ? page.map(map) : page) as R[], next_cursor: more && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

/** A list bounded by a business rule: all of it, as one page. */
export const onePage = <T>(data: T[]) => ({ data, next_cursor: null as string | null });
