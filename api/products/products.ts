/**
 * Products per customer (issue 18, ADR 048). Staff (the platform's, `isPlatformStaff`) hire a
 * product for a customer account — credits or unlimited messages of one channel per billing cycle,
 * at a price — edit and cancel it (POST /api/customers/{id}/products, GET/PUT/DELETE
 * /api/customers/{id}/products/{productId}; the /admin/customers/{id}/products… screens). The
 * account's owner, admin and finance see them (GET /api/customer/products, /customer/products).
 *
 * Money moves only through api/accounts/balance.ts with a `product` posting: hiring debits the
 * price (402 and nothing written when balance + credit limit do not cover it), each renewal
 * debits it again (`renewProducts`, the worker). Sends consume credits before the balance
 * (`claimUnits`, in the accept's transaction, the product row locked) and a covered message that
 * fails gives its units back (`returnUnits`).
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models/db";
import { debitBalance } from "../accounts/balance";
import { recordAudit } from "../audit/record";
import type { Actor, SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { dayStartSql, periodEndSql } from "../plans/change";
import { can, isPlatformStaff } from "../policy/policy";
import { createProductSchema, updateProductSchema } from "./schemas";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ProductRow = {
  id: string;
  account_id: string;
  channel: string;
  name: string;
  billing_cycle: "prepaid" | "weekly" | "biweekly" | "monthly";
  currency: string;
  kind: "credits" | "unlimited";
  credits: number | null;
  credits_left: number | null;
  price: string | number;
  period_start: Date;
  period_end: Date | null;
  status: "active" | "suspended" | "cancelled";
  created_at: Date;
  updated_at: Date;
};
export const COLUMNS = `p.id, p.account_id, p.channel, p.name, p.billing_cycle, btrim(p.currency) AS currency, p.kind, p.credits, p.credits_left, p.price,
  p.period_start, p.period_end, p.status, p.created_at, p.updated_at`;

export type ProductOut = ReturnType<typeof productOut>;
export function productOut(p: ProductRow) {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: p.id,
    account_id: p.account_id,
    channel: p.channel,
    name: p.name,
    billing_cycle: p.billing_cycle,
    currency: p.currency,
    kind: p.kind,
    credits: p.credits,
    credits_left: p.credits_left,
    price: Number(p.price),
    period_start: iso(p.period_start)!,
    period_end: iso(p.period_end),
    /** When it is next charged: the period's end for a product that renews, none for prepaid or cancelled. */
    renews_at: p.status === "cancelled" ? null : iso(p.period_end),
    status: p.status,
    /** A prepaid credits product whose credits are spent: it covers nothing more. */
    used_up: p.kind === "credits" && p.billing_cycle === "prepaid" && p.credits_left === 0,
    created_at: iso(p.created_at)!,
    updated_at: iso(p.updated_at)!,
  };
}

/** Who hires, edits and cancels products: the platform's staff only (a reseller's staff reads nothing here). */
export const managesProducts = (actor: Actor) => can(actor, "/admin/customers") && isPlatformStaff(actor);
/** Who sees the account's own products: the route's tag in the policy table (owner, admin, finance). */
export const seesProducts = (actor: Actor) => can(actor, "/customer/products");

function staffOnly(ctx: SignedInCtx) {
  if (!managesProducts(ctx.actor)) throw new AppError("FORBIDDEN");
}

/** A customer or reseller account (never the platform's own): its currency; 404 otherwise. */
async function customerOf(id: string, transaction?: Transaction) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const c = await row<{ id: string; currency: string }>(`SELECT id, btrim(currency) AS currency FROM accounts WHERE id = $1 AND type IN ('customer', 'reseller')`, [id], {
    transaction,
  });
  if (!c) throw new AppError("NOT_FOUND");
  return c;
}

/** One product of one account (404 for another account's, an unknown id or a non-uuid); locked when asked. */
async function productOf(accountId: string, productId: string, transaction?: Transaction, lock = false) {
  if (!UUID.test(productId)) throw new AppError("NOT_FOUND");
  const p = await row<ProductRow>(`SELECT ${COLUMNS} FROM customer_products p WHERE p.account_id = $1 AND p.id = $2 ${lock ? "FOR UPDATE" : ""}`, [accountId, productId], {
    transaction,
  });
  if (!p) throw new AppError("NOT_FOUND");
  return p;
}

const listSchema = z.object(pageInput);

