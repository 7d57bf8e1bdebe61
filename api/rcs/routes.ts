/**
 * RCS send API (issue 21; spec section 7 "RCS"): accept a message (202), quote its price, read one.
 * Thin: the use-cases in ./send check roles and scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { errorResponses, successResponse, zodBody } from "../http/openapi";
import { acceptRcs, getRcsMessage, quoteRcs, sendRcsSchema } from "./send";
import * as R from "./responses";

const bearer = [{ bearer: [] }];
const content = t.Any({
  description: "The content (spec section 3): {type: text|link|midia|card|card-carousel, messageText, messageDescription, imageUrl, fileUrl, suggestions, images}",
});
const sendBody = t.Object({
  agent_id: t.Optional(t.String({ description: "The sending agent (GET /api/rcs/agents), launched. Absent: the account's default agent (/settings/resources)" })),
  to: t.String({ description: "The handset, E.164" }),
  content: t.Optional(content),
  template_id: t.Optional(t.String({ description: "Instead of content: a saved template's content" })),
  fallback_sms: t.Optional(t.Boolean({ description: "SMS instead when the handset is not RCS-capable (default: the account's setting)" })),
});

export const rcsSendRoutes = new Elysia({ prefix: "/rcs", tags: ["rcs"], detail: { security: bearer } })
  .use(authenticated)
  .post(
    "/messages",
    async ({ ctx, body, request, set }) => {
      const answer = await acceptRcs(ctx, body, request.headers.get("Idempotency-Key"));
      set.status = 202;
      return answer;
    },
    {
      body: sendBody,
      detail: {
        requestBody: zodBody(sendRcsSchema),
        responses: { ...successResponse(R.RcsAccepted, "Accepted", 202), ...errorResponses(402, 409, 422) },
        summary:
          "Send one RCS message from a launched agent: priced basic (a plain text under 160 characters) or rich and debited at accept; 11 cards, 12 suggestions, a card without title and media, a media link not ending .jpg/.jpeg/.png/.gif/.webp/.mp3/.mp4/.webm/.pdf or text over RBM's limits: 422 naming the rule, nothing charged. Idempotency-Key honoured",
      },
    },
  )
  .post("/messages/quote", ({ ctx, body }) => quoteRcs(ctx, body), {
    body: sendBody,
    detail: {
      responses: { ...successResponse(R.RcsQuote), ...errorResponses(422) },
      summary: "What a send would cost (class and price), without sending: the composer shows it before sending",
    },
  })
  .get("/messages/:id", ({ ctx, params }) => getRcsMessage(ctx, params.id), {
    params: t.Object({ id: t.String() }),
    detail: {
      responses: { ...successResponse(R.RcsMessageOne), ...errorResponses(404) },
      summary: "One RCS message of the account: content, status (queued, sending, sent, delivered, read, failed), price class, and its SMS fallback leg if one stood in",
    },
  });
