/**
 * Billing over the API (issue 18, ADR 043): the account's invoices and top-ups (JWT), and the
 * payment provider's signed webhook (no JWT: the signature over the raw body is the
 * authentication, checked before anything is read or written).
 */
import { Elysia, t } from "elysia";
import { verifyWebhook } from "../channels/webhook-signature";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, fileResponse, successResponse } from "../http/openapi";
import { AppError } from "../lib/errors";
import { Page, pageQuery } from "../lib/page-schema";
import { createTopup, getInvoice, listInvoices, TOPUP_MAX, TOPUP_MIN } from "./invoices";
import { invoicePdf } from "./invoice-pdf";
import { billingOverview } from "./overview";
import { Product } from "../products/responses";
import { paymentProvider } from "./payment-provider";
import { applyPaymentEvent } from "./payments";

const bearer = [{ bearer: [] }];

export const Invoice = t.Object({
  id: t.String(),
  kind: t.String({ description: "topup (a prepaid balance's top-up) or cycle (a postpaid period's usage)" }),
  status: t.String({ description: "pending, paid or fail" }),
  amount: t.Integer({ description: "Minor units of the currency (centavos)" }),
  currency: t.String(),
  due_at: t.String({ description: "ISO 8601, UTC" }),
  paid_at: t.Union([t.String(), t.Null()]),
  created_at: t.String(),
  period_start: t.Union([t.String(), t.Null()], { description: "A cycle invoice's period: its first instant (a São Paulo midnight, ISO 8601 UTC); null for a top-up" }),
  period_end: t.Union([t.String(), t.Null()], { description: "A cycle invoice's period: the instant after its last (the next São Paulo midnight), exclusive" }),
  pix: t.Union(
    [
      t.Object({
        payload: t.String({ description: 'The Pix BR Code (EMV "copia e cola", CRC16 at the end)' }),
        txid: t.String(),
        pay_url: t.Union([t.String(), t.Null()], { description: "The provider's page where it can be paid (the loopback PSP's, in development)" }),
      }),
      t.Null(),
    ],
    { description: "While the invoice can be paid (pending, or a cycle invoice failed for being overdue): how to pay it" },
  ),
});
export const InvoiceLine = t.Object({
  item: t.String({ description: "topup, or a cycle's usage: message, refund, plan_fee, agent" }),
  quantity: t.Integer({ description: "How many postings of that kind" }),
  amount: t.Integer({ description: "Minor units (a refund's is negative); the lines sum to the invoice's amount" }),
});
const InvoiceAnswer = t.Object({ data: Invoice });
const InvoiceDetail = t.Object({ data: t.Composite([Invoice, t.Object({ lines: t.Array(InvoiceLine, { description: "Its line items" }) })]) });

const DateTime = t.String({ format: "date-time" });
const Overview = t.Object({
  currency: t.String(),
  balance: t.Integer({ description: "Minor units; negative while a postpaid account uses its credit" }),
  credit_limit: t.Integer(),
  available: t.Integer({ description: "balance + credit_limit: what sends may still spend" }),
  status: t.String({ description: "active, inactive or suspended (an overdue invoice)" }),
  plans: t.Array(
    t.Object({
      plan_id: t.String(),
      service: t.String(),
      name: t.String(),
      price: t.Integer(),
      currency: t.String(),
      billing_cycle: t.String(),
      is_trial: t.Boolean(),
      period_start: t.Union([DateTime, t.Null()]),
      period_end: t.Union([DateTime, t.Null()]),
      renews_at: t.Union([DateTime, t.Null()], { description: "When the next period is paid (null: it does not renew)" }),
      ends_at: t.Union([DateTime, t.Null()], { description: "When it ends (a trial), null when it goes on" }),
    }),
  ),
  next_invoice: t.Union([t.Object({ id: t.String(), kind: t.String(), status: t.String(), amount: t.Integer(), currency: t.String(), due_at: DateTime }), t.Null()]),
  last_30_days: t.Array(
    t.Object({ kind: t.String({ description: "message, refund, topup, adjustment, plan_fee, agent" }), amount: t.Integer({ description: "Net, minor units: negative is spent" }) }),
  ),
  trial_ended: t.Union([t.Object({ ended_at: DateTime, service: t.String() }), t.Null()], { description: "A trial that ended: the account is asked to choose a plan" }),
  products: t.Array(Product, { description: "The products hired for the account, not cancelled (ADR 048); empty for a role that may not see them" }),
});

