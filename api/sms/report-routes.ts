/**
 * SMS reports API (JWT; spec section 7): history exports (POST/GET sms/reports, the CSV file),
 * charts and carriers per day, insights of a period, usage, the queue and per-campaign counts.
 * Thin: the use-cases (./exports, ./reports) validate, check the screen's permission and scope
 * by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { errorResponses, successResponse } from "../http/openapi";
import { MAX_LIMIT, onePage } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import { createExport, csvDownload, exportFile, getExport, listExports } from "./exports";
import { smsCampaignReport, smsCarriers, smsCharts, smsInsights, smsQueue, smsUsage } from "./reports";
import { created201, file200, SmsCampaignReport, SmsCarriers, SmsCharts, SmsExportList, SmsExportOne, SmsInsights, SmsQueue, SmsUsage } from "./responses";

const bearer = [{ bearer: [] }];
const day = (description: string) => t.Optional(t.Union([t.String({ description }), t.Null()]));

export const smsReportRoutes = new Elysia({ prefix: "/sms", tags: ["sms"], detail: { security: bearer } })
  .use(authenticated)
  .post(
    "/reports",
    async ({ ctx, body, set }) => {
      const data = await createExport(ctx, body ?? {});
      return created(set, `/api/sms/reports/${data.id}`, { data });
    },
    {
      body: t.Optional(
        t.Object({
          id: t.Optional(t.Union([t.String({ description: "One message id" }), t.Null()])),
          from: t.Optional(t.Union([t.String({ description: "Sender, exact" }), t.Null()])),
          to: t.Optional(t.Union([t.String({ description: "Recipient (normalized to E.164)" }), t.Null()])),
          status: t.Optional(t.Union([t.String({ description: "One status of spec section 4" }), t.Null()])),
          sent_at: t.Optional(t.Object({ from: day("First day YYYY-MM-DD (São Paulo). Default today"), to: day("Last day YYYY-MM-DD; at most 31 days") })),
        }),
      ),
      detail: {
        responses: created201(SmsExportOne, "The export, queued; Location is its URL"),
        summary: "Queue an export of the SMS history (CSV) with the history's filters: answers 201 with the export in state queued; then see GET /sms/reports/{id}",
      },
    },
  )
  .get("/reports", async ({ ctx }) => onePage(await listExports(ctx)), {
    detail: {
      responses: successResponse(SmsExportList),
      summary: "The account's last 50 exports (one page: exports are kept 7 days), newest first: status queued|processing|done|failed, rows, file_size, error",
    },
  })
  .get("/reports/campaigns", ({ ctx, query }) => smsCampaignReport(ctx, query), {
    query: t.Object({ from: day("First day (default: 29 days before to)"), to: day("Last day (default today)"), ...pageQuery }),
    detail: {
      responses: successResponse(SmsCampaignReport),
      summary: `Campaigns created in a period (at most 31 days), newest first, with their messages counted per status and their cost; \`limit\` a page (default 50, at most ${MAX_LIMIT}), then \`cursor\``,
    },
  })
  .get("/reports/:id", ({ ctx, params }) => getExport(ctx, params.id).then((data) => ({ data })), {
    params: t.Object({ id: t.String() }),
    detail: { responses: successResponse(SmsExportOne), summary: "One export (404 for another account's)" },
  })
  .get(
    "/reports/:id/file",
    async ({ ctx, params }) => {
      const file = await exportFile(ctx, params.id);
      return csvDownload(file);
    },
    {
      params: t.Object({ id: t.String() }),
      detail: {
        responses: { ...file200({ "text/csv": "UTF-8 with BOM; columns in ADR 009" }, "The export's CSV (attachment)"), ...errorResponses(409) },
        summary: "The export's CSV (UTF-8 with BOM; columns in ADR 009). 404 for another account's export; 409 EXPORT_NOT_READY before it is done",
      },
    },
  )
  .get("/messages/charts", async ({ ctx, query }) => ({ ...(await smsCharts(ctx, query)), next_cursor: null }), {
    query: t.Object({ days: t.Optional(t.String({ description: "7 (default) or 30" })) }),
    detail: {
      responses: successResponse(SmsCharts),
      summary: "Per São Paulo day of the last 7 or 30 days (one page: one row a day): outbound messages per status, segments and cost (minor units)",
    },
  })
  .get("/messages/carriers", async ({ ctx, query }) => ({ ...(await smsCarriers(ctx, query)), next_cursor: null }), {
    query: t.Object({ days: t.Optional(t.String({ description: "7 (default) or 30" })) }),
    detail: {
      responses: successResponse(SmsCarriers),
      summary: "Outbound messages of the last 7 or 30 days per carrier (one page: one row a carrier; from the provider's receipts, null = not known yet) with delivery rate",
    },
  })
  .post("/insights", ({ ctx, body }) => smsInsights(ctx, body ?? {}), {
    body: t.Optional(t.Object({ from: day("First day YYYY-MM-DD (São Paulo). Default today"), to: day("Last day; at most 31 days") })),
    detail: {
      responses: successResponse(SmsInsights),
      summary: "Totals of a period: messages, sent, delivered, failed, unavailable, rejected, waiting, delivery_rate, segments, cost, top error codes, carriers",
    },
  })
  .get("/usage", async ({ ctx, query }) => ({ ...(await smsUsage(ctx, query)), next_cursor: null }), {
    query: t.Object({ from: day("First day (default: the 1st of to's month)"), to: day("Last day (default today); at most 31 days") }),
    detail: {
      responses: successResponse(SmsUsage),
      summary: "Per São Paulo day of a period (one page: at most 31 days): outbound messages, segments and cost (minor units), with totals",
    },
  })
  .get("/queue", ({ ctx }) => smsQueue(ctx), {
    detail: {
      responses: successResponse(SmsQueue),
      summary:
        "Messages not yet handed to a provider: counts of scheduled, pending, queued and sending, and the 20 waiting longest (from, to; sender/recipient are deprecated aliases)",
    },
  });
