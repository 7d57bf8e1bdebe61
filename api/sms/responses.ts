/**
 * The success answers of the integrator SMS routes, as TypeBox schemas for the OpenAPI document
 * (api/http/openapi.ts successResponse). They describe what accept.ts, get.ts, history.ts,
 * catalog.ts, templates.ts, exports.ts and reports.ts return; the typed client test (tests/integration/openapi.test.ts) calls the routes
 * through types generated from them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { createdResponse, fileResponse } from "../http/openapi";
import { Page } from "../lib/page-schema";

/** Short names the SMS, campaign, contact, import, opt-out and SMPP routes use. */
export const created201 = createdResponse;
export const file200 = fileResponse;

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
  error_code: t.Optional(t.String({ description: "Stable code of why it was not sent (optout, deny_list, moderation)" })),
  error_message: t.Optional(t.String({ description: "Why, in the caller's language (Accept-Language)" })),
});

export const SmsAccepted = t.Object({
  data: t.Optional(t.Array(AcceptedSms, { description: "One per recipient, in request order (not for group and file sends)" })),
  total_price: int({ description: "Centavos debited" }),
  currency: t.String(),
  campaign_id: t.Optional(t.String({ format: "uuid" })),
  scheduled_at: t.Optional(t.String({ format: "date-time" })),
  summary: t.Optional(t.Object({ messages: int(), sendable: int(), optout: int(), rejected: int(), segments: int(), invalid: t.Optional(int()) })),
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
    error_code: nullable(t.String({ description: "Stable code of the failure (ours or the provider's)" })),
    error_message: nullable(t.String({ description: "The failure in the caller's language (Accept-Language) when the reason is ours; the provider's text as it came otherwise" })),
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
      from: t.String({ description: "Sender" }),
      to: t.String({ description: "Recipient, E.164" }),
      sender: t.String({ deprecated: true, description: "alias of from" }),
      recipient: t.String({ deprecated: true, description: "alias of to" }),
      body: t.String(),
      segments: int(),
      coding: nullable(t.String()),
      status: t.String(),
      route: nullable(t.String()),
      price: int({ description: "Centavos" }),
      currency: t.String(),
      error_code: nullable(t.String({ description: "Stable code of the failure (ours or the provider's)" })),
      error_message: nullable(
        t.String({ description: "The failure in the caller's language (Accept-Language) when the reason is ours; the provider's text as it came otherwise" }),
      ),
    }),
  ),
  page: int({ deprecated: true, description: "The page's number (OFFSET paging; prefer cursor)" }),
  last_page: int({ deprecated: true, description: "From the capped count (prefer next_cursor)" }),
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
  next_cursor: t.Null({ description: "Always null: the account's short codes are one page" }),
});

const day = t.String({ format: "date", description: "YYYY-MM-DD, São Paulo" });
const dateTime = t.String({ format: "date-time" });
const nullableDate = nullable(dateTime);
const uuid = t.String({ format: "uuid" });
const cents = (description = "Centavos (minor units of the account's currency)") => int({ description });
const statusCounts = t.Record(t.String(), int(), { description: "Messages per status (only statuses that occur)" });
const onePageCursor = t.Null({ description: "Always null: the whole list is one page" });

// ---- catalog: products and prices ----------------------------------------------------------------

const SmsRouteName = t.Union([t.Literal("T1"), t.Literal("T2"), t.Literal("T4"), t.Literal("T6")]);

export const SmsProducts = t.Object({
  data: t.Array(
    t.Object({
      product: t.Literal("sms"),
      name: t.String(),
      routes: t.Array(
        t.Object({
          route: SmsRouteName,
          price_per_segment: cents("Centavos per segment"),
          currency: t.String(),
          price_id: nullable(t.String({ format: "uuid", description: "The account's own price row; null: the platform default" })),
        }),
      ),
    }),
  ),
  next_cursor: onePageCursor,
});

const SmsPriceRow = t.Object({
  id: uuid,
  account_id: uuid,
  route: t.String({ description: "T1, T2, T4 or T6" }),
  price_per_segment: cents("Centavos per segment"),
  currency: t.String(),
  updated_at: dateTime,
});
export const SmsPrices = t.Object({ data: t.Array(SmsPriceRow), next_cursor: onePageCursor });
export const SmsPrice = t.Object({ data: SmsPriceRow });

// ---- templates ---------------------------------------------------------------------------------

export const SmsTemplate = t.Object({
  id: uuid,
  name: t.String(),
  body: t.String(),
  variables: t.Array(t.String(), { description: "The {{variables}} of the body, in order of first use" }),
  created_at: dateTime,
  updated_at: dateTime,
});
export const SmsTemplatePage = Page(SmsTemplate, "Templates by name (ignoring case), then id");
export const SmsTemplateDeleted = t.Object({ id: uuid, name: t.String() });
export const SmsTemplatesDeleted = t.Object({ deleted: int(), ids: t.Array(uuid, { description: "The ids deleted" }) });

