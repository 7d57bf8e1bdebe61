/**
 * The success answers of the plans routes (routes.ts), as TypeBox schemas for the OpenAPI document
 * (api/http/openapi.ts successResponse). In tests every answer is checked against them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { PLAN_PERMISSIONS } from "../../models/constants";
import { Page } from "../lib/page-schema";

export const Plan = t.Object({
  id: t.String({ format: "uuid" }),
  current: t.Boolean({ description: "The account holds this plan now" }),
  name: t.String(),
  service: t.String({ description: "The service it covers: sms, omni…" }),
  price: Type.Integer({ description: "Price per billing cycle in minor units (centavos)" }),
  currency: t.String({ description: "ISO 4217" }),
  billing_cycle: t.Union([t.Literal("prepaid"), t.Literal("weekly"), t.Literal("biweekly"), t.Literal("monthly")]),
  duration_days: t.Union([Type.Integer(), t.Null()], { description: "Days a plan lasts (trials), null when it renews" }),
  is_trial: t.Boolean(),
  permissions: t.Partial(t.Object(Object.fromEntries(PLAN_PERMISSIONS.map((p) => [p, t.Boolean()]))), {
    description: "Features it switches on (opening_hour, dashboard, spie, tab, department, whatsapp)",
  }),
});

export const PlanPage = Page(Plan, "Every active plan, by service then price (one page: the catalogue)");

export const PlanQuote = t.Object({
  amount: Type.Integer({ description: "What changing to this plan now costs, in minor units: positive is debited, negative is returned to the balance" }),
  currency: t.String(),
  period_start: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "The period the change pays for (null: the plan does not renew)" }),
  period_end: t.Union([t.String({ format: "date-time" }), t.Null()]),
  prorated: t.Boolean({ description: "The difference for the part of the current period left" }),
  current: t.Boolean(),
});

export const PlanChange = t.Object({
  plan_id: t.String({ format: "uuid" }),
  service: t.String(),
  charged: Type.Integer({ description: "Debited (positive) or returned (negative), minor units" }),
  currency: t.String(),
  period_start: t.Union([t.String({ format: "date-time" }), t.Null()]),
  period_end: t.Union([t.String({ format: "date-time" }), t.Null()]),
});
