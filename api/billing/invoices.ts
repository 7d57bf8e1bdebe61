/**
 * Invoices of an account (issue 18, ADR 043): the top-up of a prepaid balance (POST /api/invoices
 * {amount}, the screen /new-invoice) and the list and detail of its invoices.
 *
 * A top-up is an invoice created at once, `pending`, due in TOPUP_DUE_DAYS, and charged at the
 * payment provider as a Pix charge whose BR Code ("copia e cola") and pay page are kept on it.
 * Between TOPUP_MIN and TOPUP_MAX minor units (R$ 10,00 to R$ 50.000,00), in BRL (Pix). If the
 * provider does not answer, nothing is kept (the invoice is written only with its charge). The
 * provider's signed confirmation (./payments.ts) makes it paid and credits the ledger once.
 * Who: whoever reaches /new-invoice (owners, admins, billing…), of their own account.
 */
import { randomBytes } from "node:crypto";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { recordAudit } from "../audit/record";
import { can } from "../policy/policy";
import { defaultPaymentProvider } from "./payment-provider";

export const TOPUP_MIN = 1_000;
export const TOPUP_MAX = 5_000_000;
export const TOPUP_DUE_DAYS = 3;

export type InvoiceRow = {
  id: string;
  kind: "topup" | "cycle";
  status: "pending" | "paid" | "fail";
  amount: number;
  currency: string;
  due_at: Date;
  paid_at: Date | null;
  created_at: Date;
  txid: string;
  pix_payload: string | null;
  pay_url: string | null;
  period_start: Date | null;
  period_end: Date | null;
};

const COLUMNS = `id, kind, status, amount, btrim(currency) AS currency, due_at, paid_at, created_at, txid, pix_payload, pay_url, period_start, period_end`;

/** What a cycle invoice charges (ADR 044): one line per kind of usage (`item`: message, refund, plan_fee, agent), how many postings and their amount (a refund's is negative). */
export type InvoiceLine = { item: string; quantity: number; amount: number };

/** A payable invoice: pending, or a cycle's that failed for being overdue (paying it reactivates the account, ADR 044). */
const payable = (i: InvoiceRow) => i.status === "pending" || (i.status === "fail" && i.kind === "cycle");

/** An invoice as the API answers it: money in minor units, times in ISO 8601 (UTC), the Pix charge while it can be paid. */
export function invoiceOut(i: InvoiceRow) {
  return {
    id: i.id,
    kind: i.kind,
    status: i.status,
    amount: Number(i.amount),
    currency: i.currency,
    due_at: new Date(i.due_at).toISOString(),
    paid_at: i.paid_at ? new Date(i.paid_at).toISOString() : null,
    created_at: new Date(i.created_at).toISOString(),
    period_start: i.period_start ? new Date(i.period_start).toISOString() : null,
    period_end: i.period_end ? new Date(i.period_end).toISOString() : null,
    pix: payable(i) && i.pix_payload ? { payload: i.pix_payload, txid: i.txid, pay_url: i.pay_url } : null,
  };
}

const money = (centavos: number) => `R$ ${(centavos / 100).toLocaleString("pt-BR", { minimumFractionDigits: 2 })}`;
const topupSchema = z.object({ amount: z.number().int("validation.integer") });

function assertPays(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/new-invoice")) throw new AppError("FORBIDDEN");
}

/** A Pix txid: 25 letters and digits, unique (the provider and the payer's bank see it). */
const newTxid = () => `MSG${randomBytes(11).toString("hex").toUpperCase()}`;

export async function createTopup(ctx: SignedInCtx, input: unknown) {
  assertPays(ctx);
  const { amount } = validate(topupSchema, input);
  if (amount < TOPUP_MIN) throw new AppError("VALIDATION", { fields: { amount: [`billing.errors.topupMin::${money(TOPUP_MIN)}`] } });
  if (amount > TOPUP_MAX) throw new AppError("VALIDATION", { fields: { amount: [`billing.errors.topupMax::${money(TOPUP_MAX)}`] } });
  const accountId = ctx.actor.accountId;
  const account = await row<{ currency: string; name: string }>(`SELECT btrim(currency) AS currency, name FROM accounts WHERE id = $1`, [accountId]);
  if (!account) throw new AppError("NOT_FOUND");
  if (account.currency !== "BRL") throw new AppError("VALIDATION", { fields: { amount: ["billing.errors.pixBrlOnly"] } });
  const provider = defaultPaymentProvider();
  const txid = newTxid();
  const dueAt = new Date(Date.now() + TOPUP_DUE_DAYS * 86_400_000);
  // The charge first: an invoice exists only with its way to be paid.
  const charge = await provider.createCharge({ txid, amount, currency: "BRL", description: `Recarga ${account.name}`.slice(0, 60), dueAt });
  const created = await row<InvoiceRow>(
    `INSERT INTO invoices (account_id, kind, amount, currency, due_at, provider, provider_charge_id, txid, pix_payload, pay_url, created_by)
     VALUES ($1, 'topup', $2, 'BRL', $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [accountId, amount, dueAt, provider.name, charge.chargeId, txid, charge.pixPayload, charge.payUrl, ctx.actor.userId],
  );
  await recordAudit(ctx, "billing.topup_created", { meta: { invoice_id: created!.id, amount, currency: "BRL" } });
  return { data: invoiceOut(created!) };
}

const listSchema = z.object({ status: z.enum(["pending", "paid", "fail"]).optional(), ...pageInput });

export async function listInvoices(ctx: SignedInCtx, input: unknown) {
  assertPays(ctx);
  const q = validate(listSchema, input);
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const found = await rows<InvoiceRow>(
    `SELECT ${COLUMNS} FROM invoices WHERE account_id = $1 AND ($2::text IS NULL OR status = $2)
       AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
     ORDER BY created_at DESC, id DESC LIMIT $5`,
    [ctx.actor.accountId, q.status ?? null, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  return keyset(found, q.limit, (i) => [new Date(i.created_at).toISOString(), i.id], invoiceOut);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getInvoice(ctx: SignedInCtx, id: string) {
  assertPays(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const found = await row<InvoiceRow>(`SELECT ${COLUMNS} FROM invoices WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!found) throw new AppError("NOT_FOUND");
  const lines = await rows<{ description: string; quantity: number; amount: string }>(
    `SELECT description, quantity, amount FROM invoice_lines WHERE invoice_id = $1 AND account_id = $2 ORDER BY position`,
    [id, ctx.actor.accountId],
  );
  return {
    data: {
      ...invoiceOut(found),
      // A top-up is its one line; a cycle's are stored with it.
      lines: (found.kind === "topup"
        ? [{ item: "topup", quantity: 1, amount: Number(found.amount) }]
        : lines.map((l) => ({ item: l.description.replace(/^billing\.lines\./, ""), quantity: Number(l.quantity), amount: Number(l.amount) }))) satisfies InvoiceLine[],
    },
  };
}