export const billingRoutes = new Elysia({ tags: ["billing"], detail: { security: bearer } })
  .use(authenticated)
  .get("/billing", ({ ctx }) => billingOverview(ctx), {
    detail: {
      responses: successResponse(Overview),
      summary:
        "The account's billing at a glance: balance, credit limit, plans held (period, renewal, end), products hired, the next invoice to pay, the last 30 days' money by kind",
    },
  })
  .get("/invoices", ({ ctx, query }) => listInvoices(ctx, query), {
    query: t.Object({ status: t.Optional(t.String({ description: "pending, paid or fail" })), ...pageQuery }),
    detail: { responses: successResponse(Page(Invoice)), summary: "The account's invoices, newest first, keyset paged" },
  })
  .get("/invoices/:id", ({ ctx, params }) => getInvoice(ctx, params.id), {
    params: t.Object({ id: t.String() }),
    detail: {
      responses: { ...successResponse(InvoiceDetail), ...errorResponses(404) },
      summary: "One invoice of the account: its line items, and its Pix charge while it can be paid",
    },
  })
  .get(
    "/invoices/:id/pdf",
    async ({ ctx, params, set }) => {
      const { bytes, filename } = await invoicePdf(ctx, params.id);
      set.headers["content-type"] = "application/pdf";
      set.headers["content-disposition"] = `attachment; filename="${filename}"`;
      set.headers["cache-control"] = "private, no-store";
      return new Response(Buffer.from(bytes));
    },
    {
      params: t.Object({ id: t.String() }),
      detail: {
        responses: { ...fileResponse({ "application/pdf": "The invoice as a PDF (attachment)" }, "The invoice's PDF"), ...errorResponses(404) },
        summary: "One invoice of the account as a PDF: the account's name and address, dates, status, line items, total and, while pending, the Pix copia e cola",
      },
    },
  )
  .post(
    "/invoices",
    async ({ ctx, body, set }) => {
      const answer = await createTopup(ctx, body);
      return created(set, `/api/invoices/${answer.data.id}`, answer);
    },
    {
      body: t.Object({ amount: t.Optional(t.Unknown({ description: `Minor units (centavos), ${TOPUP_MIN} to ${TOPUP_MAX}` })) }),
      detail: {
        responses: { ...createdResponse(InvoiceAnswer, "The top-up invoice, pending, with its Pix BR Code and pay page; Location is the invoice"), ...errorResponses(422, 502) },
        summary:
          "Top up the prepaid balance: a pending invoice charged as Pix at the payment provider (BRL). The provider's signed confirmation credits the balance once. " +
          "422 on amount below the minimum or above the maximum; 502 PROVIDER_UNAVAILABLE when the provider does not answer (nothing is kept)",
      },
    },
  );

/** A provider's event is small. */
const MAX_EVENT_BYTES = 64 * 1024;

export const paymentWebhookRoutes = new Elysia({ prefix: "/webhooks/payments", tags: ["webhooks"] }).post(
  "/:provider",
  async ({ params, request }) => {
    const provider = paymentProvider(params.provider);
    if (!provider) throw new AppError("NOT_FOUND");
    const raw = await request.text();
    if (raw.length > MAX_EVENT_BYTES) throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
    if (!verifyWebhook(provider.secrets(), request.headers, raw).ok) throw new AppError("UNAUTHENTICATED");
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
    }
    return applyPaymentEvent(provider, provider.parseEvent(json), json);
  },
  {
    parse: "none",
    params: t.Object({ provider: t.String() }),
    detail: {
      responses: {
        ...successResponse(
          t.Object({ result: t.String({ description: "credited, failed, duplicate, already_settled or amount_mismatch" }), invoice_id: t.String() }),
          "What the event did",
        ),
        ...errorResponses(401, 404, 422),
      },
      summary:
        "A payment provider's signed event (Standard Webhooks headers over the raw body): {id, type: charge.paid|charge.failed, data: {charge_id, amount, occurred_at}}. " +
        "A paid charge of a pending invoice for its exact amount marks it paid and credits the balance through the ledger, once: a replayed event answers duplicate. " +
        "401 when the signature is missing, wrong or older than 5 minutes; 404 for a charge we do not know (nothing stored)",
    },
  },
);

/** Both, as one plugin for the app (api/app.ts). */
export const billingApi = new Elysia({ name: "billing-api" }).use(billingRoutes).use(paymentWebhookRoutes);
