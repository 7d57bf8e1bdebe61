/**
 * Integrations API (issue 23, ADR 066): the account's installed e-commerce platforms — list,
 * install, read, change (credentials, senders, the three event rules), uninstall, test — and the
 * events received with the message each produced; plus the platforms' public webhook. Thin: the
 * use-cases in ./services.ts and ./events.ts check roles and scope every query by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse, zodBody } from "../http/openapi";
import { onePage } from "../lib/page";
import { receiveEvent } from "./events";
import * as R from "./responses";
import {
  getIntegration,
  installIntegration,
  installSchema,
  listIntegrationEvents,
  listIntegrations,
  testIntegration,
  uninstallIntegration,
  updateIntegration,
  updateSchema,
} from "./services";

const id = t.Object({ id: t.String() });
const anyBody = t.Record(t.String(), t.Any());

export const integrationRoutes = new Elysia({ prefix: "/integrations", tags: ["integrations"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", async ({ ctx }) => onePage((await listIntegrations(ctx)).data), {
    detail: {
      responses: { ...successResponse(R.IntegrationList), ...errorResponses(403) },
      summary: "The account's installed integrations, newest first (secrets never answered; one page: an account installs a few)",
    },
  })
  .post(
    "",
    async ({ ctx, body, set }) => {
      const answer = await installIntegration(ctx, body);
      return created(set, `/api/integrations/${answer.data.id}`, answer);
    },
    {
      body: anyBody,
      detail: {
        requestBody: zodBody(installSchema),
        responses: { ...createdResponse(R.IntegrationAnswer, "The integration; Location is the integration"), ...errorResponses(403, 422, 502) },
        summary:
          "Install a platform (kind nuvemshop: store_id, access_token, app_secret): the credentials are checked at the store, its order webhooks pointed at us, the secrets sealed, and one rule per event written (SMS, default text). " +
          "422 on the field the store refused or on store_id when another integration has the store; 502 PROVIDER_UNAVAILABLE when the store does not answer",
      },
    },
  )
  .get("/:id", ({ ctx, params }) => getIntegration(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.IntegrationAnswer), ...errorResponses(403, 404) }, summary: "One integration of the account with its rules" },
  })
  .patch("/:id", ({ ctx, params, body }) => updateIntegration(ctx, params.id, body), {
    params: id,
    body: anyBody,
    detail: {
      requestBody: zodBody(updateSchema),
      responses: { ...successResponse(R.IntegrationAnswer), ...errorResponses(403, 404, 422, 502) },
      summary:
        "Change an integration: new credentials (checked at the store, webhooks re-pointed; blank keeps them), the senders (sms_from, email_from; blank: the account's default), and rules — each {event, channel, subject, text, enabled} replaces that event's rule. " +
        "A whatsapp rule names instead an approved template {name, language, variables: one text per {{n}} with the order's {{variables}}} and optionally number_id (else the account's default number); " +
        "422 on rules.<n>.template.name when the template is not approved on that number, on rules.<n>.template.variables when the values do not match its variables",
    },
  })
  .delete(
    "/:id",
    async ({ ctx, params }) => {
      await uninstallIntegration(ctx, params.id);
      return { data: { id: params.id, deleted: true as const } };
    },
    {
      params: id,
      detail: {
        responses: { ...successResponse(R.Deleted), ...errorResponses(403, 404) },
        summary: "Uninstall: the store's webhooks stopped (best effort), the integration, its rules and events deleted",
      },
    },
  )
  .post("/:id/test", ({ ctx, params }) => testIntegration(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.TestAnswer), ...errorResponses(403, 404, 502) },
      summary: "Test: a test order at the store for you (your mobile and e-mail); the store posts its order/created and its rule sends you the message",
    },
  })
  .get("/:id/events", async ({ ctx, params, query }) => onePage((await listIntegrationEvents(ctx, params.id, Number(query.limit ?? 50))).data), {
    params: id,
    query: t.Object({ limit: t.Optional(t.String({ description: "1 to 200, default 50" })) }),
    detail: {
      responses: { ...successResponse(R.IntegrationEvents), ...errorResponses(403, 404) },
      summary: "The newest events received (up to limit, one page), each with the text sent, the message it produced and that message's status (or why nothing was sent)",
    },
  });

/** The platforms' webhooks: public, signed over the raw body with the integration's app secret. */
export const integrationWebhookRoutes = new Elysia({ prefix: "/webhooks/integrations", tags: ["webhooks"] }).post(
  "/:kind",
  async ({ params, request }) => receiveEvent(params.kind, await request.text(), request.headers),
  {
    parse: "none",
    params: t.Object({ kind: t.String({ description: "The platform: nuvemshop" }) }),
    detail: {
      responses: { ...successResponse(R.Received, "What the event did"), ...errorResponses(401, 404, 422) },
      summary:
        "A platform's order event (Nuvemshop: {store_id, event, id} with x-linkedstore-hmac-sha256, the HMAC-SHA256 of the raw body with the app secret, hex). " +
        "Queued once per store, order and event: a retried webhook answers duplicate and sends nothing. 404 for a store no integration has; 401 when the signature does not check",
    },
  },
);

/** Both, as one plugin for the app (api/app.ts). */
export const integrationsApi = new Elysia({ name: "integrations-api" }).use(integrationRoutes).use(integrationWebhookRoutes);
