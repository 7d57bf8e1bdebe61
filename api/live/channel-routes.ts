/**
 * Live chat channels and files over HTTP (ADR 017). Thin: the use-cases check permission,
 * validate and act.
 *  - JWT: the account's channel connections (GET/POST/DELETE /live/channels), an agent's file
 *    (POST /webchat/upload, multipart), a signed URL of a file (GET /live/files/{id}/url).
 *  - Public: a widget visitor's file (POST /widget/{key}/upload, multipart with visitor_id and
 *    visitor_token), and the file download (GET /live/files/{id}) for whoever may have it.
 */
import { Elysia, t } from "elysia";
import { loadActor } from "../auth/actor";
import { accessClaims, authenticated, bearer } from "../http/auth";
import { created } from "../http/created";
import { errorResponses, successResponse } from "../http/openapi";
import { AppError } from "../lib/errors";
import { onePage } from "../lib/page";
import * as R from "./config-responses";
import { agentUpload, fileForDownload, visitorUpload } from "./attachments";
import { connectChannel, disconnectChannel, getConnection, listConnections } from "./channel-connections";
import { assertAttendant } from "./rooms/guards";
import { messageView } from "./rooms/views";
import { extensionOf, fileIdParam, signedFileUrl } from "./uploads";
import { widgetCaller, widgetLimits } from "./widget-limits";

const bearerDoc = [{ bearer: [] }];
/** 415 LIVE_FILE_TYPE: not one of the accepted file types. */
const unsupportedType = errorResponses(415);
const multipart = (properties: Record<string, { type: "string"; format?: string }>, required: string[]) => ({
  content: { "multipart/form-data": { schema: { type: "object" as const, properties, required } } },
});

export const liveChannelRoutes = new Elysia({ tags: ["live"], detail: { security: bearerDoc } })
  .use(authenticated)
  .get("/live/channels", async ({ ctx }) => onePage((await listConnections(ctx)).data), {
    detail: {
      responses: successResponse(R.Connections),
      summary:
        "The account's live chat channel connections (Telegram, Messenger, Instagram, Google Business Messages) and their webhook URLs; secrets are never answered. One page (at most one connection per channel)",
    },
  })
  .post(
    "/live/channels",
    async ({ ctx, body, set }) => {
      const connected = await connectChannel(ctx, body);
      return created(set, `/api/live/channels/${connected.data.id}`, connected);
    },
    {
      body: t.Object({}, { additionalProperties: true }),
      detail: {
        responses: R.created(R.Connected, "Connected: {data: the connection} (Location: /api/live/channels/{id})"),
        summary:
          "Connect a channel: {channel: telegram, bot_token} (checked with getMe, webhook registered with setWebhook), {channel: messenger|instagram, page_id, access_token, app_secret, verify_token}, or {channel: google_business, agent_id (brands/…/agents/…), client_token (the webhook's, verifies X-Goog-Signature), service_account_key (the JSON key: client_email, private_key; replies use its OAuth2 JWT bearer token from the platform's token endpoint, GBM_TOKEN_URL; the key's token_uri is ignored)}. Secrets are sealed. Replaces the account's earlier connection of that channel",
      },
    },
  )
  .get("/live/channels/:id", async ({ ctx, params }) => ({ data: await getConnection(ctx, params.id) }), {
    params: t.Object({ id: t.String() }),
    detail: { responses: successResponse(R.Connected), summary: "One channel connection of the account and its webhook URL (secrets are never answered)" },
  })
  .delete("/live/channels/:id", ({ ctx, params }) => disconnectChannel(ctx, params.id), {
    params: t.Object({ id: t.String() }),
    detail: { responses: successResponse(R.Disconnected), summary: "Disconnect a channel (Telegram: its webhook is removed)" },
  })
  .post("/webchat/upload", async ({ ctx, request }) => messageView(await agentUpload(ctx, request)), {
    parse: "none",
    detail: {
      responses: { ...successResponse(R.LiveMessage, "Sent: the agent's message with its attachment"), ...unsupportedType },
      summary:
        "The attending agent sends a file (multipart: id_room, message, file, client_id). Types by content: jpeg, png, ogg, mp4 (H.264), webp sticker (100 KB, 512x512), doc, pdf, zip (an RCS room: only mp4, webm, jpeg, gif, png, webp, svg, else 415 LIVE_FILE_TYPE_CHANNEL); limit per channel (google-business 5,000,000 bytes; RCS 5,242,880; Messenger and Instagram 23,068,672; others 14,680,064): 413 LIVE_FILE_TOO_LARGE, 415 LIVE_FILE_TYPE",
      requestBody: multipart({ id_room: { type: "string" }, message: { type: "string" }, client_id: { type: "string" }, file: { type: "string", format: "binary" } }, [
        "id_room",
        "file",
      ]),
    },
  })
  .get(
    "/live/files/:id/url",
    async ({ ctx, params }) => {
      await fileForDownload(params.id, { actor: ctx.actor });
      return { url: signedFileUrl(params.id) };
    },
    {
      params: t.Object({ id: t.String() }),
      detail: { responses: successResponse(R.FileUrl), summary: "A signed URL of a live file, valid for one hour (for <img> tags and players)" },
    },
  );

