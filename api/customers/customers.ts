/**
 * The staff's customers (issue 18, ADR 046): the list with search (GET /api/customers, the screen
 * /admin/customers), one customer's figures (GET /api/customers/{id}, /admin/customers/{id}) and a
 * manual adjustment of its balance with a reason (POST /api/customers/{id}/adjustments).
 *
 * Who: the platform's staff (owner or admin of the platform account) sees every customer and
 * reseller account and adjusts; a reseller's owner or admin sees only its own customers (accounts
 * whose parent is the reseller), read-only. Anyone else: 403. A customer out of one's reach is 404
 * (its existence is not told).
 *
 * An adjustment is one `adjustment` posting of the ledger (ADR 042) through
 * api/accounts/balance.ts adjustBalance, `by` the staff person and `reason` their words: a credit
 * (amount > 0) or a debit (amount < 0) that always applies, even below zero and past the credit
 * limit (correcting is the staff's job). |amount| is at most ADJUSTMENT_MAX (R$ 100.000,00). An
 * `Idempotency-Key` makes a retry answer the first adjustment instead of applying it again.
 */
import { sequelize } from "../../models/db";
import { adjustBalance } from "../accounts/balance";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { escapeLike, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can, isPlatformStaff } from "../policy/policy";

/** The largest adjustment either way, in minor units: R$ 100.000,00. */
export const ADJUSTMENT_MAX = 10_000_000;
export const REASON_MIN = 3;
export const REASON_MAX = 500;
/** An Idempotency-Key's length (kept on the posting's reference, at most 200 characters). */
const KEY_MAX = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whose customers the actor sees: every one (platform staff), a reseller's own, or none (FORBIDDEN). */
export function reach(ctx: SignedInCtx): { parent: string | null } {
  if (!can(ctx.actor, "/admin/customers")) throw new AppError("FORBIDDEN");
  if (isPlatformStaff(ctx.actor)) return { parent: null };
  if (ctx.actor.accountType === "reseller") return { parent: ctx.actor.accountId };
  throw new AppError("FORBIDDEN");
}

/** Whether the actor may adjust balances (the platform's staff); the screens ask it to show the form. */
export const canAdjust = (ctx: SignedInCtx) => can(ctx.actor, "/admin/customers") && isPlatformStaff(ctx.actor);

type PlanHeld = { id: string; service: string; name: string };
type CustomerRow = {
  id: string;
  name: string;
  type: "customer" | "reseller";
  status: "active" | "inactive" | "suspended";
  corporate_name: string;
  billing_email: string;
  currency: string;
  balance: string | number;
  credit_limit: string | number;
  parent_account_id: string | null;
  plans: PlanHeld[];
  created_at: Date;
};

const PLANS_SQL = `coalesce((SELECT json_agg(json_build_object('id', p.id, 'service', ap.service, 'name', p.name) ORDER BY ap.service)
    FROM account_plans ap JOIN plans p ON p.id = ap.plan_id
   WHERE ap.account_id = a.id AND ap.starts_at <= now() AND (ap.ends_at IS NULL OR ap.ends_at > now())), '[]'::json)`;
const CUSTOMER_COLUMNS = `a.id, a.name, a.corporate_name, a.billing_email, a.type, a.status, btrim(a.currency) AS currency, coalesce(b.balance, 0) AS balance, a.credit_limit,
  a.parent_account_id, a.created_at, ${PLANS_SQL} AS plans`;
/** The accounts that are customers of someone: never the platform itself nor a deleted one (ADR 063); a reseller's only its children. */
export const SCOPE_SQL = (parent: string) => `a.type IN ('customer', 'reseller') AND a.deleted_at IS NULL AND (${parent}::uuid IS NULL OR a.parent_account_id = ${parent}::uuid)`;

export function customerOut(c: CustomerRow) {
  const balance = Number(c.balance);
  const creditLimit = Number(c.credit_limit);
  return {
    id: c.id,
    name: c.name,
    corporate_name: c.corporate_name,
    billing_email: c.billing_email,
    type: c.type,
    status: c.status,
    currency: c.currency,
    balance,
    credit_limit: creditLimit,
    available: balance + creditLimit,
    parent_account_id: c.parent_account_id,
    plans: c.plans,
    created_at: new Date(c.created_at).toISOString(),
  };
}

