/** Provider connections and the SMS route map (platform staff: policy route /admin/providers). Thin: the use-cases check and validate. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { errorResponses, successResponse } from "../http/openapi";
import { createdResponse } from "../http/openapi";
import { fromAcceptLanguage, translate } from "../lib/i18n";
import * as R from "./responses";
import { createProvider, deleteProvider, getProvider, getRouteMap, listProviders, putRouteMap, updateProvider } from "./services";
import { testProvider } from "./test-connection";
import { createProviderCost, deleteProviderCost, getConnectionCost, listConnectionCosts } from "./costs";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const num = t.Optional(t.Union([t.Number(), t.String()]));
const str = (description?: string) => t.Optional(t.String(description ? { description } : {}));
const settings = {
  kind: t.Union([t.Literal("simulator"), t.Literal("http"), t.Literal("smpp")]),
  enabled: t.Optional(t.Union([t.Boolean(), t.String()])),
  url: str("http: base URL; submits go to POST {url}/messages"),
  api_key: str("http: bearer key (write-only; answered as a masked hint)"),
  webhook_secret: str("http: Standard Webhooks secret of its receipts; generated and answered once when omitted"),
  host: str("smpp: SMSC host"),
  port: num,
  system_id: str("smpp: up to 15 characters"),
  password: str("smpp: up to 8 characters (write-only)"),
  system_type: str("smpp"),
  tps: num,
};
const route = t.Optional(t.String({ description: "Connection id" }));

export const providerAdminRoutes = new Elysia({ prefix: "/admin", tags: ["admin"], detail: { security: bearer } })
  .use(authenticated)
  .get("/providers", ({ ctx }) => listProviders(ctx), {
    detail: {
      responses: successResponse(R.ProviderPage),
      summary: "Provider connections (platform configuration, a handful: one page), with the routes using each; credentials only as masked hints",
    },
  })
  .post(
    "/providers",
    async ({ ctx, body, set }) => {
      const r = await createProvider(ctx, body);
      return created(set, `/api/admin/providers/${r.data.id}`, r);
    },
    {
      body: t.Object({ name: t.String({ description: "a-z first, then a-z 0-9 _ - (2-41); fixed once created" }), ...settings }),
      detail: {
        responses: createdResponse(R.ProviderSaved, "Created; Location is its URL"),
        summary: "Create a connection (simulator, http, smpp); a name taken is 422 on name",
      },
    },
  )
  .get("/providers/:id", ({ ctx, params }) => getProvider(ctx, params.id), { params: id, detail: { responses: successResponse(R.ProviderOne), summary: "One connection" } })
  .put("/providers/:id", ({ ctx, params, body }) => updateProvider(ctx, params.id, body), {
    params: id,
    body: t.Object(settings),
    detail: {
      responses: successResponse(R.ProviderSaved),
      summary: "Change kind, settings, enabled (omitted enabled = disabled, like the form); blank credentials keep the stored ones",
    },
  })
  .delete("/providers/:id", ({ ctx, params }) => deleteProvider(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.ProviderDeleted), ...errorResponses(409) }, summary: "Delete a connection; 409 PROVIDER_IN_USE while a route uses it" },
  })
  .post(
    "/providers/:id/test",
    async ({ ctx, params, request }) => {
      const r = await testProvider(ctx, params.id);
      // The outcome for a person: in the caller's language (the screen translates `code` itself).
      return { ...r, message: translate(fromAcceptLanguage(request.headers.get("accept-language")), `admin:providers.test.codes.${r.code}`, r.params) };
    },
    {
      params: id,
      detail: {
        responses: successResponse(R.ProviderTest),
        summary:
          "Test: http GETs its base URL, smpp binds and unbinds, simulator checks /health; answers {ok, code, params, message, ms} (a provider's failure is ok: false, never an error)",
      },
    },
  )
  .get("/providers/:id/costs", ({ ctx, params }) => listConnectionCosts(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.ProviderCostPage), summary: "The connection's cost per SMS segment, per route and start (ADR 070)" },
  })
  .post(
    "/providers/:id/costs",
    async ({ ctx, params, body, set }) => {
      const r = await createProviderCost(ctx, params.id, body);
      return created(set, `/api/admin/providers/${params.id}/costs/${r.data.id}`, r);
    },
    {
      params: id,
      // Checked by the use-case's schema, so every field's error comes back at once.
      body: t.Object({
        route: t.Optional(t.Unknown({ description: "T1, T2, T4 or T6" })),
        cost_per_segment: t.Optional(t.Unknown({ description: "Minor units of the currency per segment, an integer 0 to 100000" })),
        currency: t.Optional(t.Unknown({ description: "BRL, USD or EUR" })),
        valid_from: t.Optional(t.Unknown({ description: "ISO 8601 with an offset; not before the start of the cost in force on the route (the first one may be in the past)" })),
      }),
      detail: {
        responses: createdResponse(R.ProviderCostOne, "Created; Location is its URL"),
        summary: "Add a cost from a start on (a change is a new cost; the history keeps the old one); a start taken or before the cost in force is 422 on valid_from",
      },
    },
  )
  .get("/providers/:id/costs/:costId", ({ ctx, params }) => getConnectionCost(ctx, params.id, params.costId), {
    params: t.Object({ id: t.String(), costId: t.String() }),
    detail: { responses: successResponse(R.ProviderCostOne), summary: "One cost of the connection" },
  })
  .delete("/providers/:id/costs/:costId", ({ ctx, params }) => deleteProviderCost(ctx, params.id, params.costId), {
    params: t.Object({ id: t.String(), costId: t.String() }),
    detail: {
      responses: { ...successResponse(R.ProviderDeleted), ...errorResponses(409) },
      summary: "Delete a cost that has not started yet; 409 PROVIDER_COST_APPLIED once it applies (history)",
    },
  })
  .get("/sms/routes", ({ ctx }) => getRouteMap(ctx), {
    detail: { responses: successResponse(R.RouteMap), summary: "Route map: T1, T2, T4, T6 -> connection (the four routes: one page)" },
  })
  .put("/sms/routes", ({ ctx, body }) => putRouteMap(ctx, body), {
    body: t.Object({ T1: route, T2: route, T4: route, T6: route }),
    detail: {
      responses: successResponse(R.RouteMap, "The whole route map after the change"),
      summary: "Point routes at enabled connections (routes not given keep theirs); dispatchers use it from the next message",
    },
  });
