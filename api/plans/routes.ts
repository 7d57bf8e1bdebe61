/** Plans API: the catalogue of active plans. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import { onePage } from "../lib/page";
import * as R from "./responses";
import { changePlan, quotePlanChange } from "./change";
import { getPlan, listPlans } from "./services";

export const planRoutes = new Elysia({ prefix: "/plans", tags: ["plans"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", async ({ ctx }) => onePage(await listPlans(ctx)), {
    detail: {
      responses: successResponse(R.PlanPage),
      summary: "Active plans: service, price (minor units), currency, billing cycle, permissions; all in one page (the platform's catalogue, a handful)",
    },
  })
  .get("/:id", ({ ctx, params }) => getPlan(ctx, params.id), {
    params: t.Object({ id: t.String({ format: "uuid" }) }),
    detail: { responses: successResponse(R.Plan), summary: "One active plan" },
  })
  .get("/:id/quote", ({ ctx, params }) => quotePlanChange(ctx, params.id), {
    params: t.Object({ id: t.String({ format: "uuid" }) }),
    detail: { responses: successResponse(R.PlanQuote), summary: "What changing the account to this plan costs now (pro rata for the part of the current period left)" },
  })
  .post("/:id/change", ({ ctx, params }) => changePlan(ctx, params.id), {
    params: t.Object({ id: t.String({ format: "uuid" }) }),
    detail: {
      responses: successResponse(R.PlanChange),
      summary:
        "Change the account's plan of this plan's service: the difference is debited or returned through the ledger (402 when the balance does not cover it, 409 PLAN_UNCHANGED when it is already the plan)",
    },
  });
