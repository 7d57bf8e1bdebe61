/**
 * RCS campaigns API (issue 21; spec section 7 "RCS"): accept a campaign to a contact group or a CSV
 * file (./bulk.ts), list, read, pause / resume / cancel and delete them (the shared campaign
 * control, api/campaigns/control.ts, channel rcs), and the CSV of a file send's invalid rows.
 * Thin: the use-cases check roles and scope by account.
 */
import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { controlCampaign, deleteCampaign, getCampaign, listCampaigns } from "../campaigns/control";
import { CampaignControlled, CampaignDeleted, CampaignOne, CampaignPage } from "../campaigns/responses";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, requestBody, successResponse } from "../http/openapi";
import { boundaryOf } from "../imports/multipart";
import { AppError } from "../lib/errors";
import { fromAcceptLanguage } from "../lib/i18n";
import { MAX_LIMIT } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import { invalidRowsHeaders, invalidRowsReport, reportStream } from "../sms/invalid-rows";
import { file200 } from "../sms/responses";
import { acceptRcsCampaign, acceptRcsCampaignMultipart } from "./bulk";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const isMultipart = (request: Request) => /^multipart\/form-data\b/i.test(request.headers.get("Content-Type") ?? "");

const campaignBody = t.Object({
  agent_id: t.Optional(t.String({ description: "The sending agent (launched). Absent: the account's default agent (/settings/resources)" })),
  name: t.Optional(t.String({ description: "The campaign's name, up to 120 characters (default: the group or file and the agent)" })),
  content: t.Optional(
    t.Any({ description: "The content (spec section 3): {type: text|link|midia|card|card-carousel, messageText, messageDescription, imageUrl, fileUrl, suggestions, images}" }),
  ),
  template_id: t.Optional(t.String({ description: "Instead of content: a saved RCS template's content" })),
  group_id: t.Optional(t.String({ description: "A contact group: every member with a mobile (or a CSV file instead, multipart)" })),
  fallback_sms: t.Optional(t.Boolean({ description: "SMS instead when a handset is not RCS-capable (default: the account's setting)" })),
  scheduled_at: t.Optional(t.String({ description: "ISO 8601 time to send at (up to 90 days ahead); the messages stay scheduled until then" })),
});

const int = Type.Integer;
const RcsCampaignAccepted = t.Object({
  data: t.Object({
    campaign_id: t.String({ format: "uuid" }),
    status: t.Union([t.Literal("running"), t.Literal("scheduled"), t.Literal("completed")], { description: "completed at once when nobody could be sent to" }),
    price_class: t.Union([t.Literal("basic"), t.Literal("rich")], { description: "The content's class: the same for every message" }),
    price: int({ description: "One message's price (cents of the currency)" }),
    total_price: int({ description: "Debited now, once, in the currency's cents" }),
    currency: t.String(),
    fallback_sms: t.Boolean(),
    scheduled_at: t.Union([t.String({ format: "date-time" }), t.Null()]),
    summary: t.Object({
      messages: int(),
      sendable: int({ description: "Queued (or scheduled) and charged" }),
      optout: int({ description: "Opted out of RCS: written, not sent, price 0" }),
      rejected: int({ description: "On the deny list: written, not sent, price 0" }),
      invalid: int({ description: "Rows of the CSV file without a valid number (GET /rcs/campaigns/{id}/invalid_rows lists them)" }),
    }),
  }),
});

