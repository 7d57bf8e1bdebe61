/**
 * The keyset cursor of the live lists (rooms, transcripts): a row's sort time and id. The time is
 * read as text with microseconds (a JS Date keeps milliseconds: a cursor built from one would repeat
 * or skip rows written in the same millisecond), and both parts are checked before they reach SQL.
 */
import { AppError } from "../lib/errors";
import { decodeCursor } from "../lib/page";

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `expr` (a timestamptz) as the cursor's exact text: UTC with microseconds. */
export const sortTime = (expr: string) => `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The [time, id] a `?cursor=` carries, or null without one; anything else is a 422 on `cursor`. */
export function timeIdCursor(raw: string | undefined | null): [string, string] | null {
  const key = decodeCursor(raw ?? undefined, ["string", "string"]);
  if (!key) return null;
  if (!TIME.test(String(key[0])) || !UUID.test(String(key[1]))) throw new AppError("VALIDATION", { fields: { cursor: ["validation.invalid"] } });
  return [String(key[0]), String(key[1])];
}
