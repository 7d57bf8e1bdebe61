/**
 * The success answers of the WhatsApp routes (./routes), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse). A number's secrets are never answered.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const WhatsappNumber = t.Object({
  id: t.String({ format: "uuid" }),
  integration: t.Union([t.Literal("cloud"), t.Literal("onprem")], { description: "cloud: Meta's WhatsApp Business Cloud API; onprem: the older integration" }),
  phone_number_id: t.String({ description: "cloud: Meta's phone number id; onprem: the number's digits (E.164 without +)" }),
  waba_id: nullable(t.String({ description: "The WhatsApp Business Account it belongs to (cloud)" })),
  display_phone_number: t.String(),
  verified_name: t.String(),
  quality_rating: t.String({ description: "Meta's quality rating: GREEN, YELLOW, RED or UNKNOWN" }),
  messaging_limit: t.String({ description: "Meta's messaging limit tier, e.g. TIER_1K" }),
  webhook_url: t.String({ description: "Where the provider posts this number's webhooks (set at connect; an onprem number's client is given it with a token, never answered)" }),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});
export const WhatsappNumbers = Page(WhatsappNumber, "Oldest first (created_at, id)");
export const WhatsappNumberOne = t.Object({ data: WhatsappNumber });

export const WhatsappTemplate = t.Object({
  id: t.String({ format: "uuid" }),
  number_id: t.String({ format: "uuid" }),
  name: t.String(),
  language: t.String(),
  category: t.String({ description: "utility, marketing or authentication" }),
  components: t.Any({ description: "Meta's components (HEADER, BODY, FOOTER, BUTTONS) as submitted" }),
  status: t.Union([t.Literal("pending"), t.Literal("approved"), t.Literal("rejected"), t.Literal("paused"), t.Literal("disabled")]),
  reason: nullable(t.String({ description: "Meta's reason of a rejection" })),
  provider_template_id: nullable(t.String()),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});
export const WhatsappTemplates = Page(WhatsappTemplate, "Newest first (created_at, id)");
export const WhatsappTemplateOne = t.Object({ data: WhatsappTemplate });
export const Deleted = t.Object({ deleted: Type.Integer() });
export const CloudWebhookAck = t.Object({
  ok: t.Literal(true),
  results: t.Array(
    t.Object({
      field: t.String(),
      result: t.Union(
        [
          t.Literal("applied"),
          t.Literal("unchanged"),
          t.Literal("unknown_template"),
          t.Literal("ignored"),
          t.Literal("received"),
          t.Literal("duplicate"),
          t.Literal("unknown_message"),
        ],
        {
          description: "templates: applied, unchanged, unknown_template; messages: received, duplicate; statuses: applied, unchanged, unknown_message; other fields: ignored",
        },
      ),
    }),
  ),
});

export const WhatsappWindowOne = t.Object({
  data: t.Object({
    open: t.Boolean({ description: "Free-form messages may be sent now" }),
    last_inbound_at: nullable(t.String({ format: "date-time", description: "The contact's last message to the number" })),
    expires_at: nullable(t.String({ format: "date-time", description: "24 hours after it" })),
  }),
});

/** GET /api/whatsapp/rooms/{id}/composer: what a WhatsApp room's composer may send now. */
export const WhatsappRoomComposer = t.Object({
  data: t.Object({
    number: t.Object({ id: t.String({ format: "uuid" }), display_phone_number: t.String(), verified_name: t.String() }),
    contact: t.String({ description: "The contact, E.164" }),
    window: t.Object({
      open: t.Boolean({ description: "Free text and files may be sent now; else only a template" }),
      last_inbound_at: nullable(t.String({ format: "date-time" })),
      expires_at: nullable(t.String({ format: "date-time" })),
    }),
    templates: t.Array(
      t.Object({
        id: t.String({ format: "uuid" }),
        name: t.String(),
        language: t.String(),
        category: t.String({ description: "utility, marketing or authentication: its price" }),
        body: t.String({ description: "The body with {{1}}, {{2}}… where the variables go" }),
        variables: Type.Integer({ description: "How many body variables it takes" }),
      }),
      { description: "The number's approved templates the composer can fill (body variables only)" },
    ),
  }),
});

