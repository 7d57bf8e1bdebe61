/**
 * The success answer of GET /api/usage (routes.ts), as a TypeBox schema for the OpenAPI document
 * (api/http/openapi.ts successResponse). In tests every answer is checked against it
 * (api/http/response-check.ts).
 */
import { t } from "elysia";

const count = (description: string) => t.Integer({ minimum: 0, description });
const figures = {
  quantity: count("Outbound messages created in the period (every status, refunded ones included)"),
  refunded: count(
    "Of those, how many were not charged in the end: failed before the provider took them (their price went back) or ended in a failure status at no cost (rejected in moderation, opted out…)",
  ),
  segments: count("Their segments (SMS parts; 1 per message on other channels)"),
  amount: t.Integer({ description: "What they cost, in minor units of the currency (centavos): what the ledger charged, refunds already deducted" }),
};
const product = {
  channel: t.String({ description: "sms, email, whatsapp…" }),
  route: t.Union([t.String(), t.Null()], { description: "The product: the channel's route (T1, T2… for SMS); null when the channel has none" }),
};

export const UsageFigures = t.Object(figures);
export const UsageChannel = t.Object({ ...product, ...figures });
export const UsageDay = t.Object({ date: t.String({ format: "date", description: "A São Paulo calendar day (YYYY-MM-DD)" }), ...product, ...figures });

export const UsageAnswer = t.Object({
  period: t.Union([t.Literal("7d"), t.Literal("30d"), t.Literal("custom")], { description: "What was asked: the last 7 or 30 days (today included), or from/to" }),
  from: t.String({ format: "date", description: "First São Paulo day, included" }),
  to: t.String({ format: "date", description: "Last São Paulo day, included" }),
  time_zone: t.String({ description: "The zone of the days (America/Sao_Paulo)" }),
  currency: t.String({ description: "ISO 4217, the account's" }),
  totals: UsageFigures,
  channels: t.Array(UsageChannel, { description: "Per channel and route, over the whole period; by channel then route" }),
  days: t.Array(UsageDay, { description: "Per São Paulo day, channel and route; only days with messages, oldest first" }),
});
