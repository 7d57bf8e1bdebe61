/**
 * The spec's older WhatsApp paths (section 7 "WhatsApp legacy" and "WhatsApp new"; issue 16),
 * each mapped onto the use-case the current path calls, with the same roles, account scope,
 * validation and answers:
 * - v2 sends: POST /messages/sendTextTemplate, /messages/sendMedia, /messages/sendMediaTemplate
 *   -> acceptWhatsapp (as POST /whatsapp/messages; `from` may also be the number's phone number id);
 * - the older integration's client: GET, POST /whatsapp/client -> the account's onprem numbers,
 *   connect one (integration onprem);
 * - list by POST: /whatsapp/templates/list, /whatsapp/messages/list; bulk DELETE /whatsapp/templates?ids=;
 * - figures: POST /whatsapp/messages/insights, GET /whatsapp/messages/charts?days=;
 * - exports: POST, GET /whatsapp/reports, GET /whatsapp/reports/{id} (and its /file, the CSV);
 *   the spec writes them /reports, which we keep channel-scoped under /whatsapp;
 * - "new": /whatsapp/new/history, /new/campaign, /new/messages/list, /new/messages/{id},
 *   POST /new/templates/{number id}, GET /new/templates/{WABA id}, DELETE /new/template/{id}.
 * (The catalogue paths, /whatsapp/new/catalog/…, come with the catalogue.)
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, fileResponse, successResponse } from "../http/openapi";
import { onePage } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import { listCampaigns } from "../campaigns/control";
import { CampaignPage } from "../campaigns/responses";
import { createExport, csvDownload, exportFile, getExport, listExports } from "../sms/exports";
import { SmsExportList, SmsExportOne } from "../sms/responses";
import { listWhatsappMessages } from "./history";
import { connectWhatsappNumber, listWhatsappNumbers } from "./numbers";
import { whatsappCharts, whatsappInsights } from "./reports";
import * as R from "./responses";
import { acceptWhatsapp, getWhatsappMessage } from "./send";
import { createWhatsappTemplate, deleteWhatsappTemplate, deleteWhatsappTemplates, listWhatsappTemplates } from "./templates";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const idempotency = t.Object({ "idempotency-key": t.Optional(t.String({ description: "The same key and request answer the first response" })) });

const sendAnswer = { ...successResponse(R.WhatsappAccepted, "Accepted as POST /whatsapp/messages", 202), ...errorResponses(402, 409) };
const sender = {
  from: t.String({ description: "The number that sends: its id here, or its phone number id" }),
  to: t.String({ description: "The contact, E.164" }),
};
const templateFields = {
  template: t.String({ description: "The approved template's name" }),
  language: t.Optional(t.String({ description: "Its language (default pt_BR)" })),
  variables: t.Optional(t.Array(t.String(), { description: "The body's variables, {{1}} first" })),
  header_variable: t.Optional(t.String()),
  button_variable: t.Optional(t.String()),
};
type TemplateFields = { template: string; language?: string; variables?: string[]; header_variable?: string; button_variable?: string };
const templateOf = (b: TemplateFields, mediaLink?: string) => ({
  name: b.template,
  language: b.language ?? "pt_BR",
  variables: b.variables,
  header_variable: b.header_variable,
  button_variable: b.button_variable,
  ...(mediaLink ? { header_media: { link: mediaLink } } : {}),
});

export const whatsappLegacyRoutes = new Elysia({ tags: ["whatsapp"], detail: { security: bearer } })
  .use(authenticated)
  // ---- v2 sends ----------------------------------------------------------------------------------
  .post(
    "/messages/sendTextTemplate",
    async ({ ctx, body, request, set }) => {
      const answer = await acceptWhatsapp(ctx, { from: body.from, to: body.to, type: "template", template: templateOf(body) }, request.headers.get("Idempotency-Key"));
      set.status = 202;
      return answer;
    },
    {
      body: t.Object({ ...sender, ...templateFields }),
      headers: idempotency,
      detail: { responses: sendAnswer, summary: "Legacy (v2): send an approved template with its variables, as POST /whatsapp/messages type template" },
    },
  )
  .post(
    "/messages/sendMedia",
    async ({ ctx, body, request, set }) => {
      const type = body.type ?? "image";
      const media = { link: body.url, ...(body.caption ? { caption: body.caption } : {}), ...(body.filename ? { filename: body.filename } : {}) };
      const answer = await acceptWhatsapp(ctx, { from: body.from, to: body.to, type, [type]: media }, request.headers.get("Idempotency-Key"));
      set.status = 202;
      return answer;
    },
    {
      body: t.Object({
        ...sender,
        type: t.Optional(t.String({ description: "image (default), video, document, audio or sticker" })),
        url: t.String({ description: "https, a public address the provider fetches ('Invalid media URL' otherwise)" }),
        caption: t.Optional(t.String({ description: "image, video and document" })),
        filename: t.Optional(t.String({ description: "document" })),
      }),
      headers: idempotency,
      detail: { responses: sendAnswer, summary: "Legacy (v2): send a file by link inside the contact's 24-hour window, as POST /whatsapp/messages with that type" },
    },
  )
  .post(
    "/messages/sendMediaTemplate",
    async ({ ctx, body, request, set }) => {
      const answer = await acceptWhatsapp(
        ctx,
        { from: body.from, to: body.to, type: "template", template: templateOf(body, body.media?.url) },
        request.headers.get("Idempotency-Key"),
      );
      set.status = 202;
      return answer;
    },
    {
      body: t.Object({
        ...sender,
        ...templateFields,
        media: t.Optional(t.Object({ url: t.String({ description: "https: the header's image, video or document (default: the template's example)" }) })),
      }),
      headers: idempotency,
      detail: { responses: sendAnswer, summary: "Legacy (v2): send an approved template whose header is an image, a video or a document, with that file by link" },
    },
  )
  // ---- the older integration's client -------------------------------------------------------------
  .get("/whatsapp/client", ({ ctx, query }) => listWhatsappNumbers(ctx, { ...query, integration: "onprem" }), {
    query: t.Object(pageQuery),
    detail: { responses: successResponse(R.WhatsappNumbers), summary: "Legacy: the account's numbers of the older integration (On-Premises API clients)" },
  })
  .post(
    "/whatsapp/client",
    async ({ ctx, body, set }) => {
      const answer = await connectWhatsappNumber(ctx, { ...body, integration: "onprem" });
      return created(set, `/api/whatsapp/numbers/${answer.data.id}`, answer);
    },
    {
      body: t.Object({
        base_url: t.String({ description: "The client's address (https)" }),
        username: t.String(),
        password: t.String(),
        phone_number: t.String({ description: "E.164" }),
      }),
      detail: {
        responses: { ...createdResponse(R.WhatsappNumberOne), ...errorResponses(409, 422, 502) },
        summary: "Legacy: connect a number of the older integration, as POST /whatsapp/numbers with integration onprem",
      },
    },
  )
  // ---- lists by POST, bulk delete ----------------------------------------------------------------
  .post("/whatsapp/templates/list", ({ ctx, body }) => listWhatsappTemplates(ctx, body ?? {}), {
    body: t.Optional(
      t.Object({
        status: t.Optional(t.String()),
        number_id: t.Optional(t.String()),
        integration: t.Optional(t.String({ description: "cloud or onprem" })),
        waba_id: t.Optional(t.String()),
        ...pageQuery,
      }),
    ),
    detail: { responses: successResponse(R.WhatsappTemplates), summary: "Legacy: GET /whatsapp/templates with the filters in the body" },
  })
  .delete(
    "/whatsapp/templates",
    ({ ctx, query }) =>
      deleteWhatsappTemplates(
        ctx,
        String(query.ids ?? query.id ?? "")
          .split(",")
          .filter(Boolean),
      ),
    {
      query: t.Object({ ids: t.Optional(t.String({ description: "Template ids, comma separated (at most 100)" })), id: t.Optional(t.String()) }),
      detail: {
        responses: { ...successResponse(R.WhatsappTemplatesDeleted), ...errorResponses(404) },
        summary: "Legacy bulk delete: each template named, here and at the provider (404 before anything is deleted when one is not the account's)",
      },
    },
  )
  .post("/whatsapp/messages/list", ({ ctx, body }) => listWhatsappMessages(ctx, body ?? {}), {
    body: t.Optional(
      t.Object({
        id: t.Optional(t.String()),
        status: t.Optional(t.String()),
        from: t.Optional(t.String()),
        to: t.Optional(t.String()),
        "created_at[gte]": t.Optional(t.String()),
        "created_at[lte]": t.Optional(t.String()),
        order: t.Optional(t.String()),
        ...pageQuery,
      }),
    ),
    detail: { responses: successResponse(R.WhatsappMessages), summary: "Legacy: GET /whatsapp/messages with the filters in the body" },
  })
  // ---- figures -----------------------------------------------------------------------------------
  .post("/whatsapp/messages/insights", ({ ctx, body }) => whatsappInsights(ctx, body ?? {}), {
    body: t.Optional(t.Object({ days: t.Optional(t.Union([t.String(), t.Number()], { description: "7 (default) or 30" })) })),
    detail: {
      responses: successResponse(R.WhatsappInsightsOne),
      summary: "Totals of the last 7 or 30 São Paulo days: messages, sent, delivered, read, failed, rates, cost, inbound, per day",
    },
  })
  .get("/whatsapp/messages/charts", async ({ ctx, query }) => ({ ...(await whatsappCharts(ctx, query)), next_cursor: null }), {
    query: t.Object({ days: t.Optional(t.String({ description: "7 (default) or 30" })) }),
    detail: { responses: successResponse(R.WhatsappCharts), summary: "Per São Paulo day of the last 7 or 30 days (one page): outbound messages per status and cost" },
  })
  // ---- exports -----------------------------------------------------------------------------------
  .post(
    "/whatsapp/reports",
    async ({ ctx, body, set }) => {
      const data = await createExport(ctx, body ?? {}, "whatsapp");
      return created(set, `/api/whatsapp/reports/${data.id}`, { data });
    },
    {
      body: t.Optional(
        t.Object({
          id: t.Optional(t.Union([t.String(), t.Null()])),
          from: t.Optional(t.Union([t.String(), t.Null()])),
          to: t.Optional(t.Union([t.String(), t.Null()])),
          status: t.Optional(t.Union([t.String(), t.Null()])),
          sent_at: t.Optional(t.Object({ from: t.Optional(t.Union([t.String(), t.Null()])), to: t.Optional(t.Union([t.String(), t.Null()])) })),
        }),
      ),
      detail: {
        responses: createdResponse(SmsExportOne, "The export, queued; Location is its URL"),
        summary: "Queue an export of the WhatsApp history (CSV) with the history's filters; then GET /whatsapp/reports/{id}",
      },
    },
  )
  .get("/whatsapp/reports", async ({ ctx }) => onePage(await listExports(ctx, 50, "whatsapp")), {
    detail: { responses: successResponse(SmsExportList), summary: "The account's last 50 WhatsApp exports, newest first" },
  })
  .get("/whatsapp/reports/:id", ({ ctx, params }) => getExport(ctx, params.id, "whatsapp").then((data) => ({ data })), {
    params: id,
    detail: { responses: successResponse(SmsExportOne), summary: "One WhatsApp export (404 for another account's)" },
  })
  .get("/whatsapp/reports/:id/file", async ({ ctx, params }) => csvDownload(await exportFile(ctx, params.id, "whatsapp")), {
    params: id,
    detail: {
      responses: { ...fileResponse({ "text/csv": "UTF-8 with BOM" }, "The export's CSV (attachment)"), ...errorResponses(409) },
      summary: "The WhatsApp export's CSV; 409 EXPORT_NOT_READY before it is done",
    },
  })
  // ---- "new" -------------------------------------------------------------------------------------
  .get("/whatsapp/new/history", ({ ctx, query }) => listWhatsappMessages(ctx, query), {
    query: t.Object({ status: t.Optional(t.String()), to: t.Optional(t.String()), ...pageQuery }),
    detail: { responses: successResponse(R.WhatsappMessages), summary: "Spec path of GET /whatsapp/messages" },
  })
  .get("/whatsapp/new/messages/list", ({ ctx, query }) => listWhatsappMessages(ctx, query), {
    query: t.Object({ status: t.Optional(t.String()), to: t.Optional(t.String()), ...pageQuery }),
    detail: { responses: successResponse(R.WhatsappMessages), summary: "Spec path of GET /whatsapp/messages" },
  })
  .get("/whatsapp/new/messages/:id", ({ ctx, params }) => getWhatsappMessage(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.WhatsappMessageOne), summary: "Spec path of GET /whatsapp/messages/{id}" },
  })
  .get("/whatsapp/new/campaign", ({ ctx, query }) => listCampaigns(ctx, query, "whatsapp"), {
    query: t.Object({ status: t.Optional(t.String()), ...pageQuery }),
    detail: { responses: successResponse(CampaignPage), summary: "Spec path of GET /whatsapp/campaigns" },
  })
  // One path name for both methods (the spec's {businessId} for GET, a number's id for POST): OpenAPI allows one parameter name per path.
  .get("/whatsapp/new/templates/:id", ({ ctx, params, query }) => listWhatsappTemplates(ctx, { ...query, waba_id: params.id }), {
    params: t.Object({ id: t.String({ description: "The WhatsApp Business Account id (the spec's businessId)" }) }),
    query: t.Object({ status: t.Optional(t.String()), ...pageQuery }),
    detail: { responses: successResponse(R.WhatsappTemplates), summary: "The templates of the account's numbers of one WABA, newest first" },
  })
  .post(
    "/whatsapp/new/templates/:id",
    async ({ ctx, params, body, set }) => {
      const answer = await createWhatsappTemplate(ctx, { ...body, number_id: params.id });
      return created(set, `/api/whatsapp/templates/${answer.data.id}`, answer);
    },
    {
      params: t.Object({ id: t.String({ description: "The number (its id here) whose WABA gets the template" }) }),
      body: t.Record(t.String(), t.Any(), { description: "POST /whatsapp/templates's body without number_id" }),
      detail: { responses: { ...createdResponse(R.WhatsappTemplateOne), ...errorResponses(403, 422, 502) }, summary: "Spec path of POST /whatsapp/templates" },
    },
  )
  .delete("/whatsapp/new/template/:id", ({ ctx, params }) => deleteWhatsappTemplate(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Deleted), summary: "Spec path of DELETE /whatsapp/templates/{id}" },
  });
