/**
 * The success answers of the products routes (routes.ts), as TypeBox schemas for the OpenAPI
 * document; in tests every answer is checked against them.
 */
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const DateTime = (description: string) => t.String({ format: "date-time", description });
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const Product = t.Object({
  id: t.String({ format: "uuid" }),
  account_id: t.String({ format: "uuid" }),
  channel: t.Union([t.Literal("sms"), t.Literal("email"), t.Literal("whatsapp"), t.Literal("rcs"), t.Literal("omni")]),
  name: t.String(),
  billing_cycle: t.Union([t.Literal("prepaid"), t.Literal("weekly"), t.Literal("biweekly"), t.Literal("monthly")]),
  currency: t.Union([t.Literal("BRL"), t.Literal("USD"), t.Literal("EUR")]),
  kind: t.Union([t.Literal("credits"), t.Literal("unlimited")]),
  credits: Nullable(t.Integer({ description: "Units per period (SMS segments, e-mails); null when unlimited" })),
  credits_left: Nullable(t.Integer({ description: "Units left in the current period; null when unlimited" })),
  price: t.Integer({ minimum: 0, description: "Per period (prepaid: once), minor units of the currency" }),
  period_start: DateTime("The current period's start (a São Paulo midnight)"),
  period_end: Nullable(DateTime("The current period's end, when it renews; null for prepaid")),
  renews_at: Nullable(DateTime("When it is next charged; null for prepaid or cancelled")),
  status: t.Union([t.Literal("active"), t.Literal("suspended"), t.Literal("cancelled")], {
    description: "suspended: its renewal could not be paid, it covers nothing until the next renewal is paid",
  }),
  used_up: t.Boolean({ description: "A prepaid credits product whose credits are spent" }),
  created_at: DateTime("When it was hired"),
  updated_at: DateTime("Last change"),
});

export const ProductAnswer = t.Object({ data: Product });
export const ProductList = Page(Product, "Products, newest first (cancelled ones included), keyset paged");
