/** The catalogue of plans a customer can have (active plans only). */
import { Plan } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { can, type PlanFeature } from "../policy/policy";
import type { Actor } from "../lib/context";

/** Who reads the catalogue: whoever opens /plans, or compares plans on /billing/upgrade (finance reaches only the latter, spec section 6). */
export const seesPlans = (actor: Actor) => can(actor, "/plans") || can(actor, "/billing/upgrade");
import { AppError } from "../lib/errors";
import { rows } from "../lib/sql";

/** The plans the account holds now (by id). */
async function heldIds(accountId: string): Promise<Set<string>> {
  const held = await rows<{ plan_id: string }>(`SELECT plan_id FROM account_plans WHERE account_id = $1 AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now())`, [
    accountId,
  ]);
  return new Set(held.map((h) => h.plan_id));
}

function view(p: Plan, held: Set<string>) {
  return {
    current: held.has(p.id),
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
  if (!seesPlans(ctx.actor)) throw new AppError("FORBIDDEN");
  const list = await Plan.findAll({
    where: { active: true },
    order: [
      ["service", "ASC"],
      ["price", "ASC"],
      ["name", "ASC"],
    ],
  });
  const held = await heldIds(ctx.actor.accountId);
  return list.map((p) => view(p, held));
}

export async function getPlan(ctx: SignedInCtx, id: string) {
  if (!seesPlans(ctx.actor)) throw new AppError("FORBIDDEN");
  const p = await Plan.findOne({ where: { id, active: true } });
  if (!p) throw new AppError("NOT_FOUND");
  return view(p, await heldIds(ctx.actor.accountId));
}

/**
 * The names of the active plans (not trials) that unlock `feature`: the omni service for live chat,
 * else the plan permission. The 403 screen of a plan refusal names them (plan names are the
 * platform's public catalogue).
 */
export async function plansWith(feature: PlanFeature): Promise<string[]> {
  const list = await Plan.findAll({
    where: { active: true, isTrial: false },
    order: [
      ["price", "ASC"],
      ["name", "ASC"],
    ],
  });
  return list.filter((p) => (feature === "omni" ? p.service === "omni" : p.permissions?.[feature] === true)).map((p) => p.name);
}
