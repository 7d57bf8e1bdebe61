/**
 * Keyset pages of the live chat configuration lists (canned samples, macros, holidays, agents):
 * the page parameters of api/lib/page.ts, and a cursor whose last position is the row's uuid
 * (checked here, so a forged cursor is a 422 on `cursor`, never a failed SQL cast).
 */
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { decodeCursor, pageInput, type Cursor } from "../lib/page";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";

const pageSchema = z.object(pageInput);

/** `?cursor=&limit=` read: the limit, and the sort key to continue after (null on the first page). */
export function livePage(query: unknown, shape: Array<"string" | "number" | "nullable-string">, check?: (key: Cursor) => boolean): { after: Cursor | null; limit: number } {
  const { cursor, limit } = validate(pageSchema, query ?? {});
  const after = decodeCursor(cursor, [...shape, "string"]);
  if (after && (!UUID.test(String(after[after.length - 1])) || (check && !check(after)))) {
    throw new AppError("VALIDATION", { fields: { cursor: ["validation.invalid"] } });
  }
  return { after, limit };
}