/** An account's products, newest first, keyset paged by (created_at, id) to the microsecond. */
async function pageOf(accountId: string, input: unknown) {
  const q = validate(listSchema, input ?? {});
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const found = await rows<ProductRow & { created_key: string }>(
    `SELECT ${COLUMNS}, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
       FROM customer_products p
      WHERE p.account_id = $1 AND ($2::timestamptz IS NULL OR (p.created_at, p.id) < ($2::timestamptz, $3::uuid))
      ORDER BY p.created_at DESC, p.id DESC LIMIT $4`,
    [accountId, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  return keyset(found, q.limit, (p) => [p.created_key, p.id], productOut);
}

/** A customer's products for the staff (cancelled ones included), newest first. */
export async function listCustomerProducts(ctx: SignedInCtx, customerId: string, input: unknown = {}) {
  staffOnly(ctx);
  const c = await customerOf(customerId);
  return pageOf(c.id, input);
}

export async function getCustomerProduct(ctx: SignedInCtx, customerId: string, productId: string) {
  staffOnly(ctx);
  const c = await customerOf(customerId);
  return { data: productOut(await productOf(c.id, productId)) };
}

/**
 * Hires a product for a customer: the row, its first period (from today's São Paulo midnight;
 * none for prepaid), the price debited as a `product` posting by the staff person, the audit
 * entry — one transaction. INSUFFICIENT_BALANCE (on `price`) when balance + credit limit do not
 * cover the price: nothing written. A currency other than the account's is refused on `currency`.
 */
export async function hireProduct(ctx: SignedInCtx, customerId: string, input: unknown, now = new Date()) {
  staffOnly(ctx);
  const p = validate(createProductSchema, input);
  return sequelize().transaction(async (transaction) => {
    const c = await customerOf(customerId, transaction);
    if (p.currency !== c.currency) throw new AppError("VALIDATION", { fields: { currency: [`products.errors.currency::${c.currency}`] } });
    const credits = p.kind === "credits" ? p.credits! : null;
    const created = await row<ProductRow>(
      `WITH s AS (SELECT ${dayStartSql("$9::timestamptz")} AS start)
       INSERT INTO customer_products AS p (account_id, channel, name, billing_cycle, currency, kind, credits, credits_left, price, period_start, period_end, created_by)
       SELECT $1, $2, $3, $4, $5, $6, $7, $7, $8, s.start, CASE WHEN $4 = 'prepaid' THEN NULL ELSE ${periodEndSql("s.start", "$4::text")} END, $10 FROM s
       RETURNING ${COLUMNS}`,
      [c.id, p.channel, p.name, p.billing_cycle, p.currency, p.kind, credits, p.price, now, ctx.actor.userId],
      { transaction },
    );
    if (
      p.price > 0 &&
      !(await debitBalance(c.id, p.price, transaction, { kind: "product", reference: `product:${created!.id}`, reason: `product ${p.name}`, by: ctx.actor.userId }))
    ) {
      throw new AppError("INSUFFICIENT_BALANCE", { fields: { price: ["products.errors.balance"] } });
    }
    await recordAudit({ ...ctx, transaction }, "billing.product_hired", {
      meta: { customer_id: c.id, product_id: created!.id, channel: p.channel, kind: p.kind, credits, price: p.price, currency: p.currency, billing_cycle: p.billing_cycle },
    });
    return { data: productOut(created!) };
  });
}

/**
 * Edits a product's name, credits or price (for the next periods: nothing is charged or returned
 * now). New credits move credits_left by the difference, never below 0. A cancelled product is
 * not edited (422 on the form: products.errors.cancelled).
 */
export async function updateCustomerProduct(ctx: SignedInCtx, customerId: string, productId: string, input: unknown) {
  staffOnly(ctx);
  const u = validate(updateProductSchema, input);
  return sequelize().transaction(async (transaction) => {
    const c = await customerOf(customerId, transaction);
    const p = await productOf(c.id, productId, transaction, true);
    if (p.status === "cancelled") throw new AppError("VALIDATION", { fields: { form: ["products.errors.cancelled"] } });
    if (u.credits !== undefined && p.kind !== "credits") throw new AppError("VALIDATION", { fields: { credits: ["products.errors.creditsUnlimited"] } });
    const updated = await row<ProductRow>(
      `UPDATE customer_products p SET name = COALESCE($3, p.name), price = COALESCE($4, p.price), credits = COALESCE($5, p.credits),
              credits_left = CASE WHEN $5::int IS NULL THEN p.credits_left ELSE GREATEST(0, p.credits_left + $5::int - p.credits) END, updated_at = now()
        WHERE p.account_id = $1 AND p.id = $2 RETURNING ${COLUMNS}`,
      [c.id, p.id, u.name ?? null, u.price ?? null, u.credits ?? null],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "billing.product_updated", { meta: { customer_id: c.id, product_id: p.id, ...u } });
    return { data: productOut(updated!) };
  });
}

/** Cancels a product at once: it covers nothing more and does not renew; nothing is returned (ADR 048). */
export async function cancelCustomerProduct(ctx: SignedInCtx, customerId: string, productId: string) {
  staffOnly(ctx);
  return sequelize().transaction(async (transaction) => {
    const c = await customerOf(customerId, transaction);
    const p = await productOf(c.id, productId, transaction, true);
    if (p.status === "cancelled") return { data: productOut(p) };
    const cancelled = await row<ProductRow>(
      `UPDATE customer_products p SET status = 'cancelled', cancelled_at = now(), updated_at = now() WHERE p.account_id = $1 AND p.id = $2 RETURNING ${COLUMNS}`,
      [c.id, p.id],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "billing.product_cancelled", { meta: { customer_id: c.id, product_id: p.id } });
    return { data: productOut(cancelled!) };
  });
}

/** The signed-in account's products (/customer/products), newest first. */
export async function myProducts(ctx: SignedInCtx, input: unknown = {}) {
  if (!seesProducts(ctx.actor)) throw new AppError("FORBIDDEN");
  return pageOf(ctx.actor.accountId, input);
}

/** The products the account holds now (active or suspended, not cancelled), for /billing: at most 50, by channel then name. */
export async function heldProducts(accountId: string): Promise<ProductOut[]> {
  const found = await rows<ProductRow>(
    `SELECT ${COLUMNS} FROM customer_products p WHERE p.account_id = $1 AND p.status <> 'cancelled' ORDER BY p.channel, lower(p.name), p.id LIMIT 50`,
    [accountId],
  );
  return found.map(productOut);
}

/** SQL: the account has an active product of the channel (for a send's facts query: no round trip of its own). */
export const hasProductSql = (account: string, channel: string) =>
  `EXISTS (SELECT 1 FROM customer_products cp WHERE cp.account_id = ${account} AND cp.channel = ${channel} AND cp.status = 'active')`;

/** SQL condition: product `p` covers messages at `now` (active, inside its period). */
const usableSql = (now: string) => `p.status = 'active' AND p.period_start <= ${now} AND (p.period_end IS NULL OR p.period_end > ${now})`;

/**
 * Covers messages of `channel` with the account's products, in the caller's transaction (the
 * accept's, which inserts the messages): `units[i]` is message i's units (SMS segments, 1 for an
 * e-mail). An unlimited product covers every message; credits products cover messages in order
 * while their units fit in credits_left. The products' rows are locked (FOR UPDATE) and
 * decremented here, so concurrent accepts of the account queue on them and credits never go
 * below 0. Answers, per message, the product that covers it or null (then the balance pays).
 */
export async function claimUnits(accountId: string, channel: string, units: number[], transaction: Transaction, now = new Date()): Promise<Array<string | null>> {
  const covered: Array<string | null> = units.map(() => null);
  if (units.length === 0) return covered;
  const products = await rows<{ id: string; kind: string; credits_left: number | null }>(
    `SELECT p.id, p.kind, p.credits_left FROM customer_products p
      WHERE p.account_id = $1 AND p.channel = $2 AND ${usableSql("$3::timestamptz")} AND (p.kind = 'unlimited' OR p.credits_left > 0)
      ORDER BY (p.kind = 'unlimited') DESC, p.period_end NULLS LAST, p.created_at, p.id FOR UPDATE`,
    [accountId, channel, now],
    { transaction },
  );
  if (products.length === 0) return covered;
  const unlimited = products.find((p) => p.kind === "unlimited");
  if (unlimited) return units.map(() => unlimited.id);
  const left = products.map((p) => p.credits_left ?? 0);
  const used = products.map(() => 0);
  for (const [i, u] of units.entries()) {
    const k = left.findIndex((l) => l >= u);
    if (u <= 0 || k < 0) continue;
    left[k] -= u;
    used[k] += u;
    covered[i] = products[k].id;
  }
  const spent = products.map((p, k) => ({ id: p.id, used: used[k] })).filter((x) => x.used > 0);
  if (spent.length) {
    await rows(
      `UPDATE customer_products p SET credits_left = p.credits_left - u.used, updated_at = now()
         FROM unnest($2::uuid[], $3::int[]) AS u(id, used) WHERE p.account_id = $1 AND p.id = u.id RETURNING p.id`,
      [accountId, spent.map((s) => s.id), spent.map((s) => s.used)],
      { transaction },
    );
  }
  return covered;
}

/**
 * Set-based claim for a group or file send: the rows of `table` (n, segments, why, product) not
 * blocked are covered in order (by n) while the running sum of their segments fits in the first
 * usable credits product, or all of them by an unlimited one; `product` is set and the credits
 * decremented. Answers the units covered.
 */
export async function claimUnitsSql(accountId: string, channel: string, table: string, transaction: Transaction, now = new Date()): Promise<number> {
  const [p] = await rows<{ id: string; kind: string; credits_left: number | null }>(
    `SELECT p.id, p.kind, p.credits_left FROM customer_products p
      WHERE p.account_id = $1 AND p.channel = $2 AND ${usableSql("$3::timestamptz")} AND (p.kind = 'unlimited' OR p.credits_left > 0)
      ORDER BY (p.kind = 'unlimited') DESC, p.period_end NULLS LAST, p.created_at, p.id LIMIT 1 FOR UPDATE`,
    [accountId, channel, now],
    { transaction },
  );
  if (!p) return 0;
  const [r] = await rows<{ used: string | null }>(
    `WITH c AS (
       SELECT n, sum(segments) OVER (ORDER BY n) AS running FROM ${table} WHERE why IS NULL
     ), u AS (
       UPDATE ${table} t SET product = $1 FROM c WHERE t.n = c.n AND ($2::int IS NULL OR c.running <= $2::int) RETURNING t.segments
     )
     SELECT sum(segments)::bigint AS used FROM u`,
    [p.id, p.kind === "unlimited" ? null : p.credits_left],
    { transaction },
  );
  const used = Number(r?.used ?? 0);
  if (p.kind === "credits" && used > 0) {
    await rows(`UPDATE customer_products SET credits_left = credits_left - $3, updated_at = now() WHERE account_id = $1 AND id = $2 RETURNING id`, [accountId, p.id, used], {
      transaction,
    });
  }
  return used;
}

/**
 * Gives a failed, cancelled or rejected message's units back to the credits product that covered
 * it (capped at its credits; a cancelled product gets nothing back, an unlimited one has nothing
 * to return), in the caller's transaction.
 */
export async function returnUnits(accountId: string, productId: string, units: number, transaction: Transaction): Promise<void> {
  if (units <= 0) return;
  await rows(
    `UPDATE customer_products SET credits_left = LEAST(credits, credits_left + $3), updated_at = now()
      WHERE account_id = $1 AND id = $2 AND kind = 'credits' AND status <> 'cancelled' RETURNING id`,
    [accountId, productId, units],
    { transaction },
  );
}

/**
 * Renews every weekly, biweekly or monthly product whose period ended by `now` (the worker every
 * minute; tests pass `now` and may name one account): each row locked (SKIP LOCKED), its period
 * moved one cycle by an UPDATE that names the old period's end (so a period is charged once
 * whatever the number of runs or workers), credits reset, the price debited as a `product`
 * posting. When balance + credit limit do not cover it the product is `suspended` for the new
 * period (no credits, nothing charged); the next renewal tries again. ADR 048.
 */
export async function renewProducts(now = new Date(), accountId: string | null = null): Promise<{ renewed: number; suspended: number }> {
  let renewed = 0;
  let suspended = 0;
  for (;;) {
    const done = await sequelize().transaction(async (transaction) => {
      const due = await rows<{ id: string; account_id: string; name: string; price: string; billing_cycle: string; period_end: Date }>(
        `SELECT id, account_id, name, price, billing_cycle, period_end FROM customer_products
          WHERE period_end <= $1 AND status IN ('active', 'suspended') AND ($2::uuid IS NULL OR account_id = $2::uuid)
          ORDER BY period_end LIMIT 100 FOR UPDATE SKIP LOCKED`,
        [now, accountId],
        { transaction },
      );
      for (const d of due) {
        const moved = await rows<{ id: string }>(
          `UPDATE customer_products SET period_start = period_end, period_end = ${periodEndSql("period_end", "$3::text")},
                  credits_left = credits, status = 'active', updated_at = now()
            WHERE id = $1 AND account_id = $2 AND period_end = $4 AND status <> 'cancelled' RETURNING id`,
          [d.id, d.account_id, d.billing_cycle, d.period_end],
          { transaction },
        );
        if (moved.length === 0) continue;
        const price = Number(d.price);
        const paid =
          price === 0 ||
          (await debitBalance(d.account_id, price, transaction, {
            kind: "product",
            reference: `product:${d.id}:${new Date(d.period_end).toISOString()}`,
            reason: `product renewal ${d.name}`.slice(0, 500),
          }));
        if (paid) renewed++;
        else {
          await rows(
            `UPDATE customer_products SET status = 'suspended', credits_left = CASE WHEN kind = 'credits' THEN 0 END WHERE id = $1 AND account_id = $2 RETURNING id`,
            [d.id, d.account_id],
            { transaction },
          );
          suspended++;
        }
      }
      return due.length;
    });
    if (done < 100) return { renewed, suspended };
  }
}
