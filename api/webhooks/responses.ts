/**
 * The success answers of the customer webhook routes (endpoints.ts, deliveries.ts), as TypeBox
 * schemas for the OpenAPI document (api/http/openapi.ts successResponse).
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const int = Type.Integer;
const date = (description?: string) => t.String({ format: "date-time", ...(description ? { description } : {}) });
const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

const Endpoint = t.Object({
  id: t.String({ format: "uuid" }),
  url: t.String(),
  description: t.String(),
  events: t.Array(t.String()),
  enabled: t.Boolean(),
  created_at: date(),
  updated_at: date(),
  pending: t.Optional(int({ description: "Deliveries not yet succeeded or failed (in the list)" })),
  failed: t.Optional(int({ description: "Failed deliveries (in the list)" })),
});

export const WebhookEndpoint = t.Object({ data: Endpoint });
export const WebhookEndpointList = Page(Endpoint, "All of the account's endpoints (at most 20): one page");
export const WebhookEndpointCreated = t.Object({ data: t.Composite([Endpoint, t.Object({ secret: t.String({ description: "whsec_…: verify the webhook-signature with it" }) })]) });
export const WebhookSecret = t.Object({ data: t.Object({ id: t.String({ format: "uuid" }), secret: t.String() }) });
export const WebhookSecretRotated = t.Object({
  data: t.Object({ id: t.String({ format: "uuid" }), secret: t.String(), previous_secret_expires_at: date("Until then deliveries are also signed with the replaced secret") }),
});
export const WebhookDeleted = t.Object({ deleted: t.Literal(true) });

const Delivery = t.Object({
  id: t.String({ format: "uuid" }),
  endpoint_id: t.String({ format: "uuid" }),
  event_id: t.String({ description: "The webhook-id header: random, the same on every attempt (deduplicate on it)" }),
  event_type: t.String(),
  payload: t.Object({ type: t.String(), timestamp: date(), data: t.Record(t.String(), t.Unknown()) }),
  status: t.Union([t.Literal("pending"), t.Literal("succeeded"), t.Literal("failed")]),
  attempts: int(),
  next_attempt_at: nullable(date()),
  last_status_code: nullable(int()),
  last_error: nullable(t.String()),
  created_at: date(),
  succeeded_at: nullable(date()),
  attempt_log: t.Array(
    t.Object({
      id: t.String(),
      started_at: date(),
      duration_ms: int(),
      status_code: nullable(int()),
      error: nullable(t.String()),
      response_excerpt: t.String({ description: "At most 1 KB of a 2xx answer; empty for a failure" }),
    }),
  ),
});

export const WebhookDelivery = t.Object({ data: Delivery });
export const WebhookDeliveryPage = t.Composite([
  Page(Delivery),
  t.Object({
    page: int({ description: "Deprecated: the numbered page (without cursor)" }),
    last_page: int({ description: "Deprecated: with `page`" }),
    total: int({ description: "Deliveries matching the filter" }),
  }),
]);
export const WebhookTestQueued = t.Object({ data: t.Object({ event_id: t.String(), delivery_id: t.String({ format: "uuid" }) }) });
