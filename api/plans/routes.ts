/** Plans API: the catalogue of active plans. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import { onePage } from "../lib/page";
import * as R from "./responses";
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
  });