export const WhatsappAccepted = t.Object({
  data: t.Object({
    id: t.String({ format: "uuid" }),
    to: t.String(),
    status: t.Union([t.Literal("queued"), t.Literal("optout"), t.Literal("rejected")]),
    price: Type.Integer({ description: "In the currency's cents" }),
    currency: t.String(),
    category: t.String({ description: "marketing, utility, authentication, or service (free text in the window)" }),
    error_code: t.Optional(t.String({ description: "optout or deny_list, when not sent" })),
  }),
});

const at = nullable(t.String({ format: "date-time" }));
export const WhatsappMessageOne = t.Object({
  data: t.Object({
    id: t.String({ format: "uuid" }),
    from: t.String({ description: "The number's phone number id" }),
    to: t.String(),
    type: t.String(),
    body: t.String({ description: "The text, or the template's body with its variables" }),
    status: t.String(),
    price: Type.Integer(),
    currency: t.String(),
    provider_message_id: nullable(t.String({ description: "Meta's message id (wamid)" })),
    error_code: nullable(t.String()),
    error_message: nullable(t.String()),
    created_at: t.String({ format: "date-time" }),
    sent_at: at,
    delivered_at: at,
    read_at: at,
    failed_at: at,
  }),
});

/** GET /api/whatsapp/messages (./history listWhatsappMessages): the account's WhatsApp messages, both directions. */
export const WhatsappMessageItem = t.Object({
  id: t.String({ format: "uuid" }),
  direction: t.Union([t.Literal("outbound"), t.Literal("inbound")]),
  type: t.String({ description: "text, template, or the type of a contact's message (image, audio…)" }),
  from: t.String({ description: "Outbound: the number's phone number id; inbound: the contact (E.164)" }),
  to: t.String({ description: "Outbound: the contact (E.164); inbound: the number's phone number id" }),
  body: t.String({ description: "The text, or the template's body with its variables" }),
  status: t.String({ description: "queued, sending, sent, delivered, read, failed, optout, rejected; received (inbound)" }),
  price: Type.Integer({ description: "In the currency's cents" }),
  currency: t.String(),
  error_code: nullable(t.String({ description: "Meta's error code of a failure, or optout / deny_list" })),
  error_message: nullable(t.String()),
  created_at: t.String({ format: "date-time" }),
  sent_at: at,
  delivered_at: at,
  read_at: at,
  failed_at: at,
});
export const WhatsappMessages = Page(WhatsappMessageItem, "Newest first (created_at, id); oldest first with order=asc");

/** POST /api/whatsapp/campaigns (./bulk.ts). */
export const WhatsappCampaignAccepted = t.Object({
  data: t.Object({
    campaign_id: t.String({ format: "uuid" }),
    status: t.Union([t.Literal("running"), t.Literal("scheduled"), t.Literal("completed")], { description: "completed at once when nobody could be sent to" }),
    category: t.String({ description: "The template's category: its price" }),
    total_price: Type.Integer({ description: "Debited now, in the currency's cents" }),
    currency: t.String(),
    scheduled_at: nullable(t.String({ format: "date-time" })),
    summary: t.Object({
      messages: Type.Integer(),
      sendable: Type.Integer({ description: "Queued (or scheduled) and charged" }),
      optout: Type.Integer({ description: "Opted out of WhatsApp: written, not sent, price 0" }),
      rejected: Type.Integer({ description: "On the deny list: written, not sent, price 0" }),
    }),
  }),
});

/** DELETE /api/whatsapp/templates?ids= (the legacy bulk delete). */
export const WhatsappTemplatesDeleted = t.Object({
  deleted: Type.Integer({ description: "Templates deleted (every language of each name)" }),
  ids: t.Array(t.String({ format: "uuid" }), { description: "The ids named that were deleted (one whose name went with an earlier id is left out)" }),
});

