/** Plans API: the catalogue of active plans. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { getPlan, listPlans } from "./services";

export const planRoutes = new Elysia({ prefix: "/plans", tags: ["plans"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", ({ ctx }) => listPlans(ctx), { detail: { summary: "Active plans: service, price (minor units), currency, billing cycle, permissions" } })
  .get("/:id", ({ ctx, params }) => getPlan(ctx, params.id), { params: t.Object({ id: t.String({ format: "uuid" }) }), detail: { summary: "One active plan" } });
