/**
 * The e-mail lists over the API (issue 17; the screens /mail/optouts and /mail/denylist): the
 * account's e-mail opt-outs (channel email) and the deny list's addresses, under /api/email with
 * the JWT. The same use-cases as the screens (api/optouts/services.ts: permission, account scope,
 * address validation, audit); the entry shapes are the SMS lists' (api/optouts/responses.ts).
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { errorResponses, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import { created201, createdOr200, withTo } from "../optouts/routes";
import * as R from "../optouts/responses";
import { addEmailDenyEntry, addEmailOptout, listEmailDenyList, listEmailOptouts, removeEmailDenyEntry, removeEmailOptout } from "../optouts/services";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const listQuery = t.Object({ q: t.Optional(t.String({ description: "Part of the address" })), ...pageQuery });
const address = {
  to: t.Optional(t.String({ description: "The e-mail address; stored trimmed, lower case. Required" })),
  recipient: t.Optional(t.String({ deprecated: true, description: "Alias of to (used when to is absent)" })),
};

export const emailListRoutes = new Elysia({ prefix: "/email", tags: ["email"], detail: { security: bearer } })
  .use(authenticated)
  .get("/optouts", ({ ctx, query }) => listEmailOptouts(ctx, query), {
    query: listQuery,
    detail: { responses: successResponse(R.EmailOptoutPage), summary: "E-mail opt-outs of the account (unsubscribes, complaints, manual), newest first, keyset paged" },
  })
  .post("/optouts", async ({ ctx, body, set }) => createdOr200(set, "/api/email/optouts", await withTo(body, (input) => addEmailOptout(ctx, input, { source: "api" }))), {
    body: t.Object(address),
    detail: {
      responses: {
        ...created201(R.EmailOptoutSaved, "Opted out (created: true): Location is the entry"),
        ...successResponse(R.EmailOptoutSaved, "Already opted out: the existing entry (created: false)"),
      },
      summary: "Opt an address out of the account's e-mail: later sends to it end optout, not charged. 201 + Location; one already there answers 200 (created: false)",
    },
  })
  .delete("/optouts/:id", ({ ctx, params }) => removeEmailOptout(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Ok), ...errorResponses(404) }, summary: "Remove an e-mail opt-out: the address may be sent to again" },
  })
  .get("/blacklist", ({ ctx, query }) => listEmailDenyList(ctx, query), {
    query: listQuery,
    detail: { responses: successResponse(R.EmailDenyPage), summary: "The deny list's e-mail addresses (hard bounces and manual entries), newest first, keyset paged" },
  })
  .post("/blacklist", async ({ ctx, body, set }) => createdOr200(set, "/api/email/blacklist", await withTo(body, (input) => addEmailDenyEntry(ctx, input))), {
    body: t.Object({ ...address, reason: t.Optional(t.Union([t.String({ description: "Up to 255 characters" }), t.Null()])) }),
    detail: {
      responses: {
        ...created201(R.EmailDenySaved, "Denied (created: true): Location is the entry"),
        ...successResponse(R.EmailDenySaved, "Already denied: the existing entry (created: false)"),
      },
      summary: "Deny an address: sends to it end rejected, not charged. 201 + Location; one already there answers 200 (created: false)",
    },
  })
  .delete("/blacklist/:id", ({ ctx, params }) => removeEmailDenyEntry(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Ok), ...errorResponses(404) }, summary: "Remove an address from the deny list" },
  });
