/**
 * E-mail history's API beyond the list (issue 17; spec section 7 "E-mail"), under /api/email with
 * the JWT: the preview of a sent message, the charts per day, the price rows, and history exports (CSV as a job: the SMS exports'
 * machinery, api/sms/exports.ts, kind `email`), the usage and the statistics (per day per status,
 * per campaign). Thin: the use-cases check the screen's permission and scope by account. Platform
 * staff's e-mail reports (every account's, or one's) are `emailAdminReportRoutes` (./admin-reports.ts).
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { errorResponses, fileResponse, successResponse } from "../http/openapi";
import { MAX_LIMIT, onePage } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import { createExport, csvDownload, exportFile, getExport, listExports } from "../sms/exports";
import { created201, SmsCampaignReport, SmsCharts, SmsExportList, SmsExportOne, SmsPrice, SmsUsage } from "../sms/responses";
import { adminEmailMessage, adminEmailMessages, adminEmailStat, adminEmailUsage } from "./admin-reports";
import { emailCampaignReport, emailCharts, emailStat, emailUsage, getEmailPrice, updateEmailPrice } from "./figures";
import { AdminEmailMessageOne, AdminEmailMessages, AdminEmailStat, AdminEmailUsage } from "./responses";
import { PREVIEW_CSP, previewEmailMessage } from "./history";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const text = (description: string) => t.Optional(t.Union([t.String({ description }), t.Null()]));
const exportBody = t.Optional(
  t.Object({
    id: text("One message id"),
    from: text("The sending address, exact"),
    to: text("The recipient's address, exact"),
    status: text("One status of spec section 4 (e-mail's too: bounced, dropped, deferred, blocked, opened, clicked)"),
    sent_at: t.Optional(t.Object({ from: text("First day YYYY-MM-DD (São Paulo). Default today"), to: text("Last day YYYY-MM-DD; at most 31 days") })),
  }),
);
const day = (description: string) => t.Optional(t.Union([t.String({ description }), t.Null()]));
const statRange = { from: day("First day YYYY-MM-DD (São Paulo). Default: 6 days before `to`"), to: day("Last day (default today); at most 31 days") };
const monthRange = { from: day("First day YYYY-MM-DD (São Paulo). Default: the 1st of to's month"), to: day("Last day (default today); at most 31 days") };
const exportSummary =
  "Queue an export of the e-mail history (CSV) with the history's filters: answers 201 with the export in state queued (Location: its URL); the CSV is then GET /email/reports/{id}/file";

export const emailReportRoutes = new Elysia({ prefix: "/email", tags: ["email"], detail: { security: bearer } })
  .use(authenticated)
  .get(
    "/:id/preview",
    async ({ ctx, params }) => {
      const { document } = await previewEmailMessage(ctx, params.id);
      return new Response(document, {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": PREVIEW_CSP,
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": "private, no-store",
        },
      });
    },
    {
      params: id,
      detail: {
        responses: { ...fileResponse({ "text/html": "The message's HTML (or its text, escaped) as one document" }, "The rendered e-mail"), ...errorResponses(404) },
        summary:
          "The e-mail as it was sent, one HTML document to show in a sandboxed frame (served sandboxed: no script runs, only inline styles and https/data images load); a text-only message is its text. 404 for another account's",
      },
    },
  )
  .post(
    "/reports",
    async ({ ctx, body, set }) => {
      const data = await createExport(ctx, body ?? {}, "email");
      return created(set, `/api/email/reports/${data.id}`, { data });
    },
    { body: exportBody, detail: { responses: { ...created201(SmsExportOne, "The export, queued"), ...errorResponses(422) }, summary: exportSummary } },
  )
  .post(
    "/reports/export",
    async ({ ctx, body, set }) => {
      const data = await createExport(ctx, body ?? {}, "email");
      return created(set, `/api/email/reports/${data.id}`, { data });
    },
    {
      body: exportBody,
      detail: { responses: { ...created201(SmsExportOne, "The export, queued"), ...errorResponses(422) }, summary: `${exportSummary} (the spec's name of POST /email/reports)` },
    },
  )
  .get("/usage", async ({ ctx, query }) => ({ ...(await emailUsage(ctx, query)), next_cursor: null }), {
    query: t.Object(monthRange),
    detail: {
      responses: { ...successResponse(SmsUsage), ...errorResponses(422) },
      summary: "Per São Paulo day of a period (one page: at most 31 days): the account's outbound e-mails and their cost (minor units), with totals (segments: one per e-mail)",
    },
  })
  .get("/reports/stat", async ({ ctx, query }) => ({ ...(await emailStat(ctx, query)), next_cursor: null }), {
    query: t.Object(statRange),
    detail: {
      responses: { ...successResponse(t.Omit(SmsCharts, ["days"])), ...errorResponses(422) },
      summary:
        "Per São Paulo day of a period (one page: at most 31 days; default the last 7): the account's e-mails per status (delivered, opened, clicked, bounced, dropped, blocked…) and their cost, with totals",
    },
  })
  .get("/reports/campaigns", ({ ctx, query }) => emailCampaignReport(ctx, query), {
    query: t.Object({ ...statRange, ...pageQuery }),
    detail: {
      responses: { ...successResponse(SmsCampaignReport), ...errorResponses(422) },
      summary: `The account's e-mail campaigns created in a period (default the last 7 days, at most 31), newest first, their e-mails counted per status, with their cost; \`limit\` a page (default 50, at most ${MAX_LIMIT}), then \`cursor\``,
    },
  })
  .get("/reports", async ({ ctx }) => onePage(await listExports(ctx, 50, "email")), {
    detail: {
      responses: successResponse(SmsExportList),
      summary: "The account's last 50 e-mail exports (one page: exports are kept 7 days), newest first: status queued|processing|done|failed, rows, file_size, error",
    },
  })
  .get("/reports/:id", ({ ctx, params }) => getExport(ctx, params.id, "email").then((data) => ({ data })), {
    params: id,
    detail: { responses: { ...successResponse(SmsExportOne), ...errorResponses(404) }, summary: "One e-mail export (404 for another account's or another channel's)" },
  })
  .get("/reports/:id/file", async ({ ctx, params }) => csvDownload(await exportFile(ctx, params.id, "email")), {
    params: id,
    detail: {
      responses: {
        ...fileResponse(
          {
            "text/csv": "UTF-8 with BOM; columns: id, created_at, sent_at, delivered_at, opened_at, sender, recipient, subject, status, error_code, error_message, price, currency",
          },
          "The export's CSV (attachment)",
        ),
        ...errorResponses(404, 409),
      },
      summary: "The e-mail export's CSV (UTF-8 with BOM, São Paulo times). 404 for another account's export; 409 EXPORT_NOT_READY before it is done",
    },
  })
  .get("/messages/charts", async ({ ctx, query }) => ({ ...(await emailCharts(ctx, query)), next_cursor: null }), {
    query: t.Object({ days: t.Optional(t.String({ description: "7 (default) or 30" })) }),
    detail: {
      responses: { ...successResponse(SmsCharts), ...errorResponses(422) },
      summary:
        "Per São Paulo day of the last 7 or 30 days (one page: one row a day): the account's e-mails per status (delivered, opened, clicked, bounced, dropped, blocked…) and their cost (minor units), with totals",
    },
  })
  .get("/prices/:id", ({ ctx, params }) => getEmailPrice(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(SmsPrice), ...errorResponses(404) },
      summary: "One e-mail price row (route T1; price_per_segment is the price of one e-mail, minor units) of the account (platform staff: of any account); 404 otherwise",
    },
  })
  .put("/prices/:id", ({ ctx, params, body }) => updateEmailPrice(ctx, params.id, body), {
    params: id,
    body: t.Object({ price_per_segment: t.Union([t.Integer({ minimum: 0 }), t.String()], { description: "Integer minor units per e-mail" }) }),
    detail: { responses: { ...successResponse(SmsPrice), ...errorResponses(403, 404, 422) }, summary: "Change an e-mail price: platform staff only (403 for anyone else)" },
  });

const accountQuery = { account_id: t.Optional(t.String({ description: "One account (uuid); absent: every account" })) };

/** Platform staff's e-mail reports (policy /admin/email/reports/*; ./admin-reports checks the staff): every account's figures and history, or one account's. */
export const emailAdminReportRoutes = new Elysia({ prefix: "/admin/email/reports", tags: ["admin"], detail: { security: bearer } })
  .use(authenticated)
  .get("/stat", async ({ ctx, query }) => ({ ...(await adminEmailStat(ctx, query)), next_cursor: null }), {
    query: t.Object({ ...statRange, ...accountQuery }),
    detail: {
      responses: { ...successResponse(AdminEmailStat), ...errorResponses(403, 422) },
      summary:
        "Platform-wide e-mail statistics of a period (one page: at most 31 days, default the last 7): per day e-mails per status, the cost per currency, the 20 accounts with the most e-mails",
    },
  })
  .get("/usage", async ({ ctx, query }) => ({ ...(await adminEmailUsage(ctx, query)), next_cursor: null }), {
    query: t.Object({ ...monthRange, ...accountQuery }),
    detail: {
      responses: { ...successResponse(AdminEmailUsage), ...errorResponses(403, 422) },
      summary: "Platform-wide e-mail usage per São Paulo day of a period (one page: at most 31 days, default this month so far): e-mails and cost per currency; per account",
    },
  })
  .get("/messages", ({ ctx, query }) => adminEmailMessages(ctx, query), {
    query: t.Object({
      id: t.Optional(t.String({ description: "One message id" })),
      status: t.Optional(t.String({ description: "One e-mail status (delivered, opened, bounced…)" })),
      from: t.Optional(t.String({ description: "The sending address, exact" })),
      to: t.Optional(t.String({ description: "The recipient's address, exact" })),
      "created_at[gte]": t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo). Default: the last day" })),
      "created_at[lte]": t.Optional(t.String({ description: "Last day YYYY-MM-DD (São Paulo). Default: today; at most 31 days in all" })),
      ...accountQuery,
      ...pageQuery,
    }),
    detail: {
      responses: { ...successResponse(AdminEmailMessages), ...errorResponses(403, 422) },
      summary: "Every account's e-mails of a range of São Paulo days, newest first, each with its account; a keyset page of `limit` (send `cursor` back with the same filters)",
    },
  })
  .get("/messages/:id", ({ ctx, params }) => adminEmailMessage(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(AdminEmailMessageOne), ...errorResponses(403, 404) },
      summary: "One e-mail of any account with its account, events, counts of opens and clicks, and content",
    },
  });
