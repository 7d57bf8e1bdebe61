/**
 * Moderation API for words and URLs under review and their approvals (spec section 7). Thin: the
 * use-cases check who may (./access), validate and scope. /…/approvals comes before /…/:id.
 * Lists answer {data, next_cursor} by keyset (api/lib/page.ts); a create answers 201 + Location.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { successResponse } from "../http/openapi";
import { createdResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import { approve, getApproval, listApprovals, reject, requestApproval, updateApprovalNote } from "./approvals";
import type { TermKind } from "./match";
import * as R from "./responses";
import { addTerm, getTerm, listTerms, removeTerm, updateTerm } from "./terms";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
/**
 * pageQuery with `limit` checked by the use-case only: pageQuery's pattern would answer a bad limit
 * with TypeBox's generic "Invalid value" instead of intParam's "Must be an integer" / "Minimum value 1".
 */
const page = { ...pageQuery, limit: t.Optional(t.String({ description: pageQuery.limit.description })) };
const listQuery = t.Object({ ...page, status: t.Optional(t.String({ description: "pending, approved or rejected (default: all)" })) });
const termBody = t.Object({
  value: t.String({ description: "A word or phrase (stored lowercase without accents) / a domain (bit.ly)" }),
  note: t.Optional(t.Union([t.String(), t.Null()])),
});

function kindRoutes(kind: TermKind, plural: "words" | "urls") {
  return new Elysia({ prefix: `/${plural}`, tags: ["moderation"], detail: { security: bearer } })
    .use(authenticated)
    .get("/approvals", ({ ctx, query }) => listApprovals(ctx, kind, query), {
      query: listQuery,
      detail: {
        responses: successResponse(R.ApprovalPage),
        summary: `Reviews of ${plural} under review: platform staff see every account's, an account (admin, sales) its own; pending first, then newest first, by keyset (cursor, limit)`,
      },
    })
    .post(
      "/approvals",
      async ({ ctx, body, set }) => {
        const r = await requestApproval(ctx, kind, body);
        return r.created ? created(set, `/api/${plural}/approvals/${r.data.id}`, r) : r;
      },
      {
        body: termBody,
        detail: {
          responses: {
            ...createdResponse(R.ApprovalSaved, "The request was created; Location is its URL"),
            ...successResponse(R.ApprovalSaved, "The account's open request for the term (its note updated when given)"),
          },
          summary: `The account asks to use a ${kind} under review (201 + Location), or adds a note to its open request (200)`,
        },
      },
    )
    .get("/approvals/:id", ({ ctx, params }) => getApproval(ctx, kind, params.id), {
      params: id,
      detail: { responses: successResponse(R.ApprovalDetail), summary: "One review with (up to 100 of) the messages it holds or held" },
    })
    .put("/approvals/:id", ({ ctx, params, body }) => updateApprovalNote(ctx, kind, params.id, body), {
      params: id,
      body: t.Object({ note: t.Union([t.String(), t.Null()]) }),
      detail: { responses: successResponse(R.ApprovalOne), summary: "The account's justification on its review" },
    })
    .post("/approvals/:id/approve", ({ ctx, params }) => approve(ctx, kind, params.id), {
      params: id,
      detail: {
        responses: successResponse(R.ApprovalApproved),
        summary: "Platform staff: approve — the account may use the term; its held messages are sent. Approving again answers released 0; a rejected review is 422 on status",
      },
    })
    .post("/approvals/:id/reject", ({ ctx, params, body }) => reject(ctx, kind, params.id, body), {
      params: id,
      body: t.Object({ reason: t.String({ description: "Shown on each rejected message" }) }),
      detail: {
        responses: successResponse(R.ApprovalRejected),
        summary: "Platform staff: reject — held messages become rejected with the reason and are refunded (once). Rejecting again answers 0; an approved review is 422 on status",
      },
    })
    .get("", ({ ctx, query }) => listTerms(ctx, kind, query), {
      query: t.Object(page),
      detail: { responses: successResponse(R.TermPage), summary: `Platform staff: the ${plural} under review, by value, by keyset (cursor, limit)` },
    })
    .post(
      "",
      async ({ ctx, body, set }) => {
        const r = await addTerm(ctx, kind, body);
        return r.created ? created(set, `/api/${plural}/${r.data.id}`, r) : r;
      },
      {
        body: termBody,
        detail: {
          responses: { ...createdResponse(R.TermSaved, "Put under review; Location is its URL"), ...successResponse(R.TermSaved, "Already under review: the term as it is") },
          summary: `Platform staff: put a ${kind} under review (201 + Location; 200 when already listed)`,
        },
      },
    )
    .get("/:id", ({ ctx, params }) => getTerm(ctx, kind, params.id), {
      params: id,
      detail: { responses: successResponse(R.TermOne), summary: `Platform staff: one ${kind} under review` },
    })
    .put("/:id", ({ ctx, params, body }) => updateTerm(ctx, kind, params.id, body), {
      params: id,
      body: termBody,
      detail: { responses: successResponse(R.TermOne), summary: `Platform staff: change a ${kind} (a value already listed is 422 on value)` },
    })
    .delete("/:id", ({ ctx, params }) => removeTerm(ctx, kind, params.id), {
      params: id,
      detail: { responses: successResponse(R.TermDeleted), summary: `Platform staff: stop reviewing a ${kind} (messages it holds still wait for their review)` },
    });
}

export const wordRoutes = kindRoutes("word", "words");
export const urlRoutes = kindRoutes("url", "urls");
