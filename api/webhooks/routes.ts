/**
 * Webhooks that providers post to us. The signature is checked over the exact raw bytes, so the
 * body is not parsed by Elysia (`parse: "none"`); nothing is read or written before it passes.
 */
import { Elysia, t } from "elysia";
import { mapProviderStatus, receiptProvider, type ReceiptProvider } from "../channels/receipt-providers";
import type { z } from "zod";
import { verifyWebhook } from "../channels/webhook-signature";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { applyProviderReceipt, applyProviderReceipts, type ProviderReceipt } from "../messages/receipts";
import { receiveInbound } from "../messages/inbound";
import { httpReceiptProvider } from "../channels/http";
import { authenticated } from "../http/auth";
import { listDeliveries, retryDelivery, sendTestEvent } from "./deliveries";
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, revealSecret, rotateSecret, updateEndpoint } from "./endpoints";
import { createdResponse, successResponse } from "../http/openapi";
import { created } from "../http/created";
import { pageQuery } from "../lib/page-schema";
import * as R from "./responses";
import { ProviderWebhookAnswer } from "./provider-responses";
import { providerInboundSchema, providerReceiptSchema, WEBHOOK_EVENT_TYPES } from "./schemas";

/** A receipt is small; a batch holds at most MAX_BATCH of them. Anything bigger is not ours. */
const MAX_RECEIPT_BYTES = 1024 * 1024;
const MAX_BATCH = 1000;

