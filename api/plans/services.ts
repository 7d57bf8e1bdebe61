/** The catalogue of plans a customer can have (active plans only). */
import { Plan } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { can } from "../policy/policy";
import { AppError } from "../lib/errors";

function view(p: Plan) {
  return {
    id: p.id,
    name: p.name,
    service: p.service,
    price: p.price,
    currency: p.currency,
    billing_cycle: p.billingCycle,
    duration_days: p.durationDays,
    is_trial: p.isTrial,
    permissions: p.permissions,
  };
}

export async function listPlans(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/plans")) throw new AppError("FORBIDDEN");
  const rows = await Plan.findAll({
    where: { active: true },
    order: [
      ["service", "ASC"],
      ["price", "ASC"],
      ["name", "ASC"],
    ],
  });
  return rows.map(view);
}

export async function getPlan(ctx: SignedInCtx, id: string) {
  if (!can(ctx.actor, "/plans")) throw new AppError("FORBIDDEN");
  const p = await Plan.findOne({ where: { id, active: true } });
  if (!p) throw new AppError("NOT_FOUND");
  return view(p);
}
