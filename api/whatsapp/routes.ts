/**
 * WhatsApp API (issue 16; spec section 7 "WhatsApp new"): numbers and templates of the acting
 * account, the provider webhooks of a number (Meta's, and an onprem number's client's), and platform
 * staff's reports over every account (/api/admin/whatsapp, ./admin-reports). Thin:
 * the use-cases in ./numbers and ./templates check roles and plan and scope by account;
 * ./webhooks applies what Meta posts, ./onprem-webhooks what an On-Premises client posts.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, fileResponse, requestBody, successResponse, zodBody } from "../http/openapi";
import { boundaryOf } from "../imports/multipart";
import { safeEqual } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { pageQuery } from "../lib/page-schema";
import { parseJson, rawBody, validHubSignature } from "../live/channel-webhooks";
import { connectWhatsappNumber, disconnectWhatsappNumber, listWhatsappNumbers, numberById, numberByIdCached } from "./numbers";
import * as R from "./responses";
import { createWhatsappTemplate, deleteWhatsappTemplate, getWhatsappTemplate, listWhatsappTemplates } from "./templates";
import { applyCloudWebhook, type CloudWebhook } from "./webhooks";
import { validOnpremWebhookToken } from "./integrations";
import { applyOnpremWebhook, type OnpremWebhook } from "./onprem-webhooks";
import { connectNumberSchema } from "./schemas";
import { whatsappRoomComposer } from "./live";
import { acceptWhatsappCampaign } from "./bulk";
import { controlCampaign, deleteCampaign, getCampaign, getCampaignClicks, listCampaigns } from "../campaigns/control";
import { CampaignClicksOne, CampaignControlled, CampaignDeleted, CampaignOne, CampaignPage } from "../campaigns/responses";
import { getWhatsappWindow } from "./window";
import { acceptWhatsapp, getWhatsappMessage } from "./send";
import { getWhatsappMedia, uploadWhatsappMedia } from "./media";
import { listWhatsappMessages } from "./history";
import { adminWhatsappInsights, adminWhatsappMessage, adminWhatsappMessages, adminWhatsappStat } from "./admin-reports";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const mediaFields = {
  link: t.Optional(t.String({ description: "https, a public address ('Invalid media URL' otherwise); or:" })),
  id: t.Optional(t.String({ description: "A file uploaded with POST /whatsapp/media as this kind (exactly one of link and id)" })),
};
const media = (description: string, caption: boolean) => t.Object({ ...mediaFields, ...(caption ? { caption: t.Optional(t.String()) } : {}) }, { description });
const text = (description: string) => t.Optional(t.Union([t.String(), t.Null()], { description }));

export const whatsappRoutes = new Elysia({ prefix: "/whatsapp", tags: ["whatsapp"], detail: { security: bearer } })
  .use(authenticated)
  .get("/numbers", ({ ctx, query }) => listWhatsappNumbers(ctx, query), {
    query: t.Object(pageQuery),
    detail: { responses: successResponse(R.WhatsappNumbers), summary: "The account's WhatsApp numbers with what Meta reports about them (never their secrets)" },
  })
  .get("/new/numbers", ({ ctx, query }) => listWhatsappNumbers(ctx, query), {
    query: t.Object(pageQuery),
    detail: { responses: successResponse(R.WhatsappNumbers), summary: "Spec path of GET whatsapp/numbers" },
  })
  .post(
    "/numbers",
    async ({ ctx, body, set }) => {
      const answer = await connectWhatsappNumber(ctx, body);
      return created(set, `/api/whatsapp/numbers/${answer.data.id}`, answer);
    },
    {
      // Either integration's form (cloud: phone_number_id, waba_id, access_token, app_secret; onprem: base_url, username, password, phone_number), checked by its zod schema.
      body: t.Record(t.String(), t.Any()),
      detail: {
        requestBody: zodBody(connectNumberSchema),
        responses: { ...createdResponse(R.WhatsappNumberOne), ...errorResponses(409, 422, 502) },
        summary:
          "Connect a number. Cloud API (integration cloud or absent): checked at Meta with the token (422 on access_token or phone_number_id), its WABA's webhooks pointed at webhook_url (Meta's handshake first). On-Premises API at a BSP (integration onprem): logged in at base_url with username and password (422 on password when refused; 422 on base_url when the address is refused, unreachable, or not a connected client), the client's webhooks pointed at this number's URL with a token of ours. 409 NUMBER_ALREADY_REGISTERED when an account has it; 502 when the provider does not answer",
      },
    },
  )
  .delete("/new/numbers/:number", ({ ctx, params }) => disconnectWhatsappNumber(ctx, params.number), {
    params: t.Object({ number: t.String({ description: "The number's id here, or its phone number id" }) }),
    detail: { responses: successResponse(R.Deleted), summary: "Disconnect a number: its templates go with it; Meta stops posting its webhooks" },
  })
  .post(
    "/messages",
    async ({ ctx, body, request, set }) => {
      const answer = await acceptWhatsapp(ctx, body, request.headers.get("Idempotency-Key"));
      set.status = 202;
      return answer;
    },
    {
      body: t.Object({
        from: t.Optional(
          t.String({
            description:
              "The number that sends: its id here, or its phone number id (Meta's, or the older integration's number). Absent: the account's default number (/settings/resources)",
          }),
        ),
        to: t.String({ description: "The contact, E.164" }),
        type: t.String({ description: "text (only inside the contact's 24-hour window) or template (an approved one)" }),
        text: t.Optional(t.Object({ body: t.String({ description: "Up to 4,096 characters" }) })),
        template: t.Optional(
          t.Object({
            name: t.String(),
            language: t.String({ description: "e.g. pt_BR" }),
            variables: t.Optional(t.Array(t.String(), { description: "The body's variables, {{1}} first" })),
            header_variable: t.Optional(t.String({ description: "The text header's variable, when it has one" })),
            header_media: t.Optional(
              t.Object({ link: t.String() }, { description: "An image, video or document header's file by an https link (default: the example the template was submitted with)" }),
            ),
            button_variable: t.Optional(t.String({ description: "The URL button's variable, when it has one" })),
          }),
        ),
        image: t.Optional(media("A JPG/PNG image by an https link the provider fetches, or by the id of an upload", true)),
        video: t.Optional(media("An MP4/3GPP (H.264) video by link or id", true)),
        document: t.Optional(
          t.Object(
            { ...mediaFields, caption: t.Optional(t.String()), filename: t.Optional(t.String()) },
            { description: "A document (PDF, DOC(X), XLS(X), PPT(X), TXT) by link or id" },
          ),
        ),
        audio: t.Optional(media("An audio (AAC, MP4, MP3, AMR, OGG Opus) by link or id (no caption)", false)),
        sticker: t.Optional(media("A WebP sticker (512x512, up to 100 KB) by link or id (no caption)", false)),
        location: t.Optional(
          t.Object(
            { latitude: t.Number(), longitude: t.Number(), name: t.Optional(t.String()), address: t.Optional(t.String()) },
            { description: "A place: latitude -90..90, longitude -180..180" },
          ),
        ),
        interactive: t.Optional(
          t.Record(t.String(), t.Any(), {
            description:
              "Graph's interactive object: {type: button, body: {text}, action: {buttons: [{type: reply, reply: {id, title ≤ 20, distinct}}] (1–3)}} or {type: list, body: {text}, action: {button, sections: [{title, rows: [{id, title ≤ 24, description ≤ 72}]}]}} (10 rows in all)",
          }),
        ),
      }),
      headers: t.Object({
        "idempotency-key": t.Optional(t.String({ description: "The same key and request answer the first response; another request under the key is 409 IDEMPOTENCY_CONFLICT" })),
      }),
      detail: {
        responses: {
          ...successResponse(R.WhatsappAccepted, "Accepted: queued (sent by the worker; statuses by Meta's webhooks), or optout/rejected at price 0", 202),
          ...errorResponses(402, 409),
        },
        summary:
          "Send one WhatsApp message: free text inside the contact's 24-hour window, else an approved template with its variables ('Please provide a template before sending', 'Please fill all parameters'); priced by Meta's category in the account's currency and debited now",
      },
    },
  )
  .post(
    "/media",
    async ({ ctx, request, query, set }) => {
      const boundary = boundaryOf(request.headers.get("Content-Type"));
      if (!boundary || !request.body) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
      const answer = await uploadWhatsappMedia(ctx, request.body, boundary, query.type ?? null);
      return created(set, `/api/whatsapp/media/${answer.data.id}`, answer);
    },
    {
      // The body is streamed by the handler (never read whole): no parser.
      parse: "none",
      query: t.Object({ type: t.Optional(t.String({ description: "The kind it will be sent as (also a `type` part before the file)" })) }),
      detail: {
        requestBody: requestBody({
          "multipart/form-data": t.Object({
            type: t.Optional(t.String({ description: "image, video, audio, document or sticker; without it, the kind the content says" })),
            file: t.String({ format: "binary" }),
          }),
        }),
        responses: { ...createdResponse(R.WhatsappMediaOne), ...errorResponses(413, 415) },
        summary:
          "Upload a file for a WhatsApp send (Graph's media upload): its type read from its content (image JPEG/PNG; video MP4/3GPP H.264; audio AAC, MP4, MP3, AMR, OGG Opus; document PDF, DOC(X), XLS(X), PPT(X), TXT; sticker WebP 512x512). Sizes (spec): image 14,680,064 bytes, video 16,777,216, audio and document 104,857,600, sticker 100 KB, checked while it arrives: 413 'Invalid file size'; another type: 415; an image that does not decode: 422 'Invalid image or corrupted'. Send it with POST /whatsapp/messages as {type, <type>: {id}}",
      },
    },
  )
  .get("/media/:id", ({ ctx, params }) => getWhatsappMedia(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.WhatsappMediaOne), summary: "An uploaded file of the account with a fresh signed link (24 hours); another account's is not found" },
  })
  .get("/messages", ({ ctx, query }) => listWhatsappMessages(ctx, query), {
    query: t.Object({
      id: t.Optional(t.String({ description: "One message id (uuid)" })),
      status: t.Optional(t.String({ description: "One status (queued, sent, delivered, read, failed, received…)" })),
      from: t.Optional(t.String({ description: "Sender (a row's `from`), exact: the number's phone number id, or a contact for inbound messages" })),
      to: t.Optional(t.String({ description: "Recipient (a row's `to`) in any format (normalized to E.164), exact" })),
      "created_at[gte]": t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo, from 00:00:00). Default: the last day" })),
      "created_at[lte]": t.Optional(t.String({ description: "Last day YYYY-MM-DD (São Paulo, to 23:59:59). Default: today; at most 31 days in all" })),
      order: t.Optional(t.String({ description: "desc (default, newest first) or asc" })),
      ...pageQuery,
    }),
    detail: {
      responses: successResponse(R.WhatsappMessages),
      summary: "WhatsApp history of the account (both directions) of a range of São Paulo days, newest first, a keyset page of `limit` (send `cursor` back with the same filters)",
    },
  })
  .get("/messages/:id", ({ ctx, params }) => getWhatsappMessage(ctx, params.id), {
    params: id,
    detail: {
      responses: successResponse(R.WhatsappMessageOne),
      summary: "One WhatsApp message of the account: status (queued, sending, sent, delivered, read, failed…) with Meta's error, timestamps",
    },
  })
  .post(
    "/campaigns",
    async ({ ctx, body, request, set }) => {
      const answer = await acceptWhatsappCampaign(ctx, body, request.headers.get("Idempotency-Key"));
      return created(set, `/api/whatsapp/campaigns/${answer.data.campaign_id}`, answer);
    },
    {
      body: t.Object({
        from: t.Optional(
          t.String({
            description:
              "The number that sends: its id here, or its phone number id (Meta's, or the older integration's number). Absent: the account's default number (/settings/resources)",
          }),
        ),
        name: t.Optional(t.String({ description: "The campaign's name (default: the source and the template)" })),
        template: t.Object({
          name: t.String(),
          language: t.String(),
          variables: t.Optional(
            t.Array(t.String(), {
              description:
                "The body's variables, {{1}} first: a value, or a contact field written {{first_name}} ({{name}}, {{company}}, a custom field's key…) filled per recipient",
            }),
          ),
          header_variable: t.Optional(t.String()),
          header_media: t.Optional(t.Object({ link: t.String() }, { description: "A media header's file by an https link (default: the template's example)" })),
          button_variable: t.Optional(t.String()),
        }),
        to: t.Optional(t.Array(t.String(), { description: "Up to 10,000 numbers, E.164 (repeats sent once)" })),
        group_id: t.Optional(t.String({ description: "Or a contact group: every member with a mobile number" })),
        scheduled_at: t.Optional(t.String({ description: "ISO 8601 time to send at (up to 90 days ahead); the messages stay scheduled until then" })),
        shorten_links: t.Optional(
          t.Boolean({
            description:
              "Each http(s) address in the variables' values (at most 5) becomes a short link of the account with a code per recipient, so GET /api/whatsapp/campaigns/{id}/clicks shows who clicked; 422 on template.variables 'Failure to shorten a link' for an address that cannot be one",
          }),
        ),
      }),
      headers: t.Object({ "idempotency-key": t.Optional(t.String({ description: "The same key and request answer the first response" })) }),
      detail: {
        responses: { ...createdResponse(R.WhatsappCampaignAccepted), ...errorResponses(402, 409) },
        summary:
          "Send an approved template to a list or a contact group as a campaign, now or scheduled: priced by the template's category and debited at accept; opted-out and denied contacts written as optout/rejected at price 0; a variable a recipient has no value for refuses it naming the variable",
      },
    },
  )
  .get("/campaigns", ({ ctx, query }) => listCampaigns(ctx, query, "whatsapp"), {
    query: t.Object({ status: t.Optional(t.String()), cursor: pageQuery.cursor, limit: pageQuery.limit, page: t.Optional(t.String({ deprecated: true })) }),
    detail: {
      responses: successResponse(CampaignPage),
      summary: "WhatsApp campaigns of the account, newest first, each with per-status message counts and progress (live counters)",
    },
  })
  .get("/campaigns/:id", ({ ctx, params }) => getCampaign(ctx, params.id, "whatsapp"), {
    params: id,
    detail: { responses: successResponse(CampaignOne), summary: "One WhatsApp campaign with its per-status counts, progress and cost" },
  })
  .get("/campaigns/:id/clicks", ({ ctx, params }) => getCampaignClicks(ctx, params.id, "whatsapp"), {
    params: id,
    detail: {
      responses: successResponse(CampaignClicksOne),
      summary: "Who clicked the campaign's links shortened per recipient (shorten_links): totals, per link, the last 100 who clicked; data null when it shortened none",
    },
  })
  .put("/campaigns/:id", ({ ctx, params, body }) => controlCampaign(ctx, params.id, body, "whatsapp"), {
    params: id,
    body: t.Object({ status: t.String({ description: "paused (pause), running (resume) or canceled (cancel: unsent messages fail as `canceled` and are refunded)" }) }),
    detail: {
      responses: { ...successResponse(CampaignControlled), ...errorResponses(409) },
      summary: "Pause, resume or cancel a WhatsApp campaign; 409 CAMPAIGN_STATE when impossible",
    },
  })
  .delete("/campaigns/:id", ({ ctx, params }) => deleteCampaign(ctx, params.id, "whatsapp"), {
    params: id,
    detail: { responses: { ...successResponse(CampaignDeleted), ...errorResponses(409) }, summary: "Delete a finished WhatsApp campaign; its messages keep their history" },
  })
  .get("/rooms/:id/composer", ({ ctx, params }) => whatsappRoomComposer(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.WhatsappRoomComposer), ...errorResponses(403, 404) },
      summary:
        "What the composer of a WhatsApp live chat room may send now: the contact's 24-hour window (free text and files while open) and the number's approved templates it can fill (body variables), for whoever may see the room",
    },
  })
  .get("/window", ({ ctx, query }) => getWhatsappWindow(ctx, query), {
    query: t.Object({ number_id: t.String({ description: "The number (its id here)" }), to: t.String({ description: "The contact, E.164" }) }),
    detail: {
      responses: successResponse(R.WhatsappWindowOne),
      summary:
        "The 24-hour customer-service window of a number and a contact: open (free-form messages allowed) until expires_at, 24 hours after the contact's last message; closed: only templates",
    },
  })
  .get("/templates", ({ ctx, query }) => listWhatsappTemplates(ctx, query), {
    query: t.Object({ status: t.Optional(t.String()), number_id: t.Optional(t.String()), ...pageQuery }),
    detail: {
      responses: successResponse(R.WhatsappTemplates),
      summary: "The account's templates, newest first, each with its status (pending, approved, rejected, paused, disabled)",
    },
  })
  .post(
    "/templates",
    async ({ ctx, body, set }) => {
      const answer = await createWhatsappTemplate(ctx, body);
      return created(set, `/api/whatsapp/templates/${answer.data.id}`, answer);
    },
    {
      body: t.Object({
        number_id: t.String({ description: "The number (its id here) whose WhatsApp Business Account gets the template" }),
        name: t.String({ description: "Lowercase letters, digits and underscores" }),
        category: t.String({ description: "utility, marketing or authentication" }),
        language: t.String({ description: "e.g. pt_BR, en_US, es" }),
        header: t.Optional(
          t.Union([
            t.Null(),
            t.Object({ type: t.Literal("text"), text: t.String(), example: t.Optional(t.String()) }),
            t.Object({ type: t.Union([t.Literal("image"), t.Literal("video"), t.Literal("document")]), url: t.String({ description: "https; JPG/PNG, MP4 or PDF" }) }),
          ]),
        ),
        body: t.String({ description: "Up to 1,024 characters; variables {{1}}, {{2}}… in order" }),
        body_examples: t.Optional(t.Array(t.String(), { description: "One example per body variable" })),
        footer: text("Up to 60 characters, no variables"),
        buttons: t.Optional(
          t.Array(
            t.Union([
              t.Object({ type: t.Literal("quick_reply"), text: t.String() }),
              t.Object({ type: t.Literal("phone"), text: t.String(), phone: t.String({ description: "E.164" }) }),
              t.Object({ type: t.Literal("url"), text: t.String(), url: t.String({ description: "At most one variable, {{1}}, at its end" }), example: t.Optional(t.String()) }),
            ]),
            { description: "At most 3: quick replies (distinct texts), a phone, a website" },
          ),
        ),
      }),
      detail: {
        responses: { ...createdResponse(R.WhatsappTemplateOne), ...errorResponses(403, 422, 502) },
        summary:
          "Create a template and submit it to Meta (status pending until Meta's webhook approves or rejects it). Each of Meta's rules broken is a 422 naming it; Meta's own refusal is a 422 on the form; 403 PLAN_REQUIRED without the plan's whatsapp permission",
      },
    },
  )
  .get("/templates/:id", ({ ctx, params }) => getWhatsappTemplate(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.WhatsappTemplateOne), summary: "One template with its status and Meta's reason of a rejection" },
  })
  .delete("/templates/:id", ({ ctx, params }) => deleteWhatsappTemplate(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Deleted), summary: "Delete a template here and at Meta (every language of its name, as Graph does)" },
  });

const accountQuery = { account_id: t.Optional(t.String({ description: "One account (uuid); absent: every account" })) };

/** Platform staff's WhatsApp reports (policy /admin/whatsapp/reports/*; ./admin-reports checks the staff): every account's figures and history, or one account's. */
export const whatsappAdminRoutes = new Elysia({ prefix: "/admin/whatsapp", tags: ["admin"], detail: { security: bearer } })
  .use(authenticated)
  .get("/stat", async ({ ctx, query }) => ({ ...(await adminWhatsappStat(ctx, query)), next_cursor: null }), {
    query: t.Object({
      from: t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo). Default: 6 days before `to`" })),
      to: t.Optional(t.String({ description: "Last day (default today); at most 31 days" })),
      ...accountQuery,
    }),
    detail: {
      responses: successResponse(R.AdminWhatsappStat),
      summary:
        "Platform-wide WhatsApp statistics of a period (one page: at most 31 days): per day messages, delivered, read, failed; per Meta category count and cost; the 20 accounts with the most messages",
    },
  })
  .get("/insights", async ({ ctx, query }) => ({ ...(await adminWhatsappInsights(ctx, query)), next_cursor: null }), {
    query: t.Object({ days: t.Optional(t.String({ description: "7 (default) or 30" })), ...accountQuery }),
    detail: {
      responses: successResponse(R.AdminWhatsappInsights),
      summary: "Platform-wide WhatsApp insights of the last 7 or 30 São Paulo days (one page: one row a day): sent, delivered, read, failed, rates, cost per currency, received",
    },
  })
  .get("/messages", ({ ctx, query }) => adminWhatsappMessages(ctx, query), {
    query: t.Object({
      status: t.Optional(t.String({ description: "One status (queued, sent, delivered, read, failed, received…)" })),
      from: t.Optional(t.String({ description: "Sender, exact: a number's phone number id, or a contact for inbound messages" })),
      to: t.Optional(t.String({ description: "Recipient in any format (normalized to E.164), exact" })),
      "created_at[gte]": t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo). Default: the last day" })),
      "created_at[lte]": t.Optional(t.String({ description: "Last day YYYY-MM-DD (São Paulo). Default: today; at most 31 days in all" })),
      ...accountQuery,
      ...pageQuery,
    }),
    detail: {
      responses: successResponse(R.AdminWhatsappMessages),
      summary:
        "Every account's WhatsApp messages (both directions) of a range of São Paulo days, newest first, each with its account; a keyset page of `limit` (send `cursor` back with the same filters)",
    },
  })
  .get("/messages/:id", ({ ctx, params }) => adminWhatsappMessage(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.AdminWhatsappMessageOne), summary: "One WhatsApp message of any account with its account and its events, oldest first" },
  });

