/**
 * Moderation API for words and URLs under review and their approvals (spec section 7). Thin: the
 * use-cases check who may (./access), validate and scope. /…/approvals comes before /…/:id.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { approve, getApproval, listApprovals, reject, requestApproval, updateApprovalNote } from "./approvals";
import type { TermKind } from "./match";
import { addTerm, listTerms, removeTerm, updateTerm } from "./terms";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const listQuery = t.Object({ page: t.Optional(t.String()), status: t.Optional(t.String({ description: "pending, approved or rejected" })) });
const termBody = t.Object({ value: t.String({ description: "A word or phrase (stored lowercase without accents) / a domain (bit.ly)" }), note: t.Optional(t.Union([t.String(), t.Null()])) });

function kindRoutes(kind: TermKind, plural: "words" | "urls") {
  return new Elysia({ prefix: `/${plural}`, tags: ["moderation"], detail: { security: bearer } })
    .use(authenticated)
    .get("/approvals", ({ ctx, query }) => listApprovals(ctx, kind, query), {
      query: listQuery,
      detail: { summary: `Reviews of ${plural} under review: platform staff see every account's, an account (admin, sales) its own; pending first` },
    })
    .post("/approvals", ({ ctx, body }) => requestApproval(ctx, kind, body), {
      body: termBody,
      detail: { summary: `The account asks to use a ${kind} under review (or adds a note to its open request)` },
    })
    .get("/approvals/:id", ({ ctx, params }) => getApproval(ctx, kind, params.id), { params: id, detail: { summary: "One review with the messages it holds or held" } })
    .put("/approvals/:id", ({ ctx, params, body }) => updateApprovalNote(ctx, kind, params.id, body), {
      params: id,
      body: t.Object({ note: t.Union([t.String(), t.Null()]) }),
      detail: { summary: "The account's justification on its review" },
    })
    .post("/approvals/:id/approve", ({ ctx, params }) => approve(ctx, kind, params.id), {
      params: id,
      detail: { summary: "Platform staff: approve — the account may use the term; its held messages are sent" },
    })
    .post("/approvals/:id/reject", ({ ctx, params, body }) => reject(ctx, kind, params.id, body), {
      params: id,
      body: t.Object({ reason: t.String({ description: "Shown on each rejected message" }) }),
      detail: { summary: "Platform staff: reject — held messages become rejected with the reason and are refunded" },
    })
    .get("", ({ ctx }) => listTerms(ctx, kind), { detail: { summary: `Platform staff: the ${plural} under review` } })
    .post("", ({ ctx, body }) => addTerm(ctx, kind, body), { body: termBody, detail: { summary: `Platform staff: put a ${kind} under review` } })
    .put("/:id", ({ ctx, params, body }) => updateTerm(ctx, kind, params.id, body), { params: id, body: termBody, detail: { summary: `Platform staff: change a ${kind}` } })
    .delete("/:id", ({ ctx, params }) => removeTerm(ctx, kind, params.id), { params: id, detail: { summary: `Platform staff: stop reviewing a ${kind}` } });
}

export const wordRoutes = kindRoutes("word", "words");
export const urlRoutes = kindRoutes("url", "urls");