/** Checks one item of a provider's post: a receipt to apply, or an inbound SMS to store. */
function prepare(providerName: string, provider: ReceiptProvider, json: unknown, fallbackId: string, at: string): ProviderReceipt | (() => Promise<unknown>) {
  const fail = (fields: Record<string, string[]>): never => {
    throw new AppError("VALIDATION", { fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [at ? `${at}.${k}` : k, v])) });
  };
  const checked = <S extends z.ZodType>(schema: S): z.infer<S> => {
    try {
      return validate(schema, json);
    } catch (e) {
      if (e instanceof AppError && e.fields) fail(e.fields);
      throw e;
    }
  };
  // An inbound SMS (MO) from the provider rather than a receipt (ADR 011).
  if (json && typeof json === "object" && (json as { type?: unknown }).type === "inbound") {
    const mo = checked(providerInboundSchema);
    return () =>
      receiveInbound({
        provider: providerName,
        providerMessageId: mo.event_id ?? `wh:${fallbackId}`,
        from: mo.from,
        to: mo.to,
        body: mo.body,
        occurredAt: new Date(mo.occurred_at),
      });
  }
  const body = checked(providerReceiptSchema);
  const status = mapProviderStatus(provider, body.status);
  if (!status) fail({ status: ["validation.invalid"] });
  return {
    provider: providerName,
    providerMessageId: body.message_id,
    status: status!,
    errorCode: body.error_code ?? null,
    errorMessage: body.error_message ?? null,
    carrier: body.carrier || null,
    occurredAt: new Date(body.occurred_at),
    eventId: body.event_id ?? fallbackId,
  };
}

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
    if (!Array.isArray(json)) {
      const item = prepare(params.provider, provider, json, verified.id, "");
      return typeof item === "function" ? item() : applyProviderReceipt(item);
    }
    // A batch of receipts in one post (as high-volume providers send delivery reports): every item
    // is checked before any is applied; each is then applied like a single one (same batching,
    // same idempotency), and the answer lists their outcomes in order. A failure answers 5xx for
    // the post and the provider re-posts it: the items already stored answer `duplicate`.
    if (json.length === 0 || json.length > MAX_BATCH) throw new AppError("VALIDATION", { fields: { form: [`validation.max::${MAX_BATCH}`] } });
    const items = json.map((item, i) => prepare(params.provider, provider, item, `${verified.id}:${i}`, String(i)));
    const receipts = items.filter((i): i is ProviderReceipt => typeof i !== "function");
    const [applied, inbound] = await Promise.all([applyProviderReceipts(receipts), Promise.all(items.map((i) => (typeof i === "function" ? i() : null)))]);
    let next = 0;
    return { results: items.map((i, n) => (typeof i === "function" ? inbound[n] : applied[next++])) };
  },
  {
    parse: "none",
    params: t.Object({ provider: t.String() }),
    detail: {
      responses: successResponse(ProviderWebhookAnswer, "The outcome (or, for a batch, the outcomes in order)"),
      summary:
        "A provider's signed delivery receipt (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature over the raw body). " +
        "Body {event_id?, message_id, status, error_code?, error_message?, occurred_at}. Answers {result: applied|unchanged|duplicate|ignored, messageId?, status?, previous?}. " +
        "A JSON array of up to 1,000 such receipts (or inbound SMS) is one batch: all are checked first (422 names the item, e.g. `3.status`), then applied; answers {results: [...]} in order. 401 when the signature is missing, wrong or older than 5 minutes. " +
        'An inbound SMS (MO) is {type: "inbound", event_id?, from, to, body, occurred_at}: answers {result: stored|duplicate|unrouted}. :provider is `simulator` or an HTTP provider connection\'s name',
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
  .get("", ({ ctx }) => listEndpoints(ctx), {
    detail: { responses: successResponse(R.WebhookEndpointList), summary: "Webhook endpoints of the account, with pending and failed delivery counts" },
  })
  .post(
    "",
    async ({ ctx, body, set }) => {
      const made = await createEndpoint(ctx, body);
      return created(set, `/api/webhooks/${made.data.id}`, made);
    },
    {
      body: endpointBody,
      detail: {
        responses: createdResponse(R.WebhookEndpointCreated),
        summary: "Register an endpoint. The answer carries its signing secret (whsec_…); every POST has webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks)",
      },
    },
  )
  .post("/deliveries/:id/retry", ({ ctx, params }) => retryDelivery(ctx, params.id), {
    params: idParam,
    detail: { responses: successResponse(R.WebhookDelivery), summary: "Send a delivery again now" },
  })
  .get("/:id", ({ ctx, params }) => getEndpoint(ctx, params.id), { params: idParam, detail: { responses: successResponse(R.WebhookEndpoint), summary: "One endpoint" } })
  .put("/:id", ({ ctx, params, body }) => updateEndpoint(ctx, params.id, body), {
    params: idParam,
    body: endpointBody,
    detail: { responses: successResponse(R.WebhookEndpoint), summary: "Replace an endpoint's URL, description, events and enabled" },
  })
  .delete("/:id", ({ ctx, params }) => deleteEndpoint(ctx, params.id), {
    params: idParam,
    detail: { responses: successResponse(R.WebhookDeleted), summary: "Delete an endpoint with its deliveries" },
  })
  .get("/:id/secret", ({ ctx, params }) => revealSecret(ctx, params.id), {
    params: idParam,
    detail: { responses: successResponse(R.WebhookSecret), summary: "The endpoint's current signing secret" },
  })
  .post("/:id/rotate-secret", ({ ctx, params }) => rotateSecret(ctx, params.id), {
    params: idParam,
    detail: {
      responses: successResponse(R.WebhookSecretRotated),
      summary: "A new signing secret, used from the next attempt on; for 24 h deliveries are also signed with the replaced one (two signatures in webhook-signature)",
    },
  })
  .get("/:id/deliveries", ({ ctx, params, query }) => listDeliveries(ctx, params.id, query), {
    params: idParam,
    query: t.Object({
      ...pageQuery,
      page: t.Optional(t.String({ description: "Deprecated: a numbered page (use cursor)" })),
      status: t.Optional(t.String({ description: "pending, succeeded or failed" })),
    }),
    detail: {
      responses: successResponse(R.WebhookDeliveryPage),
      summary:
        "Deliveries of the endpoint, newest first, keyset paged (cursor, limit; 20 by default), each with its attempts (time, status code, duration, error, ≤ 1 KB of the answer)",
    },
  })
  .post("/:id/test", ({ ctx, params }) => sendTestEvent(ctx, params.id), {
    params: idParam,
    detail: { responses: successResponse(R.WebhookTestQueued), summary: "Queue a webhook.test event for the endpoint" },
  });
