/**
 * Every customer product the actor may see, across customers (issue 23, ADR 064): GET
 * /api/admin/products and the /admin/products screens. The platform's staff see every customer's;
 * a reseller's owner or admin only its own customers' (another's product is 404); anyone else 403
 * (api/customers/customers.ts `reach`). Hiring stays ./products.ts `hireProduct` (staff only).
 */
import { reach, SCOPE_SQL } from "../customers/customers";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { COLUMNS, productOut, type ProductRow } from "./products";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type Row = ProductRow & { customer_name: string; created_key: string };
const outWithCustomer = (p: Row) => ({ ...productOut(p), customer_name: p.customer_name });

const listSchema = z.object({
  customer_id: z
    .string()
    .uuid("validation.invalid")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  status: z
    .enum(["active", "suspended", "cancelled"], { error: "validation.option" })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  ...pageInput,
});

/** Products newest first (created_at to the microsecond, then id), filtered by customer and status. */
export async function listAllProducts(ctx: SignedInCtx, input: unknown = {}) {
  const { parent } = reach(ctx);
  const q = validate(listSchema, input ?? {});
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const found = await rows<Row>(
    `SELECT ${COLUMNS}, a.name AS customer_name, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
       FROM customer_products p JOIN accounts a ON a.id = p.account_id
      WHERE ${SCOPE_SQL("$1")} AND ($2::uuid IS NULL OR p.account_id = $2::uuid) AND ($3::text IS NULL OR p.status = $3)
        AND ($4::timestamptz IS NULL OR (p.created_at, p.id) < ($4::timestamptz, $5::uuid))
      ORDER BY p.created_at DESC, p.id DESC LIMIT $6`,
    [parent, q.customer_id ?? null, q.status ?? null, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  return keyset(found, q.limit, (p) => [p.created_key, p.id], outWithCustomer);
}

/** One product of a customer in reach, by its id alone. */
export async function getAnyProduct(ctx: SignedInCtx, id: string) {
  const { parent } = reach(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const p = await row<Row>(
    `SELECT ${COLUMNS}, a.name AS customer_name, '' AS created_key FROM customer_products p JOIN accounts a ON a.id = p.account_id WHERE p.id = $2 AND ${SCOPE_SQL("$1")}`,
    [parent, id],
  );
  if (!p) throw new AppError("NOT_FOUND");
  return { data: outWithCustomer(p) };
}
