/**
 * Invoices across customers for the staff (issue 23, ADR 064): GET /api/admin/invoices, GET
 * /api/customers/{id}/invoices and the /admin/invoices screen (with one invoice's lines when a row
 * is opened). The platform's staff see every customer's; a reseller's owner or admin its own
 * customers' (another's is 404); anyone else 403 (api/customers/customers.ts `reach`). Read only:
 * money moves through the ledger when an invoice is paid (./payments.ts), never here.
 */
import { customerInReach, reach, SCOPE_SQL } from "../customers/customers";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { type InvoiceLine, type InvoiceRow, invoiceOut } from "./invoices";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COLUMNS = `i.id, i.kind, i.status, i.amount, btrim(i.currency) AS currency, i.due_at, i.paid_at, i.created_at, i.txid, i.pix_payload, i.pay_url, i.period_start, i.period_end`;

const blank = <T extends z.ZodType>(s: T) => s.optional().or(z.literal("").transform(() => undefined));
/** A São Paulo calendar day, YYYY-MM-DD. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "validation.date");

const listSchema = z
  .object({
    status: blank(z.enum(["pending", "paid", "fail"], { error: "validation.option" })),
    customer_id: blank(z.string().uuid("validation.invalid")),
    due_from: blank(day),
    due_to: blank(day),
    ...pageInput,
  })
  .superRefine((q, ctx) => {
    if (q.due_from && q.due_to && q.due_from > q.due_to) ctx.addIssue({ code: "custom", path: ["due_to"], message: "adminCatalogue.errors.dueRange" });
  });

type Row = InvoiceRow & { account_id: string; customer_name: string; due_key: string };
const out = (i: Row) => ({ ...invoiceOut(i), account_id: i.account_id, customer_name: i.customer_name });

async function page(parent: string | null, customerId: string | null, input: unknown) {
  const q = validate(listSchema, input ?? {});
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const found = await rows<Row>(
    `SELECT ${COLUMNS}, i.account_id, a.name AS customer_name, to_char(i.due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS due_key
       FROM invoices i JOIN accounts a ON a.id = i.account_id
      WHERE ${SCOPE_SQL("$1")} AND ($2::uuid IS NULL OR i.account_id = $2::uuid) AND ($3::text IS NULL OR i.status = $3)
        AND ($4::date IS NULL OR i.due_at >= ($4::date::timestamp AT TIME ZONE 'America/Sao_Paulo'))
        AND ($5::date IS NULL OR i.due_at < (($5::date + 1)::timestamp AT TIME ZONE 'America/Sao_Paulo'))
        AND ($6::timestamptz IS NULL OR (i.due_at, i.id) < ($6::timestamptz, $7::uuid))
      ORDER BY i.due_at DESC, i.id DESC LIMIT $8`,
    [parent, customerId ?? q.customer_id ?? null, q.status ?? null, q.due_from ?? null, q.due_to ?? null, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  return keyset(found, q.limit, (i) => [i.due_key, i.id], out);
}

/** Invoices of the customers in reach, latest due date first; filters status, customer, due date range (São Paulo days, both included). */
export async function listAdminInvoices(ctx: SignedInCtx, input: unknown = {}) {
  const { parent } = reach(ctx);
  return page(parent, null, input);
}

/** One customer's invoices (404 for a customer out of reach). */
export async function listCustomerInvoices(ctx: SignedInCtx, customerId: string, input: unknown = {}) {
  const { parent } = reach(ctx);
  const c = await customerInReach(ctx, customerId);
  return page(parent, c.id, input);
}

/** One invoice of a customer in reach, with its lines (as the customer's own GET /api/invoices/{id}). */
export async function getAdminInvoice(ctx: SignedInCtx, id: string) {
  const { parent } = reach(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const found = await row<Row>(
    `SELECT ${COLUMNS}, i.account_id, a.name AS customer_name, '' AS due_key FROM invoices i JOIN accounts a ON a.id = i.account_id WHERE i.id = $2 AND ${SCOPE_SQL("$1")}`,
    [parent, id],
  );
  if (!found) throw new AppError("NOT_FOUND");
  const lines = await rows<{ description: string; quantity: number; amount: string }>(
    `SELECT description, quantity, amount FROM invoice_lines WHERE invoice_id = $1 AND account_id = $2 ORDER BY position`,
    [id, found.account_id],
  );
  return {
    data: {
      ...out(found),
      lines: (found.kind === "topup"
        ? [{ item: "topup", quantity: 1, amount: Number(found.amount) }]
        : lines.map((l) => ({ item: l.description.replace(/^billing\.lines\./, ""), quantity: Number(l.quantity), amount: Number(l.amount) }))) satisfies InvoiceLine[],
    },
  };
}
