/**
 * The platform's plans for its staff (issue 23, ADR 064): GET/POST /api/admin/plans, GET/PUT/DELETE
 * /api/admin/plans/{id} and the /admin/plans screens. Only the platform's staff (owner, admin of the
 * platform account); a reseller's staff and every customer get 403.
 *
 * Every plan is listed, inactive ones too, with how many accounts hold it now. While accounts hold
 * a plan its service, currency and billing cycle stay (a field error on each): the holders' rows
 * and renewals depend on them; a new price applies at each holder's next renewal. Deleting a held
 * plan is refused (409 PLAN_IN_USE: deactivate it instead, it then leaves the catalogue and its
 * holders keep it until they change); a plan only ended plans name is deactivated, not deleted
 * (their history keeps pointing at it); one nobody ever held is deleted. Each change is audited.
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models/db";
import { recordAudit } from "../audit/record";
import type { Actor, SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { onePage } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can, isPlatformStaff } from "../policy/policy";
import { PLAN_SERVICES, type PlanInput, planSchema } from "./schemas";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who manages the platform's plans: its staff only. */
export const managesPlans = (actor: Actor) => can(actor, "/admin/plans") && isPlatformStaff(actor);

function staffOnly(ctx: SignedInCtx) {
  if (!managesPlans(ctx.actor)) throw new AppError("FORBIDDEN");
}

type AdminPlanRow = {
  id: string;
  name: string;
  service: string;
  price: string | number;
  currency: string;
  billing_cycle: "prepaid" | "weekly" | "biweekly" | "monthly";
  duration_days: number | null;
  is_trial: boolean;
  permissions: Record<string, boolean>;
  active: boolean;
  holders: string | number;
  created_at: Date;
  updated_at: Date;
};

const HOLDERS_SQL = `(SELECT count(*) FROM account_plans ap WHERE ap.plan_id = p.id AND ap.starts_at <= now() AND (ap.ends_at IS NULL OR ap.ends_at > now()))`;
const COLUMNS = `p.id, p.name, p.service, p.price, btrim(p.currency) AS currency, p.billing_cycle, p.duration_days, p.is_trial, p.permissions, p.active, p.created_at, p.updated_at, ${HOLDERS_SQL} AS holders`;

export type AdminPlanOut = ReturnType<typeof planOut>;
function planOut(p: AdminPlanRow) {
  return {
    id: p.id,
    name: p.name,
    service: p.service,
    price: Number(p.price),
    currency: p.currency,
    billing_cycle: p.billing_cycle,
    duration_days: p.duration_days,
    is_trial: p.is_trial,
    permissions: p.permissions ?? {},
    active: p.active,
    /** Accounts holding it now. */
    holders: Number(p.holders),
    created_at: new Date(p.created_at).toISOString(),
    updated_at: new Date(p.updated_at).toISOString(),
  };
}

async function planRow(id: string, transaction?: Transaction, lock = false) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const p = await row<AdminPlanRow>(`SELECT ${COLUMNS} FROM plans p WHERE p.id = $1 ${lock ? "FOR UPDATE OF p" : ""}`, [id], { transaction });
  if (!p) throw new AppError("NOT_FOUND");
  return p;
}

const listSchema = z.object({ service: z.enum(PLAN_SERVICES, { error: "validation.option" }).optional() });

/** Every plan (active or not) by service, price and name; a handful, so one page (ADR 064). */
export async function listAdminPlans(ctx: SignedInCtx, input: unknown = {}) {
  staffOnly(ctx);
  const q = validate(listSchema, input ?? {});
  const found = await rows<AdminPlanRow>(`SELECT ${COLUMNS} FROM plans p WHERE ($1::text IS NULL OR p.service = $1) ORDER BY p.service, p.price, p.name, p.id LIMIT 500`, [
    q.service ?? null,
  ]);
  return onePage(found.map(planOut));
}

