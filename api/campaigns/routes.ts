/**
 * SMS campaigns API (JWT): list with per-status counts, one campaign, pause/resume/cancel, delete,
 * and the CSV of a file send's invalid rows.
 * Thin: the use-cases (./control) check permission, validate and scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { errorResponses, successResponse } from "../http/openapi";
import { fromAcceptLanguage } from "../lib/i18n";
import { MAX_LIMIT } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import { file200 } from "../sms/responses";
import { invalidRowsHeaders, invalidRowsReport, reportStream } from "../sms/invalid-rows";
import { controlCampaign, deleteCampaign, getCampaign, getCampaignClicks, listCampaigns } from "./control";
import { CampaignClicksOne, CampaignControlled, CampaignDeleted, CampaignOne, CampaignPage } from "./responses";

const bearer = [{ bearer: [] }];

export const campaignRoutes = new Elysia({ prefix: "/sms/campaigns", tags: ["sms"], detail: { security: bearer } })
  .use(authenticated)
  .get("", ({ ctx, query }) => listCampaigns(ctx, query), {
    query: t.Object({
      page: t.Optional(t.String({ deprecated: true, description: "1-based page of `limit` campaigns (OFFSET; prefer cursor)" })),
      status: t.Optional(t.String({ description: "scheduled, preparing, running, paused, canceled, completed or failed" })),
      cursor: pageQuery.cursor,
      limit: t.Optional(t.String({ pattern: "^[0-9]+$", description: `Page size, 1 to ${MAX_LIMIT} (default 20)` })),
    }),
    detail: {
      responses: successResponse(CampaignPage),
      summary:
        "SMS campaigns of the account, newest first (created_at, id), `limit` a page (default 20), each with total, per-status message counts and progress; next_cursor (page/last_page deprecated)",
    },
  })
  .get("/:id", ({ ctx, params }) => getCampaign(ctx, params.id), {
    params: t.Object({ id: t.String() }),
    detail: { responses: successResponse(CampaignOne), summary: "One campaign with its per-status message counts, progress and cost" },
  })
  .get(
    "/:id/invalid_rows",
    async ({ ctx, params, request }) => {
      const report = await invalidRowsReport(ctx, params.id, fromAcceptLanguage(request.headers.get("Accept-Language")));
      return new Response(reportStream(report), { headers: invalidRowsHeaders(report) });
    },
    {
      params: t.Object({ id: t.String() }),
      detail: {
        responses: file200({ "text/csv": "line,phone,reason (UTF-8 with BOM)" }, "The invalid rows as CSV (attachment)"),
        summary:
          "CSV of the rows of a file send that were not sent for lack of a valid number: line of the file, the phone cell as written, reason " +
          "(header and reasons in the Accept-Language: pt-BR, en, es or zh). Empty (header only) for a campaign without invalid rows",
      },
    },
  )
  .put("/:id", ({ ctx, params, body }) => controlCampaign(ctx, params.id, body), {
    params: t.Object({ id: t.String() }),
    body: t.Object({ status: t.String({ description: "paused (pause), running (resume) or canceled (cancel: unsent messages fail as `canceled` and are refunded)" }) }),
    detail: {
      responses: { ...successResponse(CampaignControlled), ...errorResponses(409) },
      summary: "Pause, resume or cancel a campaign; the same status again changes nothing (meta.changed false); 409 CAMPAIGN_STATE when impossible (e.g. a completed one)",
    },
  })
  .get("/:id/clicks", ({ ctx, params }) => getCampaignClicks(ctx, params.id), {
    params: t.Object({ id: t.String() }),
    detail: {
      responses: successResponse(CampaignClicksOne),
      summary:
        "Who clicked the campaign's links shortened per recipient (shorten_links): recipients with a code, how many clicked, clicks, per link, and the last 100 who clicked; data null when it shortened none",
    },
  })
  .delete("/:id", ({ ctx, params }) => deleteCampaign(ctx, params.id), {
    params: t.Object({ id: t.String() }),
    detail: {
      responses: { ...successResponse(CampaignDeleted), ...errorResponses(409) },
      summary: "Delete a finished (completed, canceled or failed) campaign; its messages keep their history. 409 CAMPAIGN_STATE otherwise",
    },
  });
