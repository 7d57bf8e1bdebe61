/**
 * The staff's customers (issue 18, ADR 046): list and search, one customer, and a manual balance
 * adjustment with a reason; and their administration (issue 23, ADR 063): create, edit, suspend,
 * delete, attach people, short codes and WhatsApp numbers. Thin: the use-cases (./customers.ts,
 * ./admin.ts) check who and validate.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import * as R from "./responses";
import { ADJUSTMENT_MAX, adjustCustomerBalance, getCustomer, listCustomers, REASON_MAX, REASON_MIN } from "./customers";
import {
  attachUser,
  createCustomer,
  createCustomerShortCode,
  deleteCustomer,
  deleteCustomerShortCode,
  getCustomerNumber,
  getCustomerShortCode,
  listCustomerNumbers,
  listCustomerShortCodes,
  updateCustomer,
  updateCustomerNumber,
  updateCustomerShortCode,
} from "./admin";
import { ATTACH_ROLES, CARRIERS } from "./schemas";

const id = t.Object({ id: t.String() });
const shortCodeParams = t.Object({ id: t.String(), shortCodeId: t.String() });
const numberParams = t.Object({ id: t.String(), numberId: t.String() });
const WHO = "Platform staff: every customer; a reseller's owner or admin: its own customers (another's is 404); anyone else 403.";
const STAFF = "Platform staff only (a reseller reads, 403 on writes).";
const customerFields = {
  name: t.Optional(t.Unknown({ description: "Company (trade) name, 1 to 120 characters" })),
  corporate_name: t.Optional(t.Unknown({ description: "Legal name (razão social), up to 200 characters" })),
  billing_email: t.Optional(t.Unknown({ description: "Where invoices are addressed; empty clears it" })),
};
const shortCodeFields = {
  nickname: t.Optional(t.Unknown({ description: "Up to 40 characters" })),
  deliverability: t.Optional(t.Unknown({ description: `Carriers it is homologated with: ${CARRIERS.join(", ")}` })),
  status: t.Optional(t.Unknown({ description: "active or inactive" })),
  monthly_price: t.Optional(t.Unknown({ description: "Minor units a month, 0 to 10000000" })),
};

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
  .get("/search", ({ ctx, query }) => listCustomers(ctx, query), {
    query: t.Object({ q: t.Optional(t.String({ description: "A part of the name (case-insensitive)" })), ...pageQuery }),
    detail: { responses: { ...successResponse(R.CustomerPage), ...errorResponses(403, 422) }, summary: `Customers whose name contains q (the list's search). ${WHO}` },
  })
  .post(
    "",
    async ({ ctx, body, request, set }) => {
      const answer = await createCustomer(ctx, body, request.headers.get("Idempotency-Key"));
      if (answer.replayed) set.headers["idempotent-replayed"] = "true";
      return created(set, `/api/customers/${answer.data.id}`, answer);
    },
    {
      headers: t.Object({
        "idempotency-key": t.Optional(t.String({ description: "The same key again (same person, same body) answers the first customer; at most 100 characters" })),
      }),
      body: t.Object({
        ...customerFields,
        currency: t.Optional(t.Unknown({ description: "ISO 4217 code of a currency the platform has (BRL, USD…)" })),
        type: t.Optional(t.Unknown({ description: "customer (default) or reseller (platform staff only)" })),
      }),
      detail: {
        responses: { ...createdResponse(R.CreatedCustomer, "The new customer; Location is it"), ...errorResponses(403, 409, 422) },
        summary: `Create a customer account with no one in it yet (attach its owner next); a reseller's becomes its child. ${WHO} 422 on a field; 403 when a reseller asks for a reseller; 409 IDEMPOTENCY_CONFLICT when the key was used with another body`,
      },
    },
  )
  .put("/:id", ({ ctx, params, body }) => updateCustomer(ctx, params.id, body), {
    params: id,
    body: t.Object({
      ...customerFields,
      status: t.Optional(t.Unknown({ description: "active or suspended (a suspended customer's people sign in to nothing of it and send nothing)" })),
    }),
    detail: { responses: { ...successResponse(R.CustomerDetail), ...errorResponses(403, 404, 422) }, summary: `Edit a customer, suspend or activate it. ${WHO}` },
  })
  .delete("/:id", ({ ctx, params }) => deleteCustomer(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.Deleted), ...errorResponses(403, 404, 422) },
      summary: `Delete a customer (ADR 063: kept for its ledger, invoices and messages, out of every list, no one signs in to it; its short codes back to the inventory, its products cancelled). A reseller with customers: 422. ${WHO}`,
    },
  })
  .post(
    "/:id/attach",
    async ({ ctx, params, body, set }) => {
      const answer = await attachUser(ctx, params.id, body);
      return created(set, `/api/customers/${params.id}`, answer);
    },
    {
      params: id,
      body: t.Object({ email: t.Optional(t.Unknown({ description: "The person's e-mail" })), role: t.Optional(t.Unknown({ description: ATTACH_ROLES.join(", ") })) }),
      detail: {
        responses: { ...createdResponse(R.Attached, "Attached or invited; Location is the customer"), ...errorResponses(402, 403, 404, 409, 422) },
        summary: `Attach a person with a role: with a login already, a member at once; otherwise the invitation e-mail. 409 ALREADY_MEMBER. ${WHO}`,
      },
    },
  )
  .get("/:id/short-codes", ({ ctx, params }) => listCustomerShortCodes(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.ShortCodeList), ...errorResponses(403, 404) }, summary: `The customer's short codes, by number (one page). ${WHO}` },
  })
  .post(
    "/:id/short-codes",
    async ({ ctx, params, body, set }) => {
      const answer = await createCustomerShortCode(ctx, params.id, body);
      return created(set, `/api/customers/${params.id}/short-codes/${answer.data.id}`, answer);
    },
    {
      params: id,
      body: t.Object({ number: t.Optional(t.Unknown({ description: "4 to 8 digits, held by no other account" })), ...shortCodeFields }),
      detail: {
        responses: { ...createdResponse(R.OneShortCode, "The short code; Location is it"), ...errorResponses(403, 404, 422) },
        summary: `Assign a short code to the customer (a free number of the inventory, or a new one). ${STAFF}`,
      },
    },
  )
  .get("/:id/short-codes/:shortCodeId", ({ ctx, params }) => getCustomerShortCode(ctx, params.id, params.shortCodeId), {
    params: shortCodeParams,
    detail: { responses: { ...successResponse(R.OneShortCode), ...errorResponses(403, 404) }, summary: `One short code of the customer. ${WHO}` },
  })
  .put("/:id/short-codes/:shortCodeId", ({ ctx, params, body }) => updateCustomerShortCode(ctx, params.id, params.shortCodeId, body), {
    params: shortCodeParams,
    body: t.Object(shortCodeFields),
    detail: { responses: { ...successResponse(R.OneShortCode), ...errorResponses(403, 404, 422) }, summary: `Edit a customer's short code (not its number). ${STAFF}` },
  })
  .delete("/:id/short-codes/:shortCodeId", ({ ctx, params }) => deleteCustomerShortCode(ctx, params.id, params.shortCodeId), {
    params: shortCodeParams,
    detail: { responses: { ...successResponse(R.Released), ...errorResponses(403, 404) }, summary: `Take the short code from the customer: back to the inventory. ${STAFF}` },
  })
  .get("/:id/numbers", ({ ctx, params }) => listCustomerNumbers(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.NumberList), ...errorResponses(403, 404) }, summary: `The customer's WhatsApp numbers. ${WHO}` },
  })
  .get("/:id/numbers/:numberId", ({ ctx, params }) => getCustomerNumber(ctx, params.id, params.numberId), {
    params: numberParams,
    detail: { responses: { ...successResponse(R.OneNumber), ...errorResponses(403, 404) }, summary: `One WhatsApp number of the customer. ${WHO}` },
  })
  .put("/:id/numbers/:numberId", ({ ctx, params, body }) => updateCustomerNumber(ctx, params.id, params.numberId, body), {
    params: numberParams,
    body: t.Object({ monthly_price: t.Optional(t.Unknown({ description: "Minor units a month" })) }),
    detail: { responses: { ...successResponse(R.OneNumber), ...errorResponses(403, 404, 422) }, summary: `Set the number's monthly price. ${STAFF}` },
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
