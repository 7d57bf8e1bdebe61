/**
 * Every short code of the platform with its customer (issue 23, ADR 064): the /admin/short-codes
 * screen. The platform's staff see all (unassigned ones too, without a customer); a reseller's owner or admin its own customers' (reach, as
 * the customers list); anyone else 403. Read only: assigning and editing are the customer's
 * short-code screens (/admin/customers/{id}/short-codes/…).
 */
import { reach } from "../customers/customers";
import type { SignedInCtx } from "../lib/context";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { escapeLike, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";

const blank = <T extends z.ZodType>(s: T) => s.optional().or(z.literal("").transform(() => undefined));
const listSchema = z.object({
  q: blank(z.string().trim().max(40, "validation.maxLength::40")),
  customer_id: blank(z.string().uuid("validation.invalid")),
  status: blank(z.enum(["active", "inactive"], { error: "validation.option" })),
  ...pageInput,
});

type Row = { id: string; number: string; nickname: string; deliverability: string[]; status: string; account_id: string | null; customer_name: string | null; created_at: Date };

/** Short codes by number (then id), keyset paged; `q` finds a part of the number or the nickname. */
export async function listAllShortCodes(ctx: SignedInCtx, input: unknown = {}) {
  const { parent } = reach(ctx);
  const q = validate(listSchema, input ?? {});
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const found = await rows<Row>(
    `SELECT s.id, s.number, s.nickname, s.deliverability, s.status, s.account_id, a.name AS customer_name, s.created_at
       FROM short_codes s LEFT JOIN accounts a ON a.id = s.account_id
      WHERE ($1::uuid IS NULL OR (a.type IN ('customer', 'reseller') AND a.parent_account_id = $1::uuid)) AND ($2::text IS NULL OR s.number ILIKE $2 ESCAPE '\\' OR s.nickname ILIKE $2 ESCAPE '\\')
        AND ($3::uuid IS NULL OR s.account_id = $3::uuid) AND ($4::text IS NULL OR s.status = $4)
        AND ($5::text IS NULL OR (s.number, s.id) > ($5::text, $6::uuid))
      ORDER BY s.number, s.id LIMIT $7`,
    [parent, q.q ? `%${escapeLike(q.q)}%` : null, q.customer_id ?? null, q.status ?? null, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  return keyset(
    found,
    q.limit,
    (s) => [s.number, s.id],
    (s) => ({ ...s, created_at: new Date(s.created_at).toISOString() }),
  );
}
