/**
 * E-mail campaigns API (issue 17, ADR 038), under /api/email/campaigns with the JWT: send one content
 * to many (a list, a contact group or a CSV file), list, read, pause/resume/cancel. Thin: the
 * use-cases (./campaigns, api/campaigns/control) check the roles and scope by account.
 */
import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { controlCampaign, getCampaign, getCampaignClicks, listCampaigns } from "../campaigns/control";
import { CampaignClicksOne, CampaignControlled, CampaignOne, CampaignPage } from "../campaigns/responses";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, requestBody, successResponse } from "../http/openapi";
import { boundaryOf } from "../imports/multipart";
import { AppError } from "../lib/errors";
import { fromAcceptLanguage } from "../lib/i18n";
import { pageQuery } from "../lib/page-schema";
import { invalidRowsHeaders, invalidRowsReport, reportStream } from "../sms/invalid-rows";
import { file200 } from "../sms/responses";
import { acceptEmailCampaignMultipart } from "./campaign-multipart";
import { acceptEmailCampaign } from "./campaigns";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const isMultipart = (request: Request) => /^multipart\/form-data\b/i.test(request.headers.get("Content-Type") ?? "");
const nullable = <T extends ReturnType<typeof t.String>>(s: T) => t.Union([s, t.Null()]);

const EmailCampaignAccepted = t.Object({
  data: t.Object({
    campaign_id: t.String({ format: "uuid" }),
    status: t.Union([t.Literal("running"), t.Literal("scheduled"), t.Literal("completed")], { description: "completed at once when nobody could be sent to" }),
    total_price: Type.Integer({ description: "Debited now, in the currency's cents" }),
    currency: t.String(),
    scheduled_at: nullable(t.String({ format: "date-time" })),
    summary: t.Object({
      messages: Type.Integer(),
      sendable: Type.Integer({ description: "Queued (or scheduled) and charged" }),
      optout: Type.Integer({ description: "Opted out of e-mail: written, not sent, price 0" }),
      rejected: Type.Integer({ description: "On the deny list: written, not sent, price 0" }),
      invalid: t.Optional(Type.Integer({ description: "File rows whose address cell was empty or not an address (not sent)" })),
    }),
  }),
});

const campaignBody = t.Object({
  name: t.Optional(t.String({ description: "The campaign's name (default: the group, the file or the subject)" })),
  from: t.String({ description: "An address of a validated sending domain of the account" }),
  from_name: t.Optional(t.String()),
  reply_to: t.Optional(t.String()),
  subject: t.String({ description: "May hold {{variables}}" }),
  html: t.Optional(t.String({ description: "HTML part (up to 512 KB); {{variables}} are filled HTML-escaped" })),
  text: t.Optional(t.String({ description: "Text part (up to 256 KB)" })),
  to: t.Optional(t.Array(t.String(), { description: "Up to 10,000 addresses (repeats sent once)" })),
  group_id: t.Optional(t.String({ description: "Or a contact group: every member with an e-mail address" })),
  scheduled_at: t.Optional(t.String({ description: "ISO 8601 time to send at (up to 90 days ahead)" })),
});

