/**
 * The platform's plans (issue 23, ADR 064): what the staff send to create or replace one. No model
 * imports beyond the shared constants, so the same rules run in the browser (conform), the action
 * and the use-case. Messages are locale keys.
 */
import { PLAN_PERMISSIONS } from "../../models/constants";
import { flag, flagOr } from "../lib/fields";
import { z } from "../lib/zod";
import { CURRENCIES, CYCLES } from "../products/constants";

export { PLAN_CURRENCIES, PLAN_CYCLES, PLAN_DURATION_MAX, PLAN_NAME_MAX, PLAN_PERMISSIONS, PLAN_PRICE_MAX, PLAN_SERVICES } from "./constants";
import { PLAN_DURATION_MAX, PLAN_NAME_MAX, PLAN_PRICE_MAX, PLAN_SERVICES } from "./constants";

const option = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: "validation.option" });

export const planSchema = z
  .object({
    name: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(PLAN_NAME_MAX, `validation.maxLength::${PLAN_NAME_MAX}`),
    service: option(PLAN_SERVICES),
    price: z.number({ error: "validation.required" }).int("validation.integer").min(0, "validation.min::0").max(PLAN_PRICE_MAX, `validation.max::${PLAN_PRICE_MAX}`),
    currency: option(CURRENCIES),
    billing_cycle: option(CYCLES),
    is_trial: flag,
    duration_days: z
      .number({ error: "validation.integer" })
      .int("validation.integer")
      .min(1, "validation.min::1")
      .max(PLAN_DURATION_MAX, `validation.max::${PLAN_DURATION_MAX}`)
      .nullish()
      .transform((v) => v ?? null),
    permissions: z
      .object(Object.fromEntries(PLAN_PERMISSIONS.map((p) => [p, flag])) as Record<(typeof PLAN_PERMISSIONS)[number], typeof flag>)
      .partial()
      .nullish()
      .transform((v) => Object.fromEntries(PLAN_PERMISSIONS.map((p) => [p, v?.[p] === true])) as Record<(typeof PLAN_PERMISSIONS)[number], boolean>),
    active: flagOr(true),
  })
  .superRefine((p, ctx) => {
    if (p.is_trial && p.duration_days === null) ctx.addIssue({ code: "custom", path: ["duration_days"], message: "adminCatalogue.errors.trialDays" });
  });
export type PlanInput = z.infer<typeof planSchema>;

/** Assigning a plan to a customer (POST /api/customers/{id}/plans). */
export const assignPlanSchema = z.object({ plan_id: z.string({ error: "validation.required" }).uuid("validation.option") });
