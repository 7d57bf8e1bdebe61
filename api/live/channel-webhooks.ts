/**
 * The live chat channels' public webhooks (ADR 017), one URL per connection
 * (`/api/channels/{channel}/{connectionId}`, shown on /channels). Thin: nothing is read or written
 * before the post is verified, over the exact bytes received (`parse: "none"`):
 *
 *  - Telegram: the X-Telegram-Bot-Api-Secret-Token header must equal the secret we gave setWebhook.
 *  - Messenger, Instagram: GET is the subscription handshake (hub.mode=subscribe, hub.verify_token
 *    = the connection's verify token, answered with hub.challenge); POST carries
 *    X-Hub-Signature-256 = "sha256=" + HMAC-SHA256(app secret, raw body) in hex.
 *  - Google Business Messages: the one-time verification post {secret, clientToken} is answered
 *    with the secret (text/plain) when clientToken is the connection's (else 403); every other
 *    post carries X-Goog-Signature = base64(HMAC-SHA512(client token, raw body)).
 *
 * Comparisons are constant-time. Missing or wrong credentials answer 401 and change nothing.
 */
import { createHmac } from "node:crypto";
import { Elysia, t } from "elysia";
import { safeEqual } from "../lib/crypto";
import { errorResponses, successResponse } from "../http/openapi";
import { AppError } from "../lib/errors";
import * as R from "./config-responses";
import { googleBusinessWebhook, graphWebhook, telegramUpdate, type GbmPayload, type GraphPayload } from "./channel-inbound";
import { connectionById } from "./channel-connections";

/** A webhook post is small JSON (media arrives by URL / file id); anything bigger is not a provider's. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;

export async function rawBody(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  if (Number.isFinite(declared) && declared > MAX_WEBHOOK_BYTES) throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_WEBHOOK_BYTES) throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
  return bytes;
}

export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
  }
}

/** X-Hub-Signature-256 over the raw bytes with the app secret. */
export function validHubSignature(appSecret: string, raw: Uint8Array, header: string | null): boolean {
  if (!header || !header.startsWith("sha256=")) return false;
  const expected = `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
  return safeEqual(header.trim().toLowerCase(), expected);
}

/** X-Goog-Signature over the raw bytes with the webhook's client token. */
export function validGoogleSignature(clientToken: string, raw: Uint8Array, header: string | null): boolean {
  if (!header || !clientToken) return false;
  return safeEqual(header.trim(), createHmac("sha512", clientToken).update(raw).digest("base64"));
}

/** Business Messages' webhook verification post ({secret, clientToken}), or null for anything else. */
function googleVerification(raw: Uint8Array): { secret: string; clientToken: string } | null {
  try {
    const v = JSON.parse(new TextDecoder().decode(raw));
    if (v && typeof v.secret === "string" && typeof v.clientToken === "string" && v.conversationId === undefined) return { secret: v.secret, clientToken: v.clientToken };
  } catch {
    // not JSON: a signed event is checked (and refused) below
  }
  return null;
}

const connectionParams = t.Object({ id: t.String() });

function graphRoutes(channel: "messenger" | "instagram") {
  return new Elysia()
    .get(
      `/${channel}/:id`,
      async ({ params, query, set }) => {
        const connection = await connectionById(channel, params.id);
        if (!connection) throw new AppError("NOT_FOUND");
        const token = query["hub.verify_token"];
        const ok = query["hub.mode"] === "subscribe" && typeof token === "string" && safeEqual(token, connection.secrets.verify_token ?? "");
        if (!ok) throw new AppError("FORBIDDEN");
        set.headers["Content-Type"] = "text/plain; charset=utf-8";
        return String(query["hub.challenge"] ?? "");
      },
      {
        params: connectionParams,
        query: t.Record(t.String(), t.String()),
        detail: {
          responses: { ...R.file({ "text/plain": "The hub.challenge received, as is" }, "Subscribed: Meta expects hub.challenge echoed as the body"), ...errorResponses(403) },
          summary: `${channel} webhook subscription handshake: echoes hub.challenge (text/plain) when hub.mode is subscribe and hub.verify_token is the connection's verify token; else 403`,
        },
      },
    )
    .post(
      `/${channel}/:id`,
      async ({ params, request }) => {
        const connection = await connectionById(channel, params.id);
        if (!connection) throw new AppError("NOT_FOUND");
        const raw = await rawBody(request);
        if (!validHubSignature(connection.secrets.app_secret ?? "", raw, request.headers.get("X-Hub-Signature-256"))) throw new AppError("UNAUTHENTICATED");
        const results = await graphWebhook(connection, channel, parseJson(raw) as GraphPayload);
        return { ok: true, results };
      },
      {
        params: connectionParams,
        parse: "none",
        detail: {
          responses: { ...successResponse(R.GraphAck, "Received (Meta only reads the status: 200)"), ...errorResponses(401) },
          summary: `${channel} webhook (signed with X-Hub-Signature-256; a missing or wrong signature is 401 and changes nothing): messages open or continue rooms (a new room is named from the visitor's Graph profile, best effort); delivery and read receipts move agent messages forward`,
        },
      },
    );
}

export const channelWebhookRoutes = new Elysia({ prefix: "/channels", tags: ["channels"] })
  .post(
    "/telegram/:id",
    async ({ params, request }) => {
      const connection = await connectionById("telegram", params.id);
      if (!connection) throw new AppError("NOT_FOUND");
      const secret = request.headers.get("X-Telegram-Bot-Api-Secret-Token");
      if (!secret || !safeEqual(secret, connection.secrets.webhook_secret ?? "")) throw new AppError("UNAUTHENTICATED");
      const result = await telegramUpdate(connection, parseJson(await rawBody(request)) as Parameters<typeof telegramUpdate>[1]);
      return { ok: true, result };
    },
    {
      params: connectionParams,
      parse: "none",
      detail: {
        responses: { ...successResponse(R.TelegramAck, "Received (Telegram only reads the status: 200)"), ...errorResponses(401) },
        summary: "Telegram Bot API webhook (X-Telegram-Bot-Api-Secret-Token; a missing or wrong one is 401 and changes nothing): a visitor's message opens or continues a room",
      },
    },
  )
  .use(graphRoutes("messenger"))
  .use(graphRoutes("instagram"))
  .post(
    "/google_business/:id",
    async ({ params, request, set }) => {
      const connection = await connectionById("google_business", params.id);
      if (!connection) throw new AppError("NOT_FOUND");
      const raw = await rawBody(request);
      const verification = googleVerification(raw);
      if (verification) {
        if (!safeEqual(verification.clientToken, connection.secrets.token)) throw new AppError("FORBIDDEN");
        set.headers["Content-Type"] = "text/plain; charset=utf-8";
        return verification.secret;
      }
      if (!validGoogleSignature(connection.secrets.token, raw, request.headers.get("X-Goog-Signature"))) throw new AppError("UNAUTHENTICATED");
      const result = await googleBusinessWebhook(connection, parseJson(raw) as GbmPayload);
      return { ok: true, result };
    },
    {
      params: connectionParams,
      parse: "none",
      detail: {
        responses: {
          ...R.googleAnswer,
          ...errorResponses(401, 403),
        },
        summary:
          "Google Business Messages webhook: the verification post {secret, clientToken} is answered with the secret; events are signed with X-Goog-Signature (base64 HMAC-SHA512 of the body with the client token). Messages open or continue rooms; DELIVERED/READ receipts move agent messages forward. A verification post with another clientToken is 403; an event with a missing or wrong signature is 401",
      },
    },
  );
