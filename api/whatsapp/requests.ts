/**
 * WhatsApp number requests API (issue 16; spec section 2 "/whatsapp/request"): ask for a number
 * with the business's data, list the account's requests, read one, cancel one. Thin: the
 * use-cases in ./number-requests check the roles of /whatsapp/request, validate (./request-schema)
 * and scope by account; the /whatsapp/request screen calls the same functions.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import { cancelNumberRequest, createNumberRequest, getNumberRequest, listNumberRequests } from "./number-requests";
import * as R from "./responses";

const id = t.Object({ id: t.String() });

export const whatsappRequestRoutes = new Elysia({ prefix: "/whatsapp/requests", tags: ["whatsapp"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .post(
    "",
    async ({ ctx, body, request, set }) => {
      const answer = await createNumberRequest(ctx, body, request.headers.get("Idempotency-Key"));
      return created(set, `/api/whatsapp/requests/${answer.data.id}`, answer);
    },
    {
      body: t.Object({
        legal_name: t.String({ description: "The business's legal name (razão social), 2 to 200 characters" }),
        cnpj: t.String({ description: "The business's CNPJ, with or without the mask; its check digits are verified (alphanumeric CNPJs too)" }),
        website: t.Optional(t.Union([t.String({ description: "An https address" }), t.Null()])),
        email: t.String({ description: "The business's e-mail" }),
        business_phone: t.String({ description: "The business's phone (E.164, or a Brazilian number as typed: +55 assumed for 10 or 11 digits)" }),
        address: t.Optional(t.Union([t.String({ description: "Up to 256 characters" }), t.Null()])),
        display_name: t.String({
          description:
            "The WhatsApp display name (Meta's guidelines): 3 to 200 characters, related to the business (a word of the legal name, the website or the description), letters, no emoji, no web address, no trademark symbols or repeated punctuation, not in capitals only, not 'WhatsApp'",
        }),
        vertical: t.String({
          description:
            "Meta's business category: AUTO, BEAUTY, APPAREL, EDU, ENTERTAIN, EVENT_PLAN, FINANCE, GROCERY, GOVT, HOTEL, HEALTH, NONPROFIT, PROF_SERVICES, RETAIL, TRAVEL, RESTAURANT or OTHER",
        }),
        phone_number: t.String({ description: "The number to register on WhatsApp (E.164); not one connected here already" }),
        integration: t.Optional(t.String({ description: "cloud (Meta's Cloud API, the default) or onprem (the older integration)" })),
        description: t.Optional(t.Union([t.String({ description: "What the business does and why it wants the number, up to 512 characters" }), t.Null()])),
      }),
      headers: t.Object({
        "idempotency-key": t.Optional(t.String({ description: "The same key and request answer the first response; another request under the key is 409 IDEMPOTENCY_CONFLICT" })),
      }),
      detail: {
        responses: { ...createdResponse(R.WhatsappNumberRequestOne), ...errorResponses(403, 409, 422) },
        summary:
          "Ask for a WhatsApp number: the business's data, the display name and category, the number and the integration; written `requested` for the platform's staff. Each field refused is a 422 naming it (translated); 409 NUMBER_ALREADY_REGISTERED (on phone_number) when the number is connected here, by any account; 409 NUMBER_ALREADY_REQUESTED when the account has a pending request for it",
      },
    },
  )
  .get("", ({ ctx, query }) => listNumberRequests(ctx, query), {
    query: t.Object({ status: t.Optional(t.String({ description: "requested, in_review, approved, rejected or canceled" })), ...pageQuery }),
    detail: { responses: successResponse(R.WhatsappNumberRequests), summary: "The account's number requests, newest first, each with its status (and the reason of a rejection)" },
  })
  .get("/:id", ({ ctx, params }) => getNumberRequest(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.WhatsappNumberRequestOne), ...errorResponses(404) }, summary: "One number request of the account" },
  })
  .delete("/:id", ({ ctx, params }) => cancelNumberRequest(ctx, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(R.WhatsappNumberRequestOne, "Canceled: the request as it now is"), ...errorResponses(404, 409) },
      summary: "Cancel a number request while it is requested or in review (it stays listed, canceled); 409 REQUEST_STATE once approved, rejected or canceled",
    },
  });