const listSchema = z.object({ q: z.string().trim().max(100, "validation.maxLength::100").optional(), ...pageInput });

/** Customer accounts by name (then id), keyset paged; `q` finds a part of the name, case-insensitive (ILIKE; accents count), `%` and `_` literal. */
export async function listCustomers(ctx: SignedInCtx, input: unknown) {
  const { parent } = reach(ctx);
  const q = validate(listSchema, input);
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const found = await rows<CustomerRow>(
    `SELECT ${CUSTOMER_COLUMNS} FROM accounts a LEFT JOIN account_balances b ON b.account_id = a.id
      WHERE ${SCOPE_SQL("$1")} AND ($2::text IS NULL OR a.name ILIKE $2 ESCAPE '\\')
        AND ($3::text IS NULL OR (a.name, a.id) > ($3::text, $4::uuid))
      ORDER BY a.name, a.id LIMIT $5`,
    [parent, q.q ? `%${escapeLike(q.q)}%` : null, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  return keyset(found, q.limit, (c) => [c.name, c.id], customerOut);
}

/** A customer in the actor's reach (its id, name and currency); 404 for any other id, 403 for who reaches none (ADR 064's lists and plans). */
export async function customerInReach(ctx: SignedInCtx, id: string) {
  const { parent } = reach(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const found = await row<{ id: string; name: string; currency: string }>(
    `SELECT a.id, a.name, btrim(a.currency) AS currency FROM accounts a WHERE a.id = $2 AND ${SCOPE_SQL("$1")}`,
    [parent, id],
  );
  if (!found) throw new AppError("NOT_FOUND");
  return found;
}

/** One customer within the actor's reach (FORBIDDEN for who has none, NOT_FOUND outside it or deleted). */
export async function findCustomer(ctx: SignedInCtx, id: string) {
  const { parent } = reach(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const found = await row<CustomerRow & Record<"street" | "number" | "complement" | "district" | "city" | "province" | "postal_code", string | null>>(
    `SELECT ${CUSTOMER_COLUMNS}, a.street, a.number, a.complement, a.district, a.city, a.province, a.postal_code
       FROM accounts a LEFT JOIN account_balances b ON b.account_id = a.id WHERE a.id = $2 AND ${SCOPE_SQL("$1")}`,
    [parent, id],
  );
  if (!found) throw new AppError("NOT_FOUND");
  return found;
}

export type LedgerEntryOut = {
  id: string;
  posting: string;
  kind: string;
  amount: number;
  currency: string;
  reference: string | null;
  reason: string | null;
  created_by: string | null;
  created_by_email: string | null;
  created_at: string;
};

const ENTRY_COLUMNS = `e.id, e.posting, e.kind, e.amount, btrim(e.currency) AS currency, e.reference, e.reason, e.created_by, u.email AS created_by_email, e.created_at`;
type EntryRow = Omit<LedgerEntryOut, "amount" | "created_at" | "id"> & { id: string | number; amount: string | number; created_at: Date };
const entryOut = (e: EntryRow): LedgerEntryOut => ({ ...e, id: String(e.id), amount: Number(e.amount), created_at: new Date(e.created_at).toISOString() });

export const LAST_INVOICES = 10;
export const LAST_ENTRIES = 30;

/** One customer: its account, figures, plans, last invoices and last entries of its book (who and why). */
export async function getCustomer(ctx: SignedInCtx, id: string) {
  const c = await findCustomer(ctx, id);
  const [invoices, entries] = await Promise.all([
    rows<{ id: string; kind: string; status: string; amount: string; currency: string; due_at: Date; paid_at: Date | null; created_at: Date }>(
      `SELECT id, kind, status, amount, btrim(currency) AS currency, due_at, paid_at, created_at FROM invoices WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT ${LAST_INVOICES}`,
      [c.id],
    ),
    rows<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM ledger_entries e LEFT JOIN users u ON u.id = e.created_by
        WHERE e.account_id = $1 AND e.book = 'customer' ORDER BY e.created_at DESC, e.id DESC LIMIT ${LAST_ENTRIES}`,
      [c.id],
    ),
  ]);
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    data: {
      ...customerOut(c),
      address: {
        street: c.street,
        number: c.number,
        complement: c.complement,
        district: c.district,
        city: c.city,
        province: c.province,
        postal_code: c.postal_code,
      },
      invoices: invoices.map((i) => ({ ...i, amount: Number(i.amount), due_at: iso(i.due_at)!, paid_at: iso(i.paid_at), created_at: iso(i.created_at)! })),
      entries: entries.map(entryOut),
      can_adjust: canAdjust(ctx),
    },
  };
}

/** Reais without the symbol (a locale key's parameter has no spaces): "100.000,00". */
const reais = (centavos: number) => (centavos / 100).toLocaleString("pt-BR", { minimumFractionDigits: 2 });

export const adjustmentSchema = z.object({
  amount: z
    .number({ error: "validation.required" })
    .int("validation.integer")
    .refine((n) => n !== 0, "customers.errors.amountZero")
    .refine((n) => Math.abs(n) <= ADJUSTMENT_MAX, `customers.errors.amountMax::${reais(ADJUSTMENT_MAX)}`),
  reason: z.string({ error: "validation.required" }).trim().min(REASON_MIN, `validation.minLength::${REASON_MIN}`).max(REASON_MAX, `validation.maxLength::${REASON_MAX}`),
});

/**
 * Adjusts a customer's balance (platform staff only): one `adjustment` posting, the reason and the
 * person on both legs, an audit entry; answers the entry and the balance after it. With an
 * idempotency key, the same key again (same person, same customer) answers the first adjustment
 * (`replayed`) when amount and reason are the same, IDEMPOTENCY_CONFLICT when they are not.
 */
export async function adjustCustomerBalance(ctx: SignedInCtx, id: string, input: unknown, idempotencyKey?: string | null) {
  reach(ctx);
  if (!canAdjust(ctx)) throw new AppError("FORBIDDEN");
  const key = idempotencyKey?.trim() || null;
  if (key && (key.length > KEY_MAX || !/^[\x21-\x7e]+$/.test(key))) throw new AppError("VALIDATION", { fields: { idempotency_key: [`validation.maxLength::${KEY_MAX}`] } });
  const { amount, reason } = validate(adjustmentSchema, input);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const reference = key ? `idempotency:${key}` : null;
  return sequelize().transaction(async (transaction) => {
    // The balance row locked first: adjustments (and their keys) of one customer go one after the other.
    const customer = await row<{ id: string }>(
      `SELECT a.id FROM accounts a JOIN account_balances b ON b.account_id = a.id WHERE a.id = $1 AND a.type IN ('customer', 'reseller') AND a.deleted_at IS NULL FOR UPDATE OF b`,
      [id],
      { transaction },
    );
    if (!customer) throw new AppError("NOT_FOUND");
    const entryOf = (where: string, bind: unknown[]) =>
      row<EntryRow & { balance_after: string }>(
        `SELECT ${ENTRY_COLUMNS},
                (SELECT sum(x.amount) FROM ledger_entries x WHERE x.account_id = e.account_id AND x.book = 'customer' AND x.id <= e.id) AS balance_after
           FROM ledger_entries e LEFT JOIN users u ON u.id = e.created_by
          WHERE e.account_id = $1 AND e.book = 'customer' AND ${where} ORDER BY e.id DESC LIMIT 1`,
        bind,
        { transaction },
      );
    if (reference) {
      const first = await entryOf(`e.kind = 'adjustment' AND e.reference = $2 AND e.created_by = $3`, [id, reference, ctx.actor.userId]);
      if (first) {
        if (Number(first.amount) !== amount || first.reason !== reason) throw new AppError("IDEMPOTENCY_CONFLICT");
        return { data: { ...entryOut(first), balance_after: Number(first.balance_after) }, replayed: true };
      }
    }
    const balance = await adjustBalance(id, amount, transaction, { kind: "adjustment", reference, reason, by: ctx.actor.userId });
    if (balance === null) throw new AppError("NOT_FOUND");
    const entry = await entryOf(`e.kind = 'adjustment' AND e.created_by = $2`, [id, ctx.actor.userId]);
    await recordAudit({ ...ctx, transaction }, "billing.adjustment", {
      meta: { customer_id: id, posting: entry!.posting, amount, currency: entry!.currency, reason, balance_after: balance },
    });
    return { data: { ...entryOut(entry!), balance_after: balance }, replayed: false };
  });
}
