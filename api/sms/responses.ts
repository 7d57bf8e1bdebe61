/**
 * The success answers of the integrator SMS routes, as TypeBox schemas for the OpenAPI document
 * (api/http/openapi.ts successResponse). They describe what accept.ts, get.ts, history.ts and
 * catalog.ts return; the typed client test (tests/integration/openapi.test.ts) calls the routes
 * through types generated from them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";

/** A plain JSON integer (Elysia's t.Integer also accepts numeric strings, which the document would show). */
const int = Type.Integer;

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

const AcceptedSms = t.Object({
  id: t.String({ format: "uuid" }),
  to: t.String({ description: "E.164" }),
  status: t.Union([t.Literal("queued"), t.Literal("scheduled"), t.Literal("pending"), t.Literal("optout"), t.Literal("rejected")]),
  segments: int(),
  coding: t.Union([t.Literal("GSM7"), t.Literal("UCS2")]),
  price: int({ description: "Centavos" }),
  error_code: t.Optional(t.String()),
  error_message: t.Optional(t.String()),
});

export const SmsAccepted = t.Object({
  data: t.Optional(t.Array(AcceptedSms, { description: "One per recipient, in request order (not for group and file sends)" })),
  total_price: int({ description: "Centavos debited" }),
  currency: t.String(),
  campaign_id: t.Optional(t.String({ format: "uuid" })),
  scheduled_at: t.Optional(t.String({ format: "date-time" })),
  summary: t.Optional(
    t.Object({ messages: int(), sendable: int(), optout: int(), rejected: int(), segments: int(), invalid: t.Optional(int()) }),
  ),
});

const SmsEvent = t.Object({ status: t.String(), source: t.String(), created_at: t.String({ format: "date-time" }), details: t.Record(t.String(), t.Unknown()) });

export const SmsMessage = t.Object({
  data: t.Object({
    id: t.String({ format: "uuid" }),
    direction: t.String(),
    from: t.String(),
    to: t.String(),
    body: t.String(),
    status: t.String({ description: "A status of spec section 4 (queued, sent, delivered, failed…)" }),
    segments: int(),
    coding: nullable(t.String()),
    route: nullable(t.String()),
    provider: nullable(t.String()),
    provider_message_id: nullable(t.String()),
    price: int(),
    currency: t.String(),
    type: nullable(t.String()),
    latitude: nullable(t.Number()),
    longitude: nullable(t.Number()),
    carrier: nullable(t.String()),
    campaign_id: nullable(t.String()),
    error_code: nullable(t.String()),
    error_message: nullable(t.String()),
    scheduled_at: nullable(t.String({ format: "date-time" })),
    queued_at: nullable(t.String({ format: "date-time" })),
    sent_at: nullable(t.String({ format: "date-time" })),
    delivered_at: nullable(t.String({ format: "date-time" })),
    read_at: nullable(t.String({ format: "date-time" })),
    failed_at: nullable(t.String({ format: "date-time" })),
    created_at: t.String({ format: "date-time" }),
    updated_at: t.String({ format: "date-time" }),
    events: t.Array(SmsEvent, { description: "Status history, oldest first" }),
  }),
});

export const SmsHistoryPage = t.Object({
  data: t.Array(
    t.Object({
      id: t.String({ format: "uuid" }),
      created_at: t.String({ format: "date-time" }),
      scheduled_at: nullable(t.String({ format: "date-time" })),
      sent_at: nullable(t.String({ format: "date-time" })),
      delivered_at: nullable(t.String({ format: "date-time" })),
      direction: t.String(),
      type: t.String({ description: "text or location" }),
      sender: t.String(),
      recipient: t.String(),
      body: t.String(),
      segments: int(),
      coding: nullable(t.String()),
      status: t.String(),
      route: nullable(t.String()),
      price: int(),
      currency: t.String(),
      error_code: nullable(t.String()),
      error_message: nullable(t.String()),
    }),
  ),
  page: int(),
  last_page: int(),
  total: int({ description: "Rows counted for last_page, at most 10,000" }),
  total_capped: t.Boolean(),
  next_cursor: nullable(t.String({ description: "Send it back as `cursor` (same filters) for the next page" })),
  created_at: t.Object({ gte: t.String({ format: "date" }), lte: t.String({ format: "date" }) }),
});

export const SmsSenders = t.Object({
  data: t.Array(
    t.Object({
      sender: t.String(),
      type: t.Union([t.Literal("alphanumeric"), t.Literal("short_code")]),
      nickname: nullable(t.String()),
      assigned: t.Boolean(),
      last_used_at: nullable(t.String({ format: "date-time" })),
    }),
  ),
});
