/**
 * The success answers of the customers routes (routes.ts), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse). In tests every answer is checked against them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const DateTime = t.String({ format: "date-time" });
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const Customer = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String({ description: "The company (trade) name" }),
  corporate_name: t.String({ description: "The legal name (razão social); empty when not given" }),
  billing_email: t.String({ description: "Where invoices are addressed; empty when not given" }),
  type: t.Union([t.Literal("customer"), t.Literal("reseller")]),
  status: t.Union([t.Literal("active"), t.Literal("inactive"), t.Literal("suspended")]),
  currency: t.String({ description: "ISO 4217" }),
  balance: Type.Integer({ description: "Minor units (centavos); negative while a postpaid account uses its credit" }),
  credit_limit: Type.Integer({ description: "Minor units" }),
  available: Type.Integer({ description: "balance + credit_limit" }),
  parent_account_id: Nullable(t.String({ format: "uuid", description: "The reseller it belongs to" })),
  plans: t.Array(t.Object({ id: t.String({ format: "uuid", description: "The plan" }), service: t.String(), name: t.String() }), { description: "Plans held now, by service" }),
  created_at: DateTime,
});

export const CustomerPage = Page(Customer, "Customer accounts by name, keyset paged");

export const LedgerEntry = t.Object({
  id: t.String({ description: "The customer leg's id" }),
  posting: t.String({ format: "uuid", description: "The posting (its two legs share it)" }),
  kind: t.String({ description: "opening, message, refund, topup, adjustment, plan_fee, agent, product" }),
  amount: Type.Integer({ description: "Minor units on the customer's book: positive credits, negative debits" }),
  currency: t.String(),
  reference: Nullable(t.String()),
  reason: Nullable(t.String()),
  created_by: Nullable(t.String({ format: "uuid", description: "The person who made it (staff adjustments, plan changes)" })),
  created_by_email: Nullable(t.String()),
  created_at: DateTime,
});

export const CustomerDetail = t.Object({
  data: t.Composite([
    Customer,
    t.Object({
      address: t.Object({
        street: Nullable(t.String()),
        number: Nullable(t.String()),
        complement: Nullable(t.String()),
        district: Nullable(t.String()),
        city: Nullable(t.String()),
        province: Nullable(t.String()),
        postal_code: Nullable(t.String()),
      }),
      invoices: t.Array(
        t.Object({
          id: t.String(),
          kind: t.String(),
          status: t.String(),
          amount: Type.Integer(),
          currency: t.String(),
          due_at: DateTime,
          paid_at: Nullable(DateTime),
          created_at: DateTime,
        }),
        { description: "The last 10 invoices, newest first" },
      ),
      entries: t.Array(LedgerEntry, { description: "The last 30 entries of the customer's book, newest first" }),
      can_adjust: t.Boolean({ description: "The caller may adjust this balance (platform staff)" }),
    }),
  ]),
});

export const Adjustment = t.Object({
  data: t.Composite([LedgerEntry, t.Object({ balance_after: Type.Integer({ description: "The customer's balance right after this adjustment, minor units" }) })]),
  replayed: t.Boolean({ description: "True when an Idempotency-Key already used answered its first adjustment (nothing applied again)" }),
});

/** POST /api/customers: the new customer (as GET /api/customers/{id}) and whether a used Idempotency-Key answered it. */
export const CreatedCustomer = t.Object({
  data: CustomerDetail.properties.data,
  replayed: t.Boolean({ description: "True when the Idempotency-Key was used before: the customer created then, nothing created again" }),
});

export const Deleted = t.Object({ data: t.Object({ id: t.String({ format: "uuid" }), deleted: t.Literal(true) }) });

export const Attached = t.Object({
  data: t.Object({
    outcome: t.Union([t.Literal("attached"), t.Literal("invited")], {
      description: "attached: the person had a login and is a member now; invited: the invitation e-mail went out",
    }),
    email: t.String(),
    role: t.String(),
    user_id: Nullable(t.String({ format: "uuid" })),
    invitation_id: Nullable(t.String({ format: "uuid" })),
  }),
});

export const CustomerShortCode = t.Object({
  id: t.String({ format: "uuid" }),
  account_id: t.String({ format: "uuid" }),
  number: t.String({ description: "4 to 8 digits" }),
  nickname: t.String(),
  deliverability: t.Array(t.String(), { description: "Carriers it is homologated with" }),
  status: t.Union([t.Literal("active"), t.Literal("inactive")]),
  monthly_price: Type.Integer({ description: "What the customer pays for it each month, minor units (an inactive code is not charged)" }),
  created_at: DateTime,
  updated_at: DateTime,
});
export const OneShortCode = t.Object({ data: CustomerShortCode });
export const ShortCodeList = t.Object({ data: t.Array(CustomerShortCode, { description: "By number" }), next_cursor: t.Null() });
export const Released = t.Object({ data: t.Object({ id: t.String({ format: "uuid" }), released: t.Literal(true) }) });

export const CustomerNumber = t.Object({
  id: t.String({ format: "uuid" }),
  account_id: t.String({ format: "uuid" }),
  integration: t.Union([t.Literal("cloud"), t.Literal("onprem")], { description: "Meta's Cloud API or an On-Premises client of a BSP" }),
  phone_number_id: t.String(),
  waba_id: Nullable(t.String()),
  display_phone_number: t.String(),
  verified_name: t.String(),
  quality_rating: t.String(),
  messaging_limit: t.String(),
  monthly_price: Type.Integer({ description: "Minor units a month" }),
  templates: Type.Integer({ description: "Message templates submitted from it" }),
  created_at: DateTime,
  updated_at: DateTime,
});
export const OneNumber = t.Object({ data: CustomerNumber });
export const NumberList = t.Object({ data: t.Array(CustomerNumber), next_cursor: t.Null() });
