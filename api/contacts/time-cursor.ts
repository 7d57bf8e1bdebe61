/**
 * Keyset cursors over `(created_at, id)` (or another text key and a uuid) for the lists of the
 * contacts, imports and moderation routes. The cursor is api/lib/page.ts's (base64url JSON of the
 * last row's key); the timestamp travels as text with its microseconds (`tsText`), so the next
 * page starts exactly after the last row even when rows share a millisecond.
 */
import { AppError } from "../lib/errors";
import { type Cursor, decodeCursor } from "../lib/page";

/** SQL: a timestamptz column as the exact UTC text a cursor carries (microseconds). */
export const tsText = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalid = (field: string) => new AppError("VALIDATION", { fields: { [field]: ["validation.invalid"] } });

/**
 * The `[created_at, id]` of a cursor, or null without one; anything else is a 422 on `field`.
 * `legacy` also reads the older contacts cursor (base64url "ts|id"), still in the web's links.
 */
export function timeCursor(raw: string | undefined, field = "cursor", legacy = false): [string, string] | null {
  if (raw === undefined || raw === "") return null;
  if (legacy) {
    const [ts, id, extra] = Buffer.from(raw, "base64url").toString("utf8").split("|");
    if (extra === undefined && ts && id && TS.test(ts) && UUID.test(id)) return [ts, id];
  }
  let key: Cursor | null;
  try {
    key = decodeCursor(raw, ["string", "string"]);
  } catch {
    throw invalid(field);
  }
  const [ts, id] = key as [string, string];
  if (!TS.test(ts) || !UUID.test(id)) throw invalid(field);
  return [ts, id];
}

/** The `[text, id]` of a cursor over a text sort key and a uuid (a name, then the id); 422 on `field` otherwise. */
export function textCursor(raw: string | undefined, field = "cursor"): [string, string] | null {
  if (raw === undefined || raw === "") return null;
  let key: Cursor | null;
  try {
    key = decodeCursor(raw, ["string", "string"]);
  } catch {
    throw invalid(field);
  }
  const [text, id] = key as [string, string];
  if (!UUID.test(id)) throw invalid(field);
  return [text, id];
}
