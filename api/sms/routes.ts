/**
 * SMS API (JWT): accept a send, list the history, read one message with its events. Thin: the use-cases validate,
 * check permission (/sms/send, /sms/history) and scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { boundaryOf } from "../imports/multipart";
import { AppError } from "../lib/errors";
import { acceptSms } from "./accept";
import { acceptSmsMultipart } from "./accept-multipart";
import { getSmsPrice, listSenders, listSmsPrices, listSmsProducts, updateSmsPrice } from "./catalog";
import { createSmsTemplate, deleteSmsTemplate, deleteSmsTemplates, getSmsTemplate, pageSmsTemplates, updateSmsTemplate } from "./templates";
import { getSmsMessage } from "./get";
import { listSmsMessages } from "./history";
import { created } from "../http/created";
import { errorResponses, requestBody, successResponse } from "../http/openapi";
import { MAX_LIMIT, onePage } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import { localizeErrors } from "./error-message";
import {
  created201,
  SmsAccepted,
  SmsHistoryPage,
  SmsMessage,
  SmsPrice,
  SmsPrices,
  SmsProducts,
  SmsSenders,
  SmsTemplate,
  SmsTemplateDeleted,
  SmsTemplatePage,
  SmsTemplatesDeleted,
} from "./responses";

const bearer = [{ bearer: [] }];

const variables = t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean(), t.Null()]), {
  description: "Values of the body's {{variables}} by name (letters, digits, _)",
});
const sendBody = t.Object({
  to: t.Optional(
    t.Union([t.String(), t.Array(t.String())], { description: "One number or up to 1,000 (any format; +55 assumed for 10 or 11 digits). Repeated numbers are sent once" }),
  ),
  messages: t.Optional(
    t.Array(t.Object({ to: t.String(), variables: t.Optional(variables) }), {
      description: "Instead of `to`: up to 1,000 recipients each with its own {{variables}} (the first occurrence of a repeated number wins)",
    }),
  ),
  group_id: t.Optional(t.Union([t.String({ description: "Instead of `to`: every contact of this group with a mobile number" }), t.Null()])),
  from: t.Optional(
    t.Union([
      t.String({ description: "Sender: one of the account's active short codes (GET /api/sms/senders), else 422 on from; blank or absent uses the route's default" }),
      t.Null(),
    ]),
  ),
  body: t.Optional(
    t.Union([t.String({ description: "Up to 1,600 characters after rendering; GSM-7 when every character is in GSM 03.38, else UCS-2. Required without template_id" }), t.Null()]),
  ),
  template_id: t.Optional(t.Union([t.String({ description: "An SMS template of the account: its body is sent (`body` is ignored)" }), t.Null()])),
  variables: t.Optional(t.Union([variables, t.Null()])),
  route: t.Optional(t.Union([t.Literal("T1"), t.Literal("T2"), t.Literal("T4"), t.Literal("T6"), t.Literal(""), t.Null()], { description: "Default T1" })),
  scheduled_at: t.Optional(t.Union([t.String({ description: "ISO 8601 with offset (2026-05-01T09:30:00-03:00), in the future, at most 90 days ahead" }), t.Null()])),
  campaign_name: t.Optional(t.Union([t.String({ description: "Name of the campaign of a send to many (up to 120); generated when absent" }), t.Null()])),
  shorten_links: t.Optional(
    t.Union([t.Boolean(), t.Null()], {
      description:
        "A send to many: each http(s) address of the text (at most 5) becomes a short link of the account and each recipient gets its own code of it (counted in the segments), so GET /api/sms/campaigns/{id}/clicks shows who clicked; 422 on body 'Failure to shorten a link' for an address that cannot be one",
    }),
  ),
});
const templateBody = t.Object({
  name: t.String({ description: "1 to 80 characters, unique in the account (ignoring case)" }),
  body: t.String({ description: "1 to 1,600 characters; {{name}} marks a variable (letters, digits, _)" }),
});
const idParam = t.Object({ id: t.String() });
const acceptLanguage = (request: Request) => request.headers.get("Accept-Language");
const isMultipart = (request: Request) => /^multipart\/form-data\b/i.test(request.headers.get("Content-Type") ?? "");

export const smsRoutes = new Elysia({ prefix: "/sms", tags: ["sms"], detail: { security: bearer } })
  .use(authenticated)
  .post(
    "/messages",
    ({ ctx, body, request }) => {
      const idempotencyKey = request.headers.get("Idempotency-Key");
      // error_message of opted-out, deny-listed or held entries: in the caller's language.
      if (!isMultipart(request)) return acceptSms(ctx, body, { idempotencyKey }).then((a) => localizeErrors(a, acceptLanguage(request)));
      // A CSV file of recipients: streamed from the socket into the staging table (never buffered whole).
      const boundary = boundaryOf(request.headers.get("Content-Type"));
      if (!boundary || !request.body) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
      return acceptSmsMultipart(ctx, request.body, boundary, idempotencyKey).then((a) => localizeErrors(a, acceptLanguage(request)));
    },
    {
      // multipart/form-data is left unread here: the handler streams it. Any other body is JSON.
      parse: ({ request }) => (isMultipart(request) ? {} : undefined),
      body: sendBody,
      headers: t.Object({
        "idempotency-key": t.Optional(t.String({ description: "The same key and request answer the first response; another request under the key is 409 IDEMPOTENCY_CONFLICT" })),
      }),
      detail: {
        // The custom parser hides the body's media types from the generator: the same schema, stated.
        requestBody: requestBody({
          "application/json": sendBody,
          "multipart/form-data": t.Object({ file: t.String({ format: "binary", description: "CSV of recipients" }) }, { additionalProperties: true }),
        }),
        responses: { ...successResponse(SmsAccepted, "Accepted: one entry per recipient (or a campaign summary)"), ...errorResponses(402, 409) },
        summary: "Send SMS to one number, a list, per-recipient variables or a contact group; now or scheduled; with a template and {{variables}}",
        description:
          "Recipients: exactly one of `to` (one number or up to 1,000), `messages` ([{to, variables}], up to 1,000) or `group_id` (every contact of the group " +
          "with a mobile; accepted set-based). The body is `body`, or the template's (`template_id`). Each {{variable}} is filled, per recipient, from its " +
          "`messages[].variables`, then (group sends) the contact's first_name, last_name, name, email, mobile, company, city, state or custom field keys, " +
          "then `variables` (the same for all); a variable nobody fills is 422 on `variables.<name>` ('Please fill all parameters'). Segments and price are " +
          "counted per rendered body and debited once, at acceptance, for every path (402 INSUFFICIENT_BALANCE otherwise). Opted-out and deny-listed " +
          "recipients are recorded as optout/rejected, never sent or charged. `scheduled_at` holds the messages as `scheduled` until due (debited now). " +
          "A send to more than one recipient (or to a group) creates a campaign: the answer carries campaign_id and a summary (group sends answer the " +
          "summary without the per-recipient data). Idempotency-Key header: the same key and request answer the first response; another request under " +
          "the key is 409 IDEMPOTENCY_CONFLICT. " +
          "A CSV file of recipients: send multipart/form-data with a `file` part (.csv, `,` or `;`, UTF-8 or Latin-1, up to 1,000,000 rows; the phone " +
          "column found by its header — mobile, celular, telefone, phone… — or its values; the other columns fill {{variables}} by header name) and " +
          "the other fields as plain parts (`variables` as a JSON object or `variables[name]` parts). It creates a campaign; summary.invalid counts " +
          "the rows whose number is empty or invalid, listed by GET /sms/campaigns/{id}/invalid_rows",
      },
    },
  )
  .get("/messages", ({ ctx, query, request }) => listSmsMessages(ctx, query).then((p) => localizeErrors(p, acceptLanguage(request))), {
    query: t.Object({
      id: t.Optional(t.String({ description: "One message id (uuid)" })),
      status: t.Optional(t.String({ description: "One status of spec section 4 (queued, sent, delivered, failed…)" })),
      from: t.Optional(t.String({ description: "Sender (a row's `from`), exact" })),
      to: t.Optional(t.String({ description: "Recipient (a row's `to`) in any format (normalized to E.164), exact" })),
      "created_at[gte]": t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo, from 00:00:00). Default: today" })),
      "created_at[lte]": t.Optional(t.String({ description: "Last day YYYY-MM-DD (São Paulo, to 23:59:59). Default: today; at most 31 days in all" })),
      order_by: t.Optional(t.String({ description: "created_at (the only order)" })),
      order: t.Optional(t.String({ description: "desc (default) or asc" })),
      page: t.Optional(t.String({ deprecated: true, description: "1-based page of `limit` rows (OFFSET: for the first pages; prefer cursor)" })),
      cursor: pageQuery.cursor,
      limit: pageQuery.limit,
    }),
    detail: {
      responses: successResponse(SmsHistoryPage),
      summary: `SMS history of the account, newest first (created_at, id), \`limit\` a page (default 50, at most ${MAX_LIMIT}): data (from, to; sender/recipient are deprecated aliases), next_cursor; page, last_page (from a count capped at 10,000 rows; total_capped)`,
      description:
        "Page with `cursor` (the `next_cursor` of the previous answer, same filters): keyset, fast at any depth. `page` (OFFSET) stays for the first pages. " +
        "error_message is in the caller's language (Accept-Language) when the reason is ours (opt-out, deny list, anti-fraud hold, cancel); error_code is the stable code",
    },
  })
  .get("/senders", async ({ ctx }) => onePage((await listSenders(ctx)).data), {
    detail: {
      responses: successResponse(SmsSenders),
      summary:
        "The senders the account may send from (one page: its short codes): its active short codes (type short_code, nickname, assigned: true; last_used_at null when not used in the last 90 days). A send with another sender is refused (422 on from); a blank sender uses the route's default",
    },
  })
  .get("/products", async ({ ctx }) => onePage((await listSmsProducts(ctx)).data), {
    detail: {
      responses: successResponse(SmsProducts),
      summary: "The account's SMS product (one: sms): the routes offered and their price per segment (own price row, else the platform default), integer centavos. One page",
    },
  })
  .get("/prices", async ({ ctx }) => onePage((await listSmsPrices(ctx)).data), {
    detail: {
      responses: successResponse(SmsPrices),
      summary: "The account's own SMS price rows, by route (at most one per route T1, T2, T4, T6: one page); price per segment in centavos",
    },
  })
  .get("/prices/:id", ({ ctx, params }) => getSmsPrice(ctx, params.id), {
    params: idParam,
    detail: { responses: successResponse(SmsPrice), summary: "One price row of the account (platform staff: of any account); 404 otherwise" },
  })
  .put("/prices/:id", ({ ctx, params, body }) => updateSmsPrice(ctx, params.id, body), {
    params: idParam,
    body: t.Object({ price_per_segment: t.Union([t.Integer({ minimum: 0 }), t.String()], { description: "Integer centavos per segment" }) }),
    detail: { responses: successResponse(SmsPrice), summary: "Change a price per segment: platform staff only (403 for anyone else)" },
  })
  .get("/templates", ({ ctx, query }) => pageSmsTemplates(ctx, query), {
    query: t.Object(pageQuery),
    detail: {
      responses: successResponse(SmsTemplatePage),
      summary: `SMS templates of the account by name (ignoring case), each with its {{variables}}; \`limit\` a page (default 50, at most ${MAX_LIMIT}), then \`cursor\``,
    },
  })
  .post(
    "/templates",
    async ({ ctx, body, set }) => {
      const template = await createSmsTemplate(ctx, body);
      return created(set, `/api/sms/templates/${template.id}`, template);
    },
    { body: templateBody, detail: { responses: created201(SmsTemplate), summary: "Create an SMS template (name taken: 422 on name); Location is its URL" } },
  )
  .delete("/templates", ({ ctx, body }) => deleteSmsTemplates(ctx, body), {
    body: t.Object({ ids: t.Array(t.String(), { description: "Up to 1,000 template ids; unknown ids and other accounts' are ignored" }) }),
    detail: { responses: successResponse(SmsTemplatesDeleted), summary: "Delete several SMS templates: answers how many were deleted and their ids" },
  })
  .get("/templates/:id", ({ ctx, params }) => getSmsTemplate(ctx, params.id), {
    params: idParam,
    detail: { responses: successResponse(SmsTemplate), summary: "One SMS template of the account" },
  })
  .put("/templates/:id", ({ ctx, params, body }) => updateSmsTemplate(ctx, params.id, body), {
    params: idParam,
    body: templateBody,
    detail: { responses: successResponse(SmsTemplate), summary: "Change an SMS template (name taken: 422 on name)" },
  })
  .delete("/templates/:id", ({ ctx, params }) => deleteSmsTemplate(ctx, params.id), {
    params: idParam,
    detail: { responses: successResponse(SmsTemplateDeleted), summary: "Delete an SMS template (campaigns that used it keep their text); answers its id and name" },
  })
  .get("/messages/:id", ({ ctx, params, request }) => getSmsMessage(ctx, params.id).then((m) => localizeErrors(m, acceptLanguage(request))), {
    params: t.Object({ id: t.String() }),
    detail: {
      summary: "One SMS of the account with its status history (404 for another account's); error_message in the caller's language when the reason is ours",
      responses: successResponse(SmsMessage),
    },
  });