export async function getAdminPlan(ctx: SignedInCtx, id: string) {
  staffOnly(ctx);
  return { data: planOut(await planRow(id)) };
}

const bind = (p: PlanInput) => [p.name, p.service, p.price, p.currency, p.billing_cycle, p.is_trial ? p.duration_days : null, p.is_trial, JSON.stringify(p.permissions), p.active];

export async function createAdminPlan(ctx: SignedInCtx, input: unknown) {
  staffOnly(ctx);
  const p = validate(planSchema, input);
  return sequelize().transaction(async (transaction) => {
    const created = await row<{ id: string }>(
      `INSERT INTO plans (name, service, price, currency, billing_cycle, duration_days, is_trial, permissions, active) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9) RETURNING id`,
      bind(p),
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "plans.created", { meta: { plan_id: created!.id, name: p.name, service: p.service, price: p.price, currency: p.currency } });
    return { data: planOut(await planRow(created!.id, transaction)) };
  });
}

/** Replaces a plan's fields. While accounts hold it: service, currency and billing cycle stay (422 on each). */
export async function updateAdminPlan(ctx: SignedInCtx, id: string, input: unknown) {
  staffOnly(ctx);
  const p = validate(planSchema, input);
  return sequelize().transaction(async (transaction) => {
    const before = await planRow(id, transaction, true);
    if (Number(before.holders) > 0) {
      const fields: Record<string, string[]> = {};
      if (p.service !== before.service) fields.service = ["adminCatalogue.errors.heldFixed"];
      if (p.currency !== before.currency) fields.currency = ["adminCatalogue.errors.heldFixed"];
      if (p.billing_cycle !== before.billing_cycle) fields.billing_cycle = ["adminCatalogue.errors.heldFixed"];
      if (Object.keys(fields).length) throw new AppError("VALIDATION", { fields });
    }
    await rows(
      `UPDATE plans SET name = $2, service = $3, price = $4, currency = $5, billing_cycle = $6, duration_days = $7, is_trial = $8, permissions = $9::jsonb, active = $10, updated_at = now()
        WHERE id = $1 RETURNING id`,
      [before.id, ...bind(p)],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "plans.updated", {
      meta: { plan_id: before.id, name: p.name, price: { from: Number(before.price), to: p.price }, active: { from: before.active, to: p.active } },
    });
    return { data: planOut(await planRow(before.id, transaction)) };
  });
}

/**
 * Deletes a plan: 409 PLAN_IN_USE while accounts hold it; deactivated (kept) when only ended plans
 * of accounts name it; deleted when nobody ever held it. `outcome` says which.
 */
export async function deleteAdminPlan(ctx: SignedInCtx, id: string): Promise<{ data: AdminPlanOut | null; outcome: "deleted" | "deactivated" }> {
  staffOnly(ctx);
  return sequelize().transaction(async (transaction) => {
    const p = await planRow(id, transaction, true);
    if (Number(p.holders) > 0) throw new AppError("PLAN_IN_USE", { params: { holders: Number(p.holders) } });
    const named = await row<{ n: string }>(`SELECT count(*) AS n FROM account_plans WHERE plan_id = $1`, [p.id], { transaction });
    if (Number(named!.n) > 0) {
      await rows(`UPDATE plans SET active = false, updated_at = now() WHERE id = $1 RETURNING id`, [p.id], { transaction });
      await recordAudit({ ...ctx, transaction }, "plans.deactivated", { meta: { plan_id: p.id, name: p.name } });
      return { data: planOut(await planRow(p.id, transaction)), outcome: "deactivated" as const };
    }
    await rows(`DELETE FROM plans WHERE id = $1 RETURNING id`, [p.id], { transaction });
    await recordAudit({ ...ctx, transaction }, "plans.deleted", { meta: { plan_id: p.id, name: p.name } });
    return { data: null, outcome: "deleted" as const };
  });
}