// ---- history exports -----------------------------------------------------------------------------

const SmsExport = t.Object({
  id: uuid,
  status: t.Union([t.Literal("queued"), t.Literal("processing"), t.Literal("done"), t.Literal("failed")]),
  filter: t.Object(
    {
      id: t.String({ description: "One message id, or empty" }),
      from: t.String({ description: "Sender, or empty" }),
      to: t.String({ description: "Recipient E.164, or empty" }),
      status: t.String({ description: "One status, or empty" }),
      sent_at: t.Object({ from: day, to: day }),
    },
    { description: "The filter as resolved when requested" },
  ),
  rows: int({ description: "Rows written (when done)" }),
  file_size: nullable(int({ description: "Bytes of the CSV" })),
  error: nullable(t.String({ description: "Why it failed (operator's text)" })),
  created_at: dateTime,
  finished_at: nullableDate,
});
export const SmsExportOne = t.Object({ data: SmsExport });
export const SmsExportList = t.Object({ data: t.Array(SmsExport, { description: "The 50 newest, newest first" }), next_cursor: onePageCursor });

// ---- reports -------------------------------------------------------------------------------------

const ChartTotals = { total: int({ description: "Messages" }), segments: int(), cost: cents(), statuses: statusCounts };
export const SmsCharts = t.Object({
  days: int({ description: "7 or 30" }),
  from: day,
  to: day,
  currency: t.String(),
  data: t.Array(t.Object({ day, ...ChartTotals }), { description: "One per day, oldest first, days without messages included" }),
  totals: t.Object(ChartTotals),
  next_cursor: onePageCursor,
});

const CarrierRow = t.Object({
  carrier: nullable(t.String({ description: "As the provider's receipt named it; null: not known yet" })),
  total: int(),
  delivered: int(),
  failed: int(),
  unavailable: int(),
  delivery_rate: t.Number({ description: "delivered / (delivered + failed + unavailable), 0..1, 4 decimals; 0 when none is final" }),
});
export const SmsCarriers = t.Object({ days: int(), from: day, to: day, data: t.Array(CarrierRow, { description: "Most messages first" }), next_cursor: onePageCursor });

export const SmsInsights = t.Object({
  from: day,
  to: day,
  messages: int({ description: "Outbound messages created in the period" }),
  sent: int({ description: "Handed to a provider" }),
  delivered: int(),
  failed: int(),
  unavailable: int(),
  rejected: int({ description: "Refused before sending: rejected or opted out" }),
  waiting: int({ description: "scheduled, pending, queued or sending" }),
  delivery_rate: t.Number({ description: "0..1, 4 decimals" }),
  segments: int(),
  cost: cents(),
  currency: t.String(),
  received: int({ description: "Inbound messages" }),
  top_errors: t.Array(t.Object({ error_code: t.String(), count: int() }), { description: "The 5 most frequent error codes" }),
  carriers: t.Array(CarrierRow),
});

const UsageTotals = { messages: int(), segments: int(), cost: cents() };
export const SmsUsage = t.Object({
  from: day,
  to: day,
  currency: t.String(),
  data: t.Array(t.Object({ day, ...UsageTotals }), { description: "One per day of the period" }),
  totals: t.Object(UsageTotals),
  next_cursor: onePageCursor,
});

export const SmsQueue = t.Object({
  counts: t.Object({ scheduled: int(), pending: int(), queued: int(), sending: int() }),
  oldest: t.Array(
    t.Object({
      id: uuid,
      status: t.String(),
      from: t.String({ description: "Sender" }),
      to: t.String({ description: "Recipient, E.164" }),
      sender: t.String({ deprecated: true, description: "alias of from" }),
      recipient: t.String({ deprecated: true, description: "alias of to" }),
      segments: int(),
      created_at: dateTime,
      scheduled_at: nullableDate,
      campaign_id: nullable(uuid),
    }),
    { description: "The 20 waiting longest (by scheduled_at, else created_at)" },
  ),
});

export const SmsCampaignReport = t.Object({
  from: day,
  to: day,
  currency: t.String(),
  data: t.Array(
    t.Object({
      id: uuid,
      name: t.String(),
      status: t.String(),
      total: int({ description: "Recipients planned" }),
      messages: int({ description: "Messages created" }),
      statuses: statusCounts,
      cost: cents(),
      created_at: dateTime,
    }),
    { description: "Newest first (created_at, id)" },
  ),
  next_cursor: t.Union([t.String(), t.Null()], { description: "Send it back as `cursor` (same from/to) for the next page; null on the last page" }),
});