const statusCounts = t.Record(t.String(), Type.Integer(), { description: "Messages per status" });
const ChartTotals = {
  total: Type.Integer({ description: "Messages" }),
  segments: Type.Integer(),
  cost: Type.Integer({ description: "In the currency's cents" }),
  statuses: statusCounts,
};
const dayOf = t.String({ format: "date", description: "São Paulo day" });
/** GET /api/whatsapp/messages/charts. */
export const WhatsappCharts = t.Object({
  days: Type.Integer({ description: "7 or 30" }),
  from: dayOf,
  to: dayOf,
  currency: t.String(),
  data: t.Array(t.Object({ day: dayOf, ...ChartTotals }), { description: "One per day, oldest first, days without messages included" }),
  totals: t.Object(ChartTotals),
  next_cursor: t.Null(),
});

/** POST /api/whatsapp/messages/insights (./reports.ts whatsappInsights). */
export const WhatsappInsightsOne = t.Object({
  days: Type.Integer(),
  from: dayOf,
  to: dayOf,
  currency: t.String(),
  messages: Type.Integer({ description: "Outbound messages created in the period" }),
  sent: Type.Integer(),
  delivered: Type.Integer(),
  read: Type.Integer(),
  failed: Type.Integer(),
  rejected: Type.Integer({ description: "Refused before sending: rejected or opted out" }),
  delivery_rate: t.Number({ description: "delivered / sent, 0..1" }),
  read_rate: t.Number({ description: "read / delivered, 0..1" }),
  failure_rate: t.Number({ description: "failed / messages, 0..1" }),
  cost: Type.Integer({ description: "In the currency's cents" }),
  received: Type.Integer({ description: "Inbound messages (the contacts' own)" }),
  data: t.Array(t.Object({ day: dayOf, ...ChartTotals })),
});

export const WhatsappMedia = t.Object({
  id: t.String({ format: "uuid", description: "Name it in a send as Graph does: image: {id}, video: {id}… (POST /whatsapp/messages)" }),
  type: t.Union([t.Literal("image"), t.Literal("video"), t.Literal("audio"), t.Literal("document"), t.Literal("sticker")], {
    description: "The kind of message it goes as (a send of another kind refuses it)",
  }),
  media_type: t.String({ description: "Read from the content: image/jpeg, image/png, video/mp4, video/3gpp, audio/ogg, application/pdf, text/plain…" }),
  filename: t.String(),
  size: Type.Integer({ description: "Bytes" }),
  sha256: t.String({ description: "Hex" }),
  link: t.String({ description: "A signed link of ours that answers the bytes without a session, until link_expires_at (24 hours): what the provider fetches" }),
  link_expires_at: t.String({ format: "date-time" }),
});
export const WhatsappMediaOne = t.Object({ data: WhatsappMedia });
/** A request for a WhatsApp number (./number-requests.ts). */
export const WhatsappNumberRequest = t.Object({
  id: t.String({ format: "uuid" }),
  legal_name: t.String(),
  cnpj: t.String({ description: "14 characters without the mask (check digits verified)" }),
  website: nullable(t.String({ description: "https" })),
  email: t.String(),
  business_phone: t.String({ description: "E.164" }),
  address: nullable(t.String()),
  display_name: t.String({ description: "The WhatsApp display name asked for (Meta's display name guidelines)" }),
  vertical: t.String({
    description:
      "Meta's business category: AUTO, BEAUTY, APPAREL, EDU, ENTERTAIN, EVENT_PLAN, FINANCE, GROCERY, GOVT, HOTEL, HEALTH, NONPROFIT, PROF_SERVICES, RETAIL, TRAVEL, RESTAURANT or OTHER",
  }),
  phone_number: t.String({ description: "The number to register, E.164" }),
  integration: t.Union([t.Literal("cloud"), t.Literal("onprem")], { description: "cloud: Meta's Cloud API; onprem: the older integration" }),
  description: nullable(t.String()),
  status: t.Union([t.Literal("requested"), t.Literal("in_review"), t.Literal("approved"), t.Literal("rejected"), t.Literal("canceled")]),
  reason: nullable(t.String({ description: "Why it was rejected" })),
  status_at: t.String({ format: "date-time", description: "When the current status began" }),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});
