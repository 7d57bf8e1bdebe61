/**
 * What the /admin catalogue forms post (issue 23, ADR 064): a plan (/admin/plans/create,
 * /admin/plans/{id}/edit), a plan for a customer (/admin/customers/{id}/plans/create). The action
 * checks it and the browser with the same schema once loaded (ADR 052); the use-case's schema
 * (api/plans/schemas.ts) decides the rest (options, lengths, a trial's days).
 */
import { flag } from "~api/lib/fields";
import { z } from "~api/lib/zod";
import { PLAN_PERMISSIONS } from "~api/plans/schemas";
import { reais } from "./money";

const required = z.string({ error: "validation.required" }).trim().min(1, "validation.required");

export const planFormSchema = z.object({
  intent: z.literal("save").optional(),
  name: required,
  service: required,
  price: reais,
  currency: required,
  billing_cycle: required,
  is_trial: flag,
  duration_days: z.string().trim().optional(),
  opening_hour: flag,
  dashboard: flag,
  spie: flag,
  tab: flag,
  department: flag,
  whatsapp: flag,
  active: flag,
});
export type PlanForm = z.infer<typeof planFormSchema>;

/** The form's values as the API's plan (api/plans/schemas.ts planSchema). */
export const planInputOf = (v: PlanForm) => ({
  name: v.name,
  service: v.service,
  price: v.price,
  currency: v.currency,
  billing_cycle: v.billing_cycle,
  is_trial: v.is_trial,
  duration_days: v.duration_days ? Number(v.duration_days) : null,
  permissions: Object.fromEntries(PLAN_PERMISSIONS.map((p) => [p, v[p]])),
  active: v.active,
});

export const deletePlanSchema = z.object({ intent: z.literal("delete") });

export const assignPlanFormSchema = z.object({ plan_id: required });
export const endPlanSchema = z.object({ intent: z.literal("end") });
