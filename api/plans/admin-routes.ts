/**
 * The platform's plans and a customer's plans over the API (issue 23, ADR 064). Thin: the
 * use-cases (./admin.ts, ./customer-plans.ts) check who and validate.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse, zodBody } from "../http/openapi";
import { assignCustomerPlan, endCustomerPlan, getCustomerPlan, listCustomerPlans } from "./customer-plans";
import { createAdminPlan, deleteAdminPlan, getAdminPlan, listAdminPlans, updateAdminPlan } from "./admin";
import * as R from "./responses";
import { assignPlanSchema, PLAN_SERVICES, planSchema } from "./schemas";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const planBody = { body: t.Record(t.String(), t.Any()) };

export const adminPlanRoutes = new Elysia({ prefix: "/admin/plans", tags: ["plans"], detail: { security: bearer } })
  .use(authenticated)
  .get("", ({ ctx, query }) => listAdminPlans(ctx, query), {
    query: t.Object({ service: t.Optional(t.String({ description: PLAN_SERVICES.join(", ") })) }),
    detail: {
      responses: { ...successResponse(R.AdminPlanPage), ...errorResponses(403, 422) },
      summary: "Every plan of the platform, active or not, with how many accounts hold it (platform staff)",
    },
  })
  .post(
    "",
    async ({ ctx, body, set }) => {
      const answer = await createAdminPlan(ctx, body);
      return created(set, `/api/admin/plans/${answer.data.id}`, answer);
    },
    {
      ...planBody,
      detail: {
        requestBody: zodBody(planSchema),
        responses: { ...createdResponse(R.AdminPlanAnswer, "The plan; Location is the plan"), ...errorResponses(403, 422) },
        summary: "Create a plan (platform staff): name, service, price (minor units), currency, billing cycle, trial and its days, permissions, active",
      },
    },
  )
  .get("/:id", ({ ctx, params }) => getAdminPlan(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.AdminPlanAnswer), ...errorResponses(403, 404) }, summary: "One plan (platform staff)" },
  })
  .put("/:id", ({ ctx, params, body }) => updateAdminPlan(ctx, params.id, body), {
    params: id,
    ...planBody,
    detail: {
      requestBody: zodBody(planSchema),
      responses: { ...successResponse(R.AdminPlanAnswer, "The plan as changed"), ...errorResponses(403, 404, 422) },
      summary: "Replace a plan's fields (platform staff); while accounts hold it its service, currency and billing cycle stay (422), a new price applies at their next renewal",
    },
  })
  .delete("/:id", ({ ctx, params }) => deleteAdminPlan(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.AdminPlanDeleted), ...errorResponses(403, 404, 409) },
      summary:
        "Delete a plan (platform staff): 409 PLAN_IN_USE while accounts hold it (deactivate it instead); kept and deactivated when only ended plans name it; deleted otherwise",
    },
  });

const ids = t.Object({ id: t.String(), planId: t.String() });

export const customerPlanRoutes = new Elysia({ prefix: "/customers/:id/plans", tags: ["customers"], detail: { security: bearer } })
  .use(authenticated)
  .get("", ({ ctx, params }) => listCustomerPlans(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.CustomerPlanPage), ...errorResponses(403, 404) },
      summary: "A customer's plans (platform staff; a reseller's owner or admin for its own customers)",
    },
  })
  .post(
    "",
    async ({ ctx, params, body, set }) => {
      const answer = await assignCustomerPlan(ctx, params.id, body);
      return created(set, `/api/customers/${params.id}/plans/${answer.data.plan_id}`, answer);
    },
    {
      params: id,
      ...planBody,
      detail: {
        requestBody: zodBody(assignPlanSchema),
        responses: { ...createdResponse(R.PlanAssigned, "What was charged; Location is the customer's plan"), ...errorResponses(402, 403, 404, 409, 422) },
        summary:
          "Assign a plan to a customer (platform staff): the plan change of the customer's own /plans/{id}/change, its fee a plan_fee posting of the customer's ledger (402 when balance + credit limit do not cover it; 409 PLAN_UNCHANGED)",
      },
    },
  )
  .get("/:planId", ({ ctx, params }) => getCustomerPlan(ctx, params.id, params.planId), {
    params: ids,
    detail: { responses: { ...successResponse(R.CustomerPlanAnswer), ...errorResponses(403, 404) }, summary: "One plan of a customer (held now or ended)" },
  })
  .delete("/:planId", ({ ctx, params }) => endCustomerPlan(ctx, params.id, params.planId), {
    params: ids,
    detail: {
      responses: { ...successResponse(R.CustomerPlanEnded, "The plan, ended"), ...errorResponses(403, 404) },
      summary: "End a customer's plan now (platform staff): it does not renew and its features close; nothing is returned or deleted",
    },
  });