export const emailCampaignRoutes = new Elysia({ prefix: "/email/campaigns", tags: ["email"], detail: { security: bearer } })
  .use(authenticated)
  .post(
    "",
    async ({ ctx, body, request, set }) => {
      const key = request.headers.get("Idempotency-Key");
      let answer: Awaited<ReturnType<typeof acceptEmailCampaign>>;
      if (isMultipart(request)) {
        const boundary = boundaryOf(request.headers.get("Content-Type"));
        if (!boundary || !request.body) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
        answer = await acceptEmailCampaignMultipart(ctx, request.body, boundary, key);
      } else answer = await acceptEmailCampaign(ctx, body, { idempotencyKey: key });
      return created(set, `/api/email/campaigns/${answer.data.campaign_id}`, answer);
    },
    {
      parse: ({ request }) => (isMultipart(request) ? {} : undefined),
      body: t.Any(),
      headers: t.Object({ "idempotency-key": t.Optional(t.String({ description: "The same key and request answer the first response" })) }),
      detail: {
        requestBody: requestBody({
          "application/json": campaignBody,
          "multipart/form-data": t.Object({ file: t.String({ format: "binary", description: "CSV of recipients" }) }, { additionalProperties: true }),
        }),
        responses: { ...createdResponse(EmailCampaignAccepted), ...errorResponses(402, 409, 422) },
        summary:
          "Send one e-mail content to many as a campaign: exactly one of `to` (a list), `group_id` (a contact group's contacts with an e-mail) or a CSV file (multipart/form-data `file` part, the other fields as plain parts; the e-mail column found by its header — email, e-mail, mail… — or its values, the other columns fill {{variables}}; a file without one is 422 on file). {{first_name}}, {{name}}, {{company}}, a custom field's key… are filled per recipient (a variable without a value refuses the send naming it). Priced per message and debited at accept (402: nothing written); opted-out and denied addresses written as optout/rejected at price 0. Each message carries List-Unsubscribe (RFC 8058 one-click)",
      },
    },
  )
  .get("", ({ ctx, query }) => listCampaigns(ctx, query, "email"), {
    query: t.Object({ status: t.Optional(t.String()), cursor: pageQuery.cursor, limit: pageQuery.limit, page: t.Optional(t.String({ deprecated: true })) }),
    detail: {
      responses: successResponse(CampaignPage),
      summary: "E-mail campaigns of the account, newest first, each with per-status message counts and progress (live counters)",
    },
  })
  .get("/:id", ({ ctx, params }) => getCampaign(ctx, params.id, "email"), {
    params: id,
    detail: { responses: { ...successResponse(CampaignOne), ...errorResponses(404) }, summary: "One e-mail campaign with its per-status counts, progress and cost" },
  })
  .get("/:id/clicks", ({ ctx, params }) => getCampaignClicks(ctx, params.id, "email"), {
    params: id,
    detail: {
      responses: { ...successResponse(CampaignClicksOne), ...errorResponses(404) },
      summary:
        "Who clicked the campaign's tracked links (each message's links are signed per message): totals, per link, the last 100 who clicked; data null until a click is recorded",
    },
  })
  .get(
    "/:id/invalid_rows",
    async ({ ctx, params, request }) => {
      const report = await invalidRowsReport(ctx, params.id, fromAcceptLanguage(request.headers.get("Accept-Language")), "email");
      return new Response(reportStream(report), { headers: invalidRowsHeaders(report) });
    },
    {
      params: id,
      detail: {
        responses: { ...file200({ "text/csv": "line,value,reason (UTF-8 with BOM)" }, "The invalid rows as CSV (attachment)"), ...errorResponses(404) },
        summary:
          "CSV of the rows of a file send that were not sent for lack of a valid address: line of the file, the cell as written, reason " +
          "(header and reasons in the Accept-Language: pt-BR, en, es or zh). Empty (header only) for a campaign without invalid rows",
      },
    },
  )
  .put("/:id", ({ ctx, params, body }) => controlCampaign(ctx, params.id, body, "email"), {
    params: id,
    body: t.Object({ status: t.String({ description: "paused (pause), running (resume) or canceled (cancel: unsent messages fail as `canceled` and are refunded)" }) }),
    detail: {
      responses: { ...successResponse(CampaignControlled), ...errorResponses(404, 409) },
      summary: "Pause, resume or cancel an e-mail campaign; 409 CAMPAIGN_STATE when impossible",
    },
  })
  .delete("/:id", ({ ctx, params }) => controlCampaign(ctx, params.id, { status: "canceled" }, "email"), {
    params: id,
    detail: {
      responses: { ...successResponse(CampaignControlled), ...errorResponses(404, 409) },
      summary:
        "Cancel an e-mail campaign: its unsent messages fail as `canceled` and their price returns to the balance (like PUT status canceled); 409 CAMPAIGN_STATE for a finished one",
    },
  });
