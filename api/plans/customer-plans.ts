/**
 * A customer's plans for the staff (issue 23, ADR 064): POST /api/customers/{id}/plans assigns a
 * plan, GET /api/customers/{id}/plans and /plans/{planId} read them, DELETE /plans/{planId} ends
 * one; the screens /admin/customers/{id}/plans/create and /admin/customers/{id}/plans/{planId}.
 *
 * Assigning is the customer's own plan change (./change.ts `switchPlan`, ADR 045) done by the staff
 * for the customer: the same period rules and pro rata, the fee a `plan_fee` posting of the
 * customer's ledger by the staff person (402 and nothing changed when balance + credit limit do not
 * cover it). No invoice of its own: a prepaid account pays from its balance, a postpaid one from its
 * credit and its cycle's invoice bills the posting (ADR 044). Ending stops it at once (features
 * close through the plan gates, no renewal); nothing is returned, nothing is deleted.
 *
 * Who: the platform's staff assign and end; a reseller's owner or admin reads its own customers'
 * plans (another's customer is 404) and may not change them (403); anyone else 403.
 */
import { sequelize } from "../../models/db";
import { recordAudit } from "../audit/record";
import { customerInReach } from "../customers/customers";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { onePage } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { isPlatformStaff } from "../policy/policy";
import { switchPlan } from "./change";
import { assignPlanSchema } from "./schemas";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type HeldPlanRow = {
  plan_id: string;
  name: string;
  service: string;
  price: string | number;
  currency: string;
  billing_cycle: string;
  is_trial: boolean;
  permissions: Record<string, boolean>;
  starts_at: Date;
  ends_at: Date | null;
  period_start: Date | null;
  period_end: Date | null;
};
const COLUMNS = `ap.plan_id, p.name, ap.service, p.price, btrim(p.currency) AS currency, p.billing_cycle, p.is_trial, p.permissions,
  ap.starts_at, ap.ends_at, ap.period_start, ap.period_end`;

export type CustomerPlanOut = ReturnType<typeof heldOut>;
function heldOut(h: HeldPlanRow, now = new Date()) {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    plan_id: h.plan_id,
    name: h.name,
    service: h.service,
    price: Number(h.price),
    currency: h.currency,
    billing_cycle: h.billing_cycle,
    is_trial: h.is_trial,
    permissions: h.permissions ?? {},
    starts_at: iso(h.starts_at)!,
    ends_at: iso(h.ends_at),
    period_start: iso(h.period_start),
    period_end: iso(h.period_end),
    /** Held now: started and not ended. */
    current: new Date(h.starts_at) <= now && (h.ends_at === null || new Date(h.ends_at) > now),
  };
}

function staffOnly(ctx: SignedInCtx) {
  if (!isPlatformStaff(ctx.actor)) throw new AppError("FORBIDDEN");
}

/** The customer's plans (one per service, ended ones included), by service. */
export async function listCustomerPlans(ctx: SignedInCtx, customerId: string) {
  const c = await customerInReach(ctx, customerId);
  const found = await rows<HeldPlanRow>(`SELECT ${COLUMNS} FROM account_plans ap JOIN plans p ON p.id = ap.plan_id WHERE ap.account_id = $1 ORDER BY ap.service`, [c.id]);
  return onePage(found.map((h) => heldOut(h)));
}

export async function getCustomerPlan(ctx: SignedInCtx, customerId: string, planId: string) {
  const c = await customerInReach(ctx, customerId);
  if (!UUID.test(planId)) throw new AppError("NOT_FOUND");
  const h = await row<HeldPlanRow>(`SELECT ${COLUMNS} FROM account_plans ap JOIN plans p ON p.id = ap.plan_id WHERE ap.account_id = $1 AND ap.plan_id = $2`, [c.id, planId]);
  if (!h) throw new AppError("NOT_FOUND");
  return { data: { ...heldOut(h), customer: { id: c.id, name: c.name } } };
}

/** Assigns `plan_id` to the customer (platform staff): the plan change of ADR 045 for the customer, audited as billing.plan_assigned. */
export async function assignCustomerPlan(ctx: SignedInCtx, customerId: string, input: unknown, now = new Date()) {
  const c = await customerInReach(ctx, customerId);
  staffOnly(ctx);
  const { plan_id } = validate(assignPlanSchema, input);
  try {
    const changed = await switchPlan(ctx, c.id, plan_id, { action: "billing.plan_assigned", meta: { customer_id: c.id } }, now);
    return { data: { ...changed, customer_id: c.id } };
  } catch (e) {
    // An unknown or inactive plan is the form's field, not the page.
    if (e instanceof AppError && e.code === "NOT_FOUND") throw new AppError("VALIDATION", { fields: { plan_id: ["validation.option"] } });
    throw e;
  }
}

/** Ends the customer's plan now (platform staff): no renewal, features close; nothing returned. Ending an ended plan changes nothing. */
export async function endCustomerPlan(ctx: SignedInCtx, customerId: string, planId: string, now = new Date()) {
  const c = await customerInReach(ctx, customerId);
  staffOnly(ctx);
  if (!UUID.test(planId)) throw new AppError("NOT_FOUND");
  return sequelize().transaction(async (transaction) => {
    const h = await row<HeldPlanRow & { id: string }>(
      `SELECT ap.id, ${COLUMNS} FROM account_plans ap JOIN plans p ON p.id = ap.plan_id WHERE ap.account_id = $1 AND ap.plan_id = $2 FOR UPDATE OF ap`,
      [c.id, planId],
      { transaction },
    );
    if (!h) throw new AppError("NOT_FOUND");
    if (h.ends_at !== null && new Date(h.ends_at) <= now) return { data: heldOut(h, now) };
    const ended = await row<HeldPlanRow>(
      `UPDATE account_plans ap SET ends_at = $2, updated_at = now() FROM plans p WHERE ap.id = $1 AND p.id = ap.plan_id RETURNING ${COLUMNS}`,
      [h.id, now],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "billing.plan_ended", { meta: { customer_id: c.id, plan_id: planId, service: h.service } });
    return { data: heldOut(ended!, now) };
  });
}
