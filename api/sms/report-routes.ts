/**
 * SMS reports API (JWT; spec section 7): history exports (POST/GET sms/reports, the CSV file),
 * charts and carriers per day, insights of a period, usage, the queue and per-campaign counts.
 * Thin: the use-cases (./exports, ./reports) validate, check the screen's permission and scope
 * by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { createExport, csvDownload, exportFile, getExport, listExports } from "./exports";
import { smsCampaignReport, smsCarriers, smsCharts, smsInsights, smsQueue, smsUsage } from "./reports";

const bearer = [{ bearer: [] }];
const day = (description: string) => t.Optional(t.Union([t.String({ description }), t.Null()]));

export const smsReportRoutes = new Elysia({ prefix: "/sms", tags: ["sms"], detail: { security: bearer } })
  .use(authenticated)
  .post("/reports", ({ ctx, body }) => createExport(ctx, body ?? {}).then((data) => ({ data })), {
    body: t.Optional(
      t.Object({
        id: t.Optional(t.Union([t.String({ description: "One message id" }), t.Null()])),
        from: t.Optional(t.Union([t.String({ description: "Sender, exact" }), t.Null()])),
        to: t.Optional(t.Union([t.String({ description: "Recipient (normalized to E.164)" }), t.Null()])),
        status: t.Optional(t.Union([t.String({ description: "One status of spec section 4" }), t.Null()])),
        sent_at: t.Optional(t.Object({ from: day("First day YYYY-MM-DD (São Paulo). Default today"), to: day("Last day YYYY-MM-DD; at most 31 days") })),
      }),
    ),
    detail: { summary: "Queue an export of the SMS history (CSV) with the history's filters: answers the export in state queued; then see GET /sms/reports" },
  })
  .get("/reports", ({ ctx }) => listExports(ctx).then((data) => ({ data })), {
    detail: { summary: "The account's last 50 exports, newest first: status queued|processing|done|failed, rows, file_size, error" },
  })
  .get("/reports/campaigns", ({ ctx, query }) => smsCampaignReport(ctx, query), {
    query: t.Object({ from: day("First day (default: 29 days before to)"), to: day("Last day (default today)") }),
    detail: { summary: "Campaigns created in a period (at most 31 days) with their messages counted per status and their cost" },
  })
  .get("/reports/:id", ({ ctx, params }) => getExport(ctx, params.id).then((data) => ({ data })), {
    params: t.Object({ id: t.String() }),
    detail: { summary: "One export (404 for another account's)" },
  })
  .get(
    "/reports/:id/file",
    async ({ ctx, params }) => {
      const file = await exportFile(ctx, params.id);
      return csvDownload(file);
    },
    {
      params: t.Object({ id: t.String() }),
      detail: { summary: "The export's CSV (UTF-8 with BOM; columns in ADR 009). 404 for another account's export; 409 EXPORT_NOT_READY before it is done" },
    },
  )
  .get("/messages/charts", ({ ctx, query }) => smsCharts(ctx, query), {
    query: t.Object({ days: t.Optional(t.String({ description: "7 (default) or 30" })) }),
    detail: { summary: "Per São Paulo day of the last 7 or 30 days: outbound messages per status, segments and cost (minor units)" },
  })
  .get("/messages/carriers", ({ ctx, query }) => smsCarriers(ctx, query), {
    query: t.Object({ days: t.Optional(t.String({ description: "7 (default) or 30" })) }),
    detail: { summary: "Outbound messages of the last 7 or 30 days per carrier (from the provider's receipts; null = not known yet) with delivery rate" },
  })
  .post("/insights", ({ ctx, body }) => smsInsights(ctx, body ?? {}), {
    body: t.Optional(t.Object({ from: day("First day YYYY-MM-DD (São Paulo). Default today"), to: day("Last day; at most 31 days") })),
    detail: { summary: "Totals of a period: messages, sent, delivered, failed, unavailable, rejected, waiting, delivery_rate, segments, cost, top error codes, carriers" },
  })
  .get("/usage", ({ ctx, query }) => smsUsage(ctx, query), {
    query: t.Object({ from: day("First day (default: the 1st of to's month)"), to: day("Last day (default today); at most 31 days") }),
    detail: { summary: "Per São Paulo day: outbound messages, segments and cost (minor units), with totals" },
  })
  .get("/queue", ({ ctx }) => smsQueue(ctx), {
    detail: { summary: "Messages not yet handed to a provider: counts of scheduled, pending, queued and sending, and the 20 waiting longest" },
  });
