/**
 * SMS campaigns API (JWT): list with per-status counts, one campaign, pause/resume/cancel, delete,
 * and the CSV of a file send's invalid rows.
 * Thin: the use-cases (./control) check permission, validate and scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { fromAcceptLanguage } from "../lib/i18n";
import { invalidRowsHeaders, invalidRowsReport, reportStream } from "../sms/invalid-rows";
import { controlCampaign, deleteCampaign, getCampaign, listCampaigns } from "./control";

const bearer = [{ bearer: [] }];

export const campaignRoutes = new Elysia({ prefix: "/sms/campaigns", tags: ["sms"], detail: { security: bearer } })
  .use(authenticated)
  .get("", ({ ctx, query }) => listCampaigns(ctx, query), {
    query: t.Object({
      page: t.Optional(t.String({ description: "1-based page of 20" })),
      status: t.Optional(t.String({ description: "scheduled, preparing, running, paused, canceled, completed or failed" })),
    }),
    detail: { summary: "SMS campaigns of the account, newest first, each with total, per-status message counts and progress; page/last_page" },
  })
  .get("/:id", ({ ctx, params }) => getCampaign(ctx, params.id), {
    params: t.Object({ id: t.String() }),
    detail: { summary: "One campaign with its per-status message counts and progress" },
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
        summary:
          "CSV of the rows of a file send that were not sent for lack of a valid number: line of the file, the phone cell as written, reason " +
          "(header and reasons in the Accept-Language: pt-BR, en, es or zh). Empty (header only) for a campaign without invalid rows",
      },
    },
  )
  .put("/:id", ({ ctx, params, body }) => controlCampaign(ctx, params.id, body), {
    params: t.Object({ id: t.String() }),
    body: t.Object({ status: t.String({ description: "paused (pause), running (resume) or canceled (cancel: unsent messages fail as `canceled` and are refunded)" }) }),
    detail: { summary: "Pause, resume or cancel a campaign; the same status again changes nothing; 409 CAMPAIGN_STATE when impossible (e.g. a completed one)" },
  })
  .delete("/:id", ({ ctx, params }) => deleteCampaign(ctx, params.id), {
    params: t.Object({ id: t.String() }),
    detail: { summary: "Delete a finished (completed, canceled or failed) campaign; its messages keep their history. 409 CAMPAIGN_STATE otherwise" },
  });