export const WhatsappNumberRequests = Page(WhatsappNumberRequest, "Newest first (created_at, id)");
export const WhatsappNumberRequestOne = t.Object({ data: WhatsappNumberRequest });
// ---- platform staff's reports (./admin-reports.ts) ------------------------------------------------

const int = Type.Integer;
const day = t.String({ format: "date", description: "YYYY-MM-DD, São Paulo" });
const Money = t.Object({ currency: t.String({ description: "ISO 4217" }), amount: int({ description: "Minor units of the currency" }) });
const Amounts = t.Array(Money, { description: "One amount per currency (accounts may use different ones), by currency" });
const ReportAccount = nullable(
  t.Object({ id: t.String({ format: "uuid" }), name: t.String(), currency: t.String() }, { description: "The account asked for; null: every account" }),
);
const DayFigures = { messages: int({ description: "Outbound messages" }), delivered: int({ description: "Delivered or read" }), read: int(), failed: int() };
const DayRow = t.Object({ day, ...DayFigures, statuses: t.Record(t.String(), int(), { description: "Outbound messages per status" }) });
const days = t.Array(DayRow, { description: "One per day, oldest first, days without messages included" });

export const AdminWhatsappStat = t.Object({
  from: day,
  to: day,
  account: ReportAccount,
  data: days,
  totals: t.Object(DayFigures),
  categories: t.Array(t.Object({ category: t.String({ description: "marketing, utility, authentication, service" }), messages: int(), cost: Amounts }), {
    description: "Every category; messages refused before sending (rejected, optout) left out",
  }),
  category_totals: t.Object({ messages: int(), cost: Amounts }),
  accounts: t.Array(
    t.Object({
      account: t.Object({ id: t.String({ format: "uuid" }), name: t.String() }),
      ...DayFigures,
      cost: int({ description: "In the account's currency" }),
      currency: t.String(),
    }),
    { description: "The accounts with the most outbound messages (at most 20), most first" },
  ),
  next_cursor: t.Null({ description: "Always null: the whole report is one page" }),
});

export const AdminWhatsappInsights = t.Object({
  days: int({ description: "7 or 30" }),
  from: day,
  to: day,
  account: ReportAccount,
  messages: int({ description: "Outbound messages created in the period" }),
  sent: int({ description: "Handed to the provider" }),
  delivered: int({ description: "Delivered or read" }),
  read: int(),
  failed: int(),
  rejected: int({ description: "Refused before sending: rejected or opted out" }),
  delivery_rate: t.Number({ description: "delivered / sent, 0..1, 4 decimals" }),
  read_rate: t.Number({ description: "read / delivered" }),
  failure_rate: t.Number({ description: "failed / messages" }),
  cost: Amounts,
  received: int({ description: "Inbound messages" }),
  data: days,
  next_cursor: t.Null({ description: "Always null: the whole report is one page" }),
});

const accountOfRow = { account_id: t.String({ format: "uuid" }), account_name: t.String() };
export const AdminWhatsappMessages = Page(t.Composite([WhatsappMessageItem, t.Object(accountOfRow)]), "Every account's messages, newest first (created_at, id)");

export const AdminWhatsappMessageOne = t.Object({
  data: t.Composite([
    WhatsappMessageOne.properties.data,
    t.Object({
      direction: t.Union([t.Literal("outbound"), t.Literal("inbound")]),
      account: t.Object({ id: t.String({ format: "uuid" }), name: t.String() }),
      events: t.Array(
        t.Object({
          status: t.String(),
          source: t.Union([t.Literal("provider"), t.Literal("system")]),
          created_at: t.String({ format: "date-time" }),
          occurred_at: nullable(t.String({ description: "When the provider says it happened" })),
          error_code: nullable(t.String()),
          error_message: nullable(t.String()),
        }),
        { description: "Oldest first" },
      ),
    }),
  ]),
});
