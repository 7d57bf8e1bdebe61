/**
 * Live chat reports API (JWT; spec section 7 "Omni and chat"): the report of a period, usage of a
 * month, the agents with their status, an agent's statistic, and the conversation exports
 * (POST, GET /chat/reports, the CSV file). Thin: the use-cases (./reports, ./report-exports)
 * check permission, validate and scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, fileResponse, successResponse } from "../http/openapi";
import { onePage } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import type { OpenAPIV3 } from "openapi-types";
import * as R from "./attendance-responses";
import { fromAcceptLanguage, translate } from "../lib/i18n";
import { csvDownload } from "../sms/exports";
import { createLiveExport, getLiveExport, liveExportFile, pageLiveExports } from "./report-exports";
import { agentStatistic, listLiveAgents, liveReport, liveUsage } from "./reports";

const bearer = [{ bearer: [] }];
/** createdResponse and fileResponse type their schema's `type` as string, which detail.responses refuses (see api/http/openapi.ts). */
const responses = (r: object) => r as OpenAPIV3.ResponsesObject;
const opt = (description: string) => t.Optional(t.Union([t.String({ description }), t.Null()]));
const period = {
  begin: opt("First day YYYY-MM-DD (São Paulo). Default today (or end)"),
  end: opt("Last day YYYY-MM-DD; at most 31 days. Default today"),
};
const filters = { ...period, department_id: opt("Only rooms of this department"), agent_id: opt("Only rooms of this agent") };

export const liveReportRoutes = new Elysia({ tags: ["live"], detail: { security: bearer } })
  .use(authenticated)
  .get("/omni/reports", ({ ctx, query }) => liveReport(ctx, query), {
    query: t.Object(filters),
    detail: {
      responses: successResponse(R.Report),
      summary:
        "Figures of the rooms created in a period: started, attended, closed, transferred, returned, offline, average wait and service (seconds), per tabulation, channel and agent, messages per day",
    },
  })
  .get("/omni/usage", ({ ctx, query }) => liveUsage(ctx, query), {
    query: t.Object({ month: opt("YYYY-MM (São Paulo). Default this month") }),
    detail: { responses: successResponse(R.Usage), summary: "Conversations and messages per day and per channel of a month, and the account's live (omni) plan" },
  })
  .get("/omni/agents", async ({ ctx }) => onePage(await listLiveAgents(ctx)), {
    detail: {
      responses: successResponse(R.LiveAgentPage),
      summary: "The account's agents with status, status_date, active (connected) and active_calls, by status then name (one page: the account's agents)",
    },
  })
  .get("/omni/agents/:id/statistic", ({ ctx, params, query }) => agentStatistic(ctx, params.id, query), {
    params: t.Object({ id: t.String() }),
    query: t.Object(period),
    detail: {
      responses: successResponse(R.AgentStatistic),
      summary: "An agent's open rooms now (active_calls), and for the period's rooms total_calls and average_service_time (seconds)",
    },
  })
  .post(
    "/chat/reports",
    async ({ ctx, body, request, set }) => {
      const data = await createLiveExport(ctx, body ?? {});
      return created(set, `/api/chat/reports/${data.id}`, {
        data,
        message: translate(fromAcceptLanguage(request.headers.get("accept-language")), "liveReports:exports.queued"),
      });
    },
    {
      body: t.Optional(t.Object(filters)),
      detail: {
        responses: responses(createdResponse(R.LiveExportQueued, "Queued: the export in state queued; Location is GET /chat/reports/{id}")),
        summary: "Queue a CSV export of the conversations of a period (one row per room): answers 201 with the export in state queued; then see GET /chat/reports/{id}",
      },
    },
  )
  .get("/chat/reports", ({ ctx, query }) => pageLiveExports(ctx, query), {
    query: t.Object(pageQuery),
    detail: {
      responses: successResponse(R.LiveExportPage),
      summary: "The account's conversation exports, newest first, by keyset (cursor, limit): status queued|processing|done|failed, rows, file_size, error",
    },
  })
  .get("/chat/reports/:id", async ({ ctx, params }) => ({ data: await getLiveExport(ctx, params.id) }), {
    params: t.Object({ id: t.String() }),
    detail: { responses: successResponse(R.LiveExportOne), summary: "One conversation export: its status, rows, file size or error (404 for another account's)" },
  })
  .get(
    "/chat/reports/:id/file",
    async ({ ctx, params }) => {
      const file = await liveExportFile(ctx, params.id);
      return csvDownload(file);
    },
    {
      params: t.Object({ id: t.String() }),
      detail: {
        responses: responses({ ...fileResponse({ "text/csv": "The conversations, one row per room (UTF-8 with BOM)" }), ...errorResponses(409) }),
        summary: "The export's CSV (UTF-8 with BOM). 404 for another account's export; 409 EXPORT_NOT_READY before it is done",
      },
    },
  );