/** Meta's webhooks of one number: the subscription handshake and the signed events. */
const cloudWebhookRoutes = new Elysia({ prefix: "/webhooks/whatsapp", tags: ["whatsapp"] })
  .get(
    "/:id",
    async ({ params, query, set }) => {
      const number = await numberById(params.id);
      if (!number || number.integration !== "cloud") throw new AppError("NOT_FOUND");
      const token = query["hub.verify_token"];
      if (query["hub.mode"] !== "subscribe" || typeof token !== "string" || !safeEqual(token, number.secrets.verify_token)) throw new AppError("FORBIDDEN");
      set.headers["Content-Type"] = "text/plain; charset=utf-8";
      return String(query["hub.challenge"] ?? "");
    },
    {
      params: id,
      query: t.Record(t.String(), t.String()),
      detail: {
        responses: {
          ...fileResponse({ "text/plain": "The hub.challenge received, as is" }, "Subscribed: Meta expects hub.challenge echoed as the body"),
          ...errorResponses(403, 404),
        },
        summary: "WhatsApp webhook subscription handshake: echoes hub.challenge when hub.mode is subscribe and hub.verify_token is the number's; else 403",
      },
    },
  )
  .post(
    "/:id",
    async ({ params, request }) => {
      const number = await numberByIdCached(params.id);
      if (!number || number.integration !== "cloud") throw new AppError("NOT_FOUND");
      const raw = await rawBody(request);
      if (!validHubSignature(number.secrets.app_secret, raw, request.headers.get("X-Hub-Signature-256"))) throw new AppError("UNAUTHENTICATED");
      const results = await applyCloudWebhook(number, parseJson(raw) as CloudWebhook);
      // A status of a message we do not know yet: its `sent` (with Meta's id) may still be being
      // recorded by the worker that sent it. Meta retries a post answered with an error, with
      // backoff, for days: 503 asks for that retry (what was applied stays applied; a repeat is a duplicate).
      if (results.some((r) => r.result === "unknown_message")) throw new AppError("RETRY_LATER");
      return { ok: true as const, results };
    },
    {
      params: id,
      parse: "none",
      detail: {
        responses: { ...successResponse(R.CloudWebhookAck, "Received (Meta only reads the status: 200)"), ...errorResponses(401, 404, 503) },
        summary:
          "WhatsApp Cloud API webhook (X-Hub-Signature-256 with the app secret over the raw body; missing or wrong: 401, nothing changed): template status updates move the number's templates (an event older than the last decision changes nothing); a contact's messages are stored once (opt-out keywords applied) and open its 24-hour window",
      },
    },
  );

