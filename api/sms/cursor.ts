/**
 * Cursors of this area's keyset lists (api/lib/page.ts): the sort key of the last row shown,
 * checked beyond its JSON shape so nothing reaches SQL that a cast would refuse (a bad cursor is
 * 422 on `cursor`, never a 500).
 */
import { AppError } from "../lib/errors";
import { decodeCursor } from "../lib/page";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A position as SQL writes it: to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'). */
export const POSITION_SQL = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const bad = () => new AppError("VALIDATION", { fields: { cursor: ["validation.invalid"] } });

/** [created_at position, id] of a list ordered by (created_at, id). */
export function timeIdCursor(raw: string | undefined): [string, string] | null {
  const key = decodeCursor(raw, ["string", "string"]);
  if (!key) return null;
  const [at, id] = key as [string, string];
  if (!POSITION.test(at) || Number.isNaN(Date.parse(at)) || !UUID.test(id)) throw bad();
  return [at, id];
}

/** [text, id] of a list ordered by a text column then id. */
export function textIdCursor(raw: string | undefined): [string, string] | null {
  const key = decodeCursor(raw, ["string", "string"]);
  if (!key) return null;
  const [text, id] = key as [string, string];
  if (!UUID.test(id)) throw bad();
  return [text, id];
}
