/**
 * The success answers of the integration routes (./routes.ts), as TypeBox schemas for the OpenAPI
 * document; in tests each answer is checked against its schema.
 */
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const at = t.String({ format: "date-time" });
const event = t.Union([t.Literal("order/created"), t.Literal("order/paid"), t.Literal("order/fulfilled")]);

export const RuleTemplate = t.Object({
  name: t.String({ description: "An approved template of the sending number" }),
  language: t.String(),
  variables: t.Array(t.String(), { description: "One value per body variable {{1}}, {{2}}…, each a text with the order's {{variables}}" }),
  header_variable: t.Optional(t.String({ description: "The text header's variable, when the template has one" })),
  button_variable: t.Optional(t.String({ description: "The URL button's variable, when the template has one" })),
});

export const Rule = t.Object({
  event,
  channel: t.String({ description: "sms, email or whatsapp" }),
  subject: t.String({ description: "The e-mail's subject ({{variables}} filled); unused on SMS and WhatsApp" }),
  text: t.String({ description: "The message, with {{first_name}}, {{order_number}}, {{total}}, {{tracking_code}}, {{store}}; unused on WhatsApp (the template's text)" }),
  template: nullable(RuleTemplate),
  number_id: nullable(t.String({ format: "uuid", description: "WhatsApp: the sending number; null = the account's default WhatsApp number" })),
  enabled: t.Boolean(),
});

export const Integration = t.Object({
  id: t.String({ format: "uuid" }),
  kind: t.String({ description: "The platform: nuvemshop" }),
  label: t.String(),
  name: t.String({ description: "The store's name as the platform answered it" }),
  store_id: t.String(),
  status: t.Union([t.Literal("active"), t.Literal("error")]),
  status_detail: nullable(t.String()),
  settings: t.Object({
    sms_from: nullable(t.String({ description: "The SMS sender (blank: the route's default)" })),
    email_from: nullable(t.String({ description: "The e-mail sender (an address of a validated domain of the account); null: the account's default address" })),
  }),
  rules: t.Array(Rule),
  webhook_url: t.String({ description: "Where the store posts its order events" }),
  last_event_at: nullable(at),
  last_event: nullable(t.Object({ event: t.String(), status: t.String({ description: "queued, sent, skipped or failed" }), received_at: at })),
  created_at: at,
});
export const IntegrationAnswer = t.Object({ data: Integration });
export const IntegrationList = Page(Integration, "The account's installed integrations, newest first");

export const IntegrationEvent = t.Object({
  id: t.String({ format: "uuid" }),
  event: t.String(),
  order_id: t.String(),
  order_number: nullable(t.String()),
  status: t.Union([t.Literal("queued"), t.Literal("sent"), t.Literal("skipped"), t.Literal("failed")]),
  channel: nullable(t.String()),
  recipient: nullable(t.String()),
  text: nullable(t.String({ description: "The text sent (the rule filled with the order)" })),
  error: nullable(t.String({ description: "Why nothing was sent: a locale key" })),
  message_id: nullable(t.String({ format: "uuid" })),
  message_status: nullable(t.String({ description: "The message's status now (queued, sent, delivered, failed, optout…)" })),
  received_at: at,
  processed_at: nullable(at),
});
export const IntegrationEvents = Page(IntegrationEvent, "The newest events received");

export const TestAnswer = t.Object({
  data: t.Object({ order_id: t.String(), phone: nullable(t.String({ description: "Your mobile, where an SMS or WhatsApp rule sends" })), email: t.String() }),
});
export const Deleted = t.Object({ data: t.Object({ id: t.String({ format: "uuid" }), deleted: t.Literal(true) }) });
export const Received = t.Object({
  result: t.Union([t.Literal("queued"), t.Literal("duplicate"), t.Literal("ignored")], {
    description: "duplicate: this store, order and event were already received (nothing sent again)",
  }),
  event_id: nullable(t.String({ format: "uuid" })),
});