/** An onprem number's client's webhooks (ADR 035): the token of the URL we registered, then its messages and statuses. */
const onpremWebhookRoutes = new Elysia({ prefix: "/webhooks/whatsapp-onprem", tags: ["whatsapp"] }).post(
  "/:id",
  async ({ params, query, request }) => {
    const number = await numberByIdCached(params.id);
    if (!number || number.integration !== "onprem") throw new AppError("NOT_FOUND");
    if (!validOnpremWebhookToken(number, typeof query.token === "string" ? query.token : null)) throw new AppError("UNAUTHENTICATED");
    const results = await applyOnpremWebhook(number, parseJson(await rawBody(request)) as OnpremWebhook);
    // A status of a message whose send is still being recorded: the client retries a callback not answered 200 (callback_persist), so 503 asks for that retry.
    if (results.some((r) => r.result === "unknown_message")) throw new AppError("RETRY_LATER");
    return { ok: true as const, results };
  },
  {
    params: id,
    query: t.Object({ token: t.Optional(t.String({ description: "The number's webhook token, part of the URL registered with the client at connect" })) }),
    parse: "none",
    detail: {
      responses: { ...successResponse(R.CloudWebhookAck, "Received (the client only reads the status: 200)"), ...errorResponses(401, 404, 503) },
      summary:
        "WhatsApp On-Premises API webhook of an onprem number (the client cannot sign: the token of the URL registered at connect; missing or wrong: 401, nothing changed): a contact's messages are stored once and open its 24-hour window; statuses move the number's messages (a status of a message not recorded yet: 503, posted again)",
    },
  },
);

/** The provider webhooks of WhatsApp numbers, both integrations. */
export const whatsappWebhookRoutes = new Elysia().use(cloudWebhookRoutes).use(onpremWebhookRoutes);