export const rcsCampaignRoutes = new Elysia({ prefix: "/rcs/campaigns", tags: ["rcs"], detail: { security: bearer } })
  .use(authenticated)
  .post(
    "",
    async ({ ctx, body, request, set }) => {
      const key = request.headers.get("Idempotency-Key");
      let answer: Awaited<ReturnType<typeof acceptRcsCampaign>>;
      if (isMultipart(request)) {
        // A CSV file of handsets: streamed from the socket into the staging table (never buffered whole).
        const boundary = boundaryOf(request.headers.get("Content-Type"));
        if (!boundary || !request.body) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
        answer = await acceptRcsCampaignMultipart(ctx, request.body, boundary, key);
      } else answer = await acceptRcsCampaign(ctx, body, key);
      return created(set, `/api/rcs/campaigns/${answer.data.campaign_id}`, answer);
    },
    {
      // multipart/form-data is left unread here: the handler streams it. Any other body is JSON.
      parse: ({ request }) => (isMultipart(request) ? {} : undefined),
      body: t.Union([campaignBody, t.Object({})]),
      headers: t.Object({ "idempotency-key": t.Optional(t.String({ description: "The same key and request answer the first response; another request is 409" })) }),
      detail: {
        requestBody: requestBody({
          "application/json": campaignBody,
          "multipart/form-data": t.Object(
            {
              file: t.String({ format: "binary", description: "CSV of handsets (the SMS file send's rules)" }),
              content: t.Optional(t.String({ description: "The content as JSON text" })),
            },
            { additionalProperties: true },
          ),
        }),
        responses: { ...createdResponse(RcsCampaignAccepted), ...errorResponses(402, 409, 422) },
        summary:
          "Send one RCS content (or a template's) from a launched agent to a contact group or a CSV file as a campaign, now or scheduled: one price class and price for every message, debited once at accept; opted-out and denied handsets written as optout/rejected at price 0; bad content refused naming the rule, nothing charged",
        description:
          "JSON with `group_id`, or multipart/form-data with a `file` part (.csv, `,` or `;`, UTF-8 or Latin-1; the phone column found by its header — mobile, celular, telefone, phone… — or its values; " +
          "rows without a valid number are counted in summary.invalid and listed with their line by GET /rcs/campaigns/{id}/invalid_rows) and the other fields as plain parts (`content` as JSON text). " +
          "The content follows the single send's rules (POST /rcs/messages).",
      },
    },
  )
  .get("", ({ ctx, query }) => listCampaigns(ctx, query, "rcs"), {
    query: t.Object({
      page: t.Optional(t.String({ deprecated: true, description: "1-based page (OFFSET; prefer cursor)" })),
      status: t.Optional(t.String({ description: "scheduled, preparing, running, paused, canceled, completed or failed" })),
      cursor: pageQuery.cursor,
      limit: t.Optional(t.String({ pattern: "^[0-9]+$", description: `Page size, 1 to ${MAX_LIMIT} (default 20)` })),
    }),
    detail: { responses: successResponse(CampaignPage), summary: "RCS campaigns of the account, newest first, each with per-status message counts and progress (live counters)" },
  })
  .get("/:id", ({ ctx, params }) => getCampaign(ctx, params.id, "rcs"), {
    params: id,
    detail: { responses: { ...successResponse(CampaignOne), ...errorResponses(404) }, summary: "One RCS campaign with its per-status counts, progress and cost" },
  })
  .get(
    "/:id/invalid_rows",
    async ({ ctx, params, request }) => {
      const report = await invalidRowsReport(ctx, params.id, fromAcceptLanguage(request.headers.get("Accept-Language")), "rcs");
      return new Response(reportStream(report), { headers: invalidRowsHeaders(report) });
    },
    {
      params: id,
      detail: {
        responses: file200({ "text/csv": "line,phone,reason (UTF-8 with BOM)" }, "The invalid rows as CSV (attachment)"),
        summary: "CSV of the rows of a file send that were not sent for lack of a valid number: line of the file, the phone cell as written, reason",
      },
    },
  )
  .put("/:id", ({ ctx, params, body }) => controlCampaign(ctx, params.id, body, "rcs"), {
    params: id,
    body: t.Object({ status: t.String({ description: "paused (pause), running (resume) or canceled (cancel: unsent messages fail as `canceled` and are refunded)" }) }),
    detail: {
      responses: { ...successResponse(CampaignControlled), ...errorResponses(409) },
      summary: "Pause, resume or cancel an RCS campaign; the same status again changes nothing; 409 CAMPAIGN_STATE when impossible",
    },
  })
  .delete("/:id", ({ ctx, params }) => deleteCampaign(ctx, params.id, "rcs"), {
    params: id,
    detail: { responses: { ...successResponse(CampaignDeleted), ...errorResponses(409) }, summary: "Delete a finished RCS campaign; its messages keep their history" },
  });
