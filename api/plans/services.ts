/** The catalogue of plans a customer can have (active plans only). */
import { Plan, initModels } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";

function view(p: Plan) {
  return {
    id: p.id, name: p.name, service: p.service, price: p.price, currency: p.currency, billing_cycle: p.billingCycle,
    duration_days: p.durationDays, is_trial: p.isTrial, permissions: p.permissions,
  };
}

export async function listPlans(_ctx: SignedInCtx) {
  initModels();
  const rows = await Plan.findAll({ where: { active: true }, order: [["service", "ASC"], ["price", "ASC"], ["name", "ASC"]] });
  return rows.map(view);
}

export async function getPlan(_ctx: SignedInCtx, id: string) {
  initModels();
  const p = await Plan.findOne({ where: { id, active: true } });
  if (!p) throw new AppError("NOT_FOUND");
  return view(p);
}
