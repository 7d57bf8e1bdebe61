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

const DateTime = (description?: string) => t.String({ format: "date-time", ...(description ? { description } : {}) });
const Cycle = t.Union([t.Literal("prepaid"), t.Literal("weekly"), t.Literal("biweekly"), t.Literal("monthly")]);
const Permissions = t.Record(t.String(), t.Boolean(), { description: "Features it switches on (opening_hour, dashboard, spie, tab, department, whatsapp)" });

/** A plan as the platform's staff see it (/api/admin/plans, ADR 064). */
export const AdminPlan = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  service: t.String({ description: "sms, email, whatsapp, rcs or omni" }),
  price: Type.Integer({ description: "Per billing cycle (prepaid: once), minor units" }),
  currency: t.String({ description: "BRL, USD or EUR" }),
  billing_cycle: Cycle,
  duration_days: t.Union([Type.Integer(), t.Null()], { description: "A trial's length in days; null otherwise" }),
  is_trial: t.Boolean(),
  permissions: Permissions,
  active: t.Boolean({ description: "In the catalogue customers choose from" }),
  holders: Type.Integer({ description: "Accounts holding it now" }),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export const AdminPlanAnswer = t.Object({ data: AdminPlan });
export const AdminPlanPage = Page(AdminPlan, "Every plan, active or not, by service, price and name (one page: the platform's catalogue, a handful)");
export const AdminPlanDeleted = t.Object({
  data: t.Union([AdminPlan, t.Null()], { description: "The plan when it was kept (deactivated); null when deleted" }),
  outcome: t.Union([t.Literal("deleted"), t.Literal("deactivated")], { description: "deactivated: ended plans of accounts still name it, so it is kept out of the catalogue" }),
});

/** A plan a customer holds or held (one per service). */
export const CustomerPlan = t.Object({
  plan_id: t.String({ format: "uuid" }),
  name: t.String(),
  service: t.String(),
  price: Type.Integer(),
  currency: t.String(),
  billing_cycle: t.String(),
  is_trial: t.Boolean(),
  permissions: Permissions,
  starts_at: DateTime("When it started"),
  ends_at: t.Union([DateTime(), t.Null()], { description: "When it ended or ends; null while it goes on" }),
  period_start: t.Union([DateTime(), t.Null()], { description: "The paid period (null: it does not renew)" }),
  period_end: t.Union([DateTime(), t.Null()]),
  current: t.Boolean({ description: "Held now" }),
});
export const CustomerPlanPage = Page(CustomerPlan, "The customer's plans by service, ended ones included (one per service)");
export const CustomerPlanAnswer = t.Object({
  data: t.Composite([CustomerPlan, t.Object({ customer: t.Object({ id: t.String({ format: "uuid" }), name: t.String() }) })]),
});
export const CustomerPlanEnded = t.Object({ data: CustomerPlan });
export const PlanAssigned = t.Object({ data: t.Composite([PlanChange, t.Object({ customer_id: t.String({ format: "uuid" }) })]) });
