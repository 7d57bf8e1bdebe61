/**
 * The staff's customers (issue 18, ADR 046): list and search, one customer, and a manual balance
 * adjustment with a reason. Thin: the use-cases (./customers.ts) check who and validate.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import * as R from "./responses";
import { ADJUSTMENT_MAX, adjustCustomerBalance, getCustomer, listCustomers, REASON_MAX, REASON_MIN } from "./customers";

const id = t.Object({ id: t.String() });

export const customerRoutes = new Elysia({ prefix: "/customers", tags: ["customers"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", ({ ctx, query }) => listCustomers(ctx, query), {
    query: t.Object({ q: t.Optional(t.String({ description: "A part of the name (case-insensitive)" })), ...pageQuery }),
    detail: {
      responses: { ...successResponse(R.CustomerPage), ...errorResponses(403, 422) },
      summary:
        "Customer accounts with balance, credit limit, status and plans held, by name: the platform's staff (owner, admin) sees every customer and reseller; a reseller's owner or admin only its own customers",
    },
  })
  .get("/:id", ({ ctx, params }) => getCustomer(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.CustomerDetail), ...errorResponses(403, 404) },
      summary: "One customer: account, address, balance, credit limit, plans held, last invoices, last ledger entries (who and why)",
    },
  })
  .post(
    "/:id/adjustments",
    async ({ ctx, params, body, request, set }) => {
      const answer = await adjustCustomerBalance(ctx, params.id, body, request.headers.get("Idempotency-Key"));
      if (answer.replayed) set.headers["idempotent-replayed"] = "true";
      return created(set, `/api/customers/${params.id}`, answer);
    },
    {
      params: id,
      headers: t.Object({
        "idempotency-key": t.Optional(
          t.String({
            description: "The same key again (same person, same customer, same amount and reason) answers the first adjustment without applying it twice; at most 100 characters",
          }),
        ),
      }),
      body: t.Object({
        amount: t.Optional(t.Unknown({ description: `Minor units (centavos), non-zero: positive credits, negative debits; |amount| at most ${ADJUSTMENT_MAX}` })),
        reason: t.Optional(t.Unknown({ description: `Why, ${REASON_MIN} to ${REASON_MAX} characters (trimmed); kept on the ledger entry` })),
      }),
      detail: {
        responses: { ...createdResponse(R.Adjustment, "The adjustment's ledger entry and the balance after it; Location is the customer"), ...errorResponses(403, 404, 409, 422) },
        summary:
          "Adjust a customer's balance (platform staff only): one `adjustment` posting of the ledger with the reason and the person; a debit applies even below zero. " +
          "422 on amount (zero, not an integer, beyond the maximum) or reason; 409 IDEMPOTENCY_CONFLICT when the key was used with another amount or reason",
      },
    },
  );
