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
  name: t.String(),
  type: t.Union([t.Literal("customer"), t.Literal("reseller")]),
  status: t.Union([t.Literal("active"), t.Literal("inactive"), t.Literal("suspended")]),
  currency: t.String({ description: "ISO 4217" }),
  balance: Type.Integer({ description: "Minor units (centavos); negative while a postpaid account uses its credit" }),
  credit_limit: Type.Integer({ description: "Minor units" }),
  available: Type.Integer({ description: "balance + credit_limit" }),
  parent_account_id: Nullable(t.String({ format: "uuid", description: "The reseller it belongs to" })),
  plans: t.Array(t.Object({ service: t.String(), name: t.String() }), { description: "Plans held now, by service" }),
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
