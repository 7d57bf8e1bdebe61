/**
 * POST /api/webhooks/rbm: Google's RCS Business Messaging agent webhook (ADR 055), the platform's
 * one URL for every agent (the partner webhook). Nothing is read into the database before the post
 * is verified:
 *   - Google's one-time verification post {clientToken, secret}: answered 200 with the secret as
 *     text/plain when clientToken is ours (RBM_CLIENT_TOKEN), else 403;
 *   - every other post is Google's push envelope {message: {data: base64(event JSON), messageId,
 *     publishTime, attributes}, subscription} with X-Goog-Signature = base64(HMAC-SHA512(client
 *     token, message.data decoded)) — as Google defines it, the signature covers the event JSON
 *     inside the envelope; compared in constant time. Missing or wrong: 401, nothing applied.
 * The event is then applied (./inbound.ts applyRbmEvent). A status of a message whose `sent` is
 * still being recorded answers 503: Google retries a post not answered 200 (with backoff, for days).
 */
import { Elysia, t } from "elysia";
import { errorResponses, successResponse } from "../http/openapi";
import { safeEqual } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { parseJson, rawBody, validGoogleSignature } from "../live/channel-webhooks";
import { rbmClientToken } from "../channels/rcs/rbm-config";
import { applyRbmEvent, type RbmEvent } from "./inbound";

const RbmWebhookAck = t.Object({
  ok: t.Literal(true),
  result: t.Union(["applied", "unchanged", "duplicate", "ignored", "received", "answered"].map((r) => t.Literal(r))),
});

type Envelope = { clientToken?: unknown; secret?: unknown; message?: { data?: unknown } };

export const rbmWebhookRoutes = new Elysia({ prefix: "/webhooks/rbm", tags: ["rcs"] }).post(
  "",
  async ({ request, set }) => {
    const raw = await rawBody(request);
    const token = rbmClientToken();
    const body = parseJson(raw) as Envelope | null;
    if (body && typeof body.clientToken === "string" && typeof body.secret === "string" && body.message === undefined) {
      if (!token || !safeEqual(body.clientToken, token)) throw new AppError("FORBIDDEN");
      set.headers["Content-Type"] = "text/plain; charset=utf-8";
      return body.secret;
    }
    const data = typeof body?.message?.data === "string" ? Buffer.from(body.message.data, "base64") : null;
    if (!data || !token || !validGoogleSignature(token, data, request.headers.get("X-Goog-Signature"))) throw new AppError("UNAUTHENTICATED");
    const event = parseJson(data) as RbmEvent;
    const result = await applyRbmEvent(event && typeof event === "object" ? event : {});
    if (result === "unknown_message") throw new AppError("RETRY_LATER");
    return { ok: true as const, result };
  },
  {
    parse: "none",
    detail: {
      responses: { ...successResponse(RbmWebhookAck, "Received (Google only reads the status: 200)"), ...errorResponses(401, 403, 503) },
      summary:
        "Google's RCS Business Messaging agent webhook (push envelope; X-Goog-Signature = base64 HMAC-SHA512 with the client token over message.data decoded; missing or wrong: 401, nothing changed): " +
        "DELIVERED/READ move the agent's messages forward; a user's text or tapped suggestion is stored once as an inbound RCS message (opt-out keywords applied, the agent's RCS keywords answered). " +
        "The verification post {clientToken, secret} is answered with the secret.",
    },
  },
);