export const liveFileRoutes = new Elysia({ tags: ["live"] }).get(
  "/live/files/:id",
  async ({ params, query, request }) => {
    const raw = bearer(request);
    let actor = null;
    if (raw) {
      const claims = await accessClaims(raw);
      if (!claims || claims.tfa !== "ok") throw new AppError("UNAUTHENTICATED");
      const wanted = request.headers.get("X-Account-Id")?.trim() || null;
      actor = await loadActor(claims.sub, wanted ?? claims.acc, { strict: wanted !== null });
      assertAttendant({ actor });
    }
    // A signed link may end in the file's extension ({id}.png, RCS's media links): only the file's own.
    const { id, ext } = fileIdParam(params.id);
    const file = await fileForDownload(id, {
      actor,
      exp: query.exp ?? null,
      sig: query.sig ?? null,
      widgetKey: query.key ?? null,
      visitorId: query.visitor_id ?? null,
      visitorToken: query.visitor_token ?? null,
    });
    if (ext && ext !== extensionOf(file.media_type)) throw new AppError("NOT_FOUND");
    const inline = file.type !== "document";
    return new Response(Bun.file(file.path), {
      headers: {
        "Content-Type": file.media_type,
        "Content-Length": String(file.size),
        "Content-Disposition": `${inline ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cache-Control": "private, max-age=3600",
      },
    });
  },
  {
    params: t.Object({ id: t.String() }),
    query: t.Object({
      exp: t.Optional(t.String({ description: "Signed URL: its expiry (Unix seconds), from GET /live/files/{id}/url" })),
      sig: t.Optional(t.String({ description: "Signed URL: its signature" })),
      key: t.Optional(t.String({ description: "Webchat visitor: the widget key" })),
      visitor_id: t.Optional(t.String({ description: "Webchat visitor: their visitor_id" })),
      visitor_token: t.Optional(t.String({ description: "Webchat visitor: their visitor_token" })),
    }),
    detail: {
      summary:
        "A live message's file: to the account's attendants (bearer), the room's webchat visitor (key, visitor_id, visitor_token) or a signed URL (exp, sig; its path may end in the file's own extension, {id}.png)",
      description:
        "The bytes with the file's media type (image/jpeg, image/png, image/webp, audio/ogg, video/mp4, application/pdf, application/msword, application/zip…); " +
        "images, audio and video inline, documents as an attachment (Content-Disposition). 401 without any credential (or with a refused bearer), 404 otherwise.",
      security: [{ bearer: [] }, {}],
      responses: {
        ...R.file({ "application/octet-stream": "The file's bytes; Content-Type is its media type" }, "The file"),
        ...errorResponses(401, 403),
      },
    },
  },
);

export const widgetUploadRoutes = new Elysia({ prefix: "/widget", tags: ["widget"] }).use(widgetLimits).post(
  "/:key/upload",
  async ({ params, request, server }) => {
    const r = await visitorUpload(params.key, request, widgetCaller(request, server));
    return { ...r, message: messageView(r.message) };
  },
  {
    params: t.Object({ key: t.String() }),
    parse: "none",
    detail: {
      responses: {
        ...successResponse(R.VisitorUpload, "Sent: the visitor's message with its attachment, and their conversation"),
        ...unsupportedType,
        ...errorResponses(401, 429),
      },
      summary:
        "A widget visitor sends a file (multipart: file, message, client_id; visitor_id and visitor_token once they have them). Without a visitor id the file starts the conversation like a first message (name, email, phone, department_id) and the answer carries the new visitor_id, visitor_token and realtime_token. Same types as the agent's, up to 14,680,064 bytes",
      requestBody: multipart(
        {
          visitor_id: { type: "string" },
          visitor_token: { type: "string" },
          name: { type: "string" },
          email: { type: "string" },
          phone: { type: "string" },
          department_id: { type: "string" },
          message: { type: "string" },
          client_id: { type: "string" },
          file: { type: "string", format: "binary" },
        },
        ["file"],
      ),
    },
  },
);
