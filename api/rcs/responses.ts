/**
 * The success answers of the RCS send routes (./routes), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse); in tests each answer is checked against its schema.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const at = nullable(t.String({ format: "date-time" }));
const priceClass = t.Union([t.Literal("basic"), t.Literal("rich")], { description: "basic: a plain text under 160 characters; rich: anything else (spec section 5)" });

export const RcsAccepted = t.Object({
  data: t.Object({
    id: t.String({ format: "uuid" }),
    to: t.String(),
    status: t.Union([t.Literal("queued"), t.Literal("optout"), t.Literal("rejected")], {
      description: "optout/rejected: the handset opted out or is on the deny list (price 0, not sent)",
    }),
    price: Type.Integer({ description: "Debited, in the currency's minor units" }),
    currency: t.String(),
    price_class: priceClass,
    fallback_sms: t.Boolean({ description: "A handset that is not RCS-capable gets the text as SMS instead" }),
    error_code: t.Optional(t.String()),
  }),
});

export const RcsQuote = t.Object({
  data: t.Object({ price_class: priceClass, price: Type.Integer(), currency: t.String() }),
});

export const RcsMessageOne = t.Object({
  data: t.Object({
    id: t.String({ format: "uuid" }),
    direction: t.Union([t.Literal("outbound"), t.Literal("inbound")]),
    agent_id: nullable(t.String({ format: "uuid", description: "The agent here" })),
    from: t.String({ description: "Outbound: the agent's Google id; inbound: the handset" }),
    to: t.String(),
    type: t.String({ description: "text, link, midia, card or card-carousel" }),
    content: nullable(t.Record(t.String(), t.Unknown(), { description: "The message's content as sent (spec section 3) and fallbackSms" })),
    body: t.String({ description: "Its plain text (the SMS fallback's)" }),
    status: t.String(),
    price: Type.Integer(),
    currency: t.String(),
    price_class: nullable(t.String()),
    provider_message_id: nullable(t.String()),
    error_code: nullable(t.String()),
    error_message: nullable(t.String()),
    created_at: t.String({ format: "date-time" }),
    sent_at: at,
    delivered_at: at,
    read_at: at,
    failed_at: at,
    fallback: nullable(
      t.Object(
        { id: t.String({ format: "uuid" }), status: t.String(), price: Type.Integer(), currency: t.String(), created_at: t.String({ format: "date-time" }) },
        { description: "The SMS that stood in for it" },
      ),
    ),
  }),
});
