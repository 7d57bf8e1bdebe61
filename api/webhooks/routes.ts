/**
 * Webhooks that providers post to us. The signature is checked over the exact raw bytes, so the
 * body is not parsed by Elysia (`parse: "none"`); nothing is read or written before it passes.
 */
import { Elysia, t } from "elysia";
import { mapProviderStatus, receiptProvider } from "../channels/receipt-providers";
import { verifyWebhook } from "../channels/webhook-signature";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { applyProviderReceipt } from "../messages/receipts";
import { receiveInbound } from "../messages/inbound";
import { httpReceiptProvider } from "../channels/http";
import { authenticated } from "../http/auth";
import { listDeliveries, retryDelivery, sendTestEvent } from "./deliveries";
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, revealSecret, rotateSecret, updateEndpoint } from "./endpoints";
import { providerInboundSchema, providerReceiptSchema, WEBHOOK_EVENT_TYPES } from "./schemas";

/** Receipts are small; anything bigger is not one. */
const MAX_RECEIPT_BYTES = 64 * 1024;

export const providerWebhookRoutes = new Elysia({ prefix: "/webhooks/providers", tags: ["webhooks"] }).post(
  "/:provider",
  async ({ params, request }) => {
    const provider = receiptProvider(params.provider) ?? (await httpReceiptProvider(params.provider));
    if (!provider) throw new AppError("NOT_FOUND");
    const raw = await request.text();
    if (raw.length > MAX_RECEIPT_BYTES) throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
    const verified = verifyWebhook(provider.secrets(), request.headers, raw);
    if (!verified.ok) throw new AppError("UNAUTHENTICATED");

    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
    }
    // An inbound SMS (MO) from the provider rather than a receipt (ADR 011).
    if (json && typeof json === "object" && (json as { type?: unknown }).type === "inbound") {
      const mo = validate(providerInboundSchema, json);
      return receiveInbound({
        provider: params.provider,
        providerMessageId: mo.event_id ?? `wh:${verified.id}`,
        from: mo.from,
        to: mo.to,
        body: mo.body,
        occurredAt: new Date(mo.occurred_at),
      });
    }
    const body = validate(providerReceiptSchema, json);
    const status = mapProviderStatus(provider, body.status);
    if (!status) throw new AppError("VALIDATION", { fields: { status: ["validation.invalid"] } });

    return applyProviderReceipt({
      provider: params.provider,
      providerMessageId: body.message_id,
      status,
      errorCode: body.error_code ?? null,
      errorMessage: body.error_message ?? null,
      carrier: body.carrier || null,
      occurredAt: new Date(body.occurred_at),
      eventId: body.event_id ?? verified.id,
    });
  },
  {
    parse: "none",
    params: t.Object({ provider: t.String() }),
    detail: {
      summary:
        "A provider's signed delivery receipt (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature over the raw body). " +
        "Body {event_id?, message_id, status, error_code?, error_message?, occurred_at}. Answers {result: applied|unchanged|duplicate|ignored}; 401 when the signature is missing, wrong or older than 5 minutes. " +
        "An inbound SMS (MO) is {type: \"inbound\", event_id?, from, to, body, occurred_at}: answers {result: stored|duplicate|unrouted}. :provider is `simulator` or an HTTP provider connection's name",
    },
  },
);

// ---- customer webhooks (JWT) -------------------------------------------------------------------
// Static segments (/webhooks/deliveries/…, /webhooks/providers/… above) never collide with /webhooks/:id.

const bearer = [{ bearer: [] }];
const idParam = t.Object({ id: t.String() });
const endpointBody = t.Object({
  url: t.String({ description: "http(s) URL the events are POSTed to (https in production; private addresses are never called in production)" }),
  description: t.Optional(t.Union([t.String({ description: "Up to 255 characters" }), t.Null()])),
  events: t.Union([t.Array(t.String()), t.String()], { description: `Event types: ${WEBHOOK_EVENT_TYPES.join(", ")}, or "*" for all` }),
  enabled: t.Optional(t.Union([t.Boolean(), t.String()], { description: "Default true" })),
});

export const customerWebhookRoutes = new Elysia({ prefix: "/webhooks", tags: ["webhooks"], detail: { security: bearer } })
  .use(authenticated)
  .get("/", ({ ctx }) => listEndpoints(ctx), { detail: { summary: "Webhook endpoints of the account, with pending and failed delivery counts" } })
  .post("/", ({ ctx, body }) => createEndpoint(ctx, body), {
    body: endpointBody,
    detail: { summary: "Register an endpoint. The answer carries its signing secret (whsec_…); every POST has webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks)" },
  })
  .post("/deliveries/:id/retry", ({ ctx, params }) => retryDelivery(ctx, params.id), { params: idParam, detail: { summary: "Send a delivery again now" } })
  .get("/:id", ({ ctx, params }) => getEndpoint(ctx, params.id), { params: idParam, detail: { summary: "One endpoint" } })
  .put("/:id", ({ ctx, params, body }) => updateEndpoint(ctx, params.id, body), { params: idParam, body: endpointBody, detail: { summary: "Replace an endpoint's URL, description, events and enabled" } })
  .delete("/:id", ({ ctx, params }) => deleteEndpoint(ctx, params.id), { params: idParam, detail: { summary: "Delete an endpoint with its deliveries" } })
  .get("/:id/secret", ({ ctx, params }) => revealSecret(ctx, params.id), { params: idParam, detail: { summary: "The endpoint's current signing secret" } })
  .post("/:id/rotate-secret", ({ ctx, params }) => rotateSecret(ctx, params.id), { params: idParam, detail: { summary: "A new signing secret, used from the next attempt on; for 24 h deliveries are also signed with the replaced one (two signatures in webhook-signature)" } })
  .get("/:id/deliveries", ({ ctx, params, query }) => listDeliveries(ctx, params.id, query), {
    params: idParam,
    query: t.Object({ page: t.Optional(t.String()), status: t.Optional(t.String({ description: "pending, succeeded or failed" })) }),
    detail: { summary: "Deliveries of the endpoint, newest first (20 a page), each with its attempts (time, status code, duration, error, ≤ 1 KB of the answer)" },
  })
  .post("/:id/test", ({ ctx, params }) => sendTestEvent(ctx, params.id), { params: idParam, detail: { summary: "Queue a webhook.test event for the endpoint" } });
