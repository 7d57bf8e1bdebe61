/**
 * Reclame Aqui complaints over the API (issue 23, ADR 067), under /api/ra: the account's connection
 * (checked against RA, the secret sealed), "sync now", the imported complaints, answering them
 * publicly or privately on RA, and the reputation report. Thin: the use-cases (./services) check
 * who, validate and scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { errorResponses, successResponse, zodBody } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import * as R from "./responses";
import { answerComplaint, answerSchema, connect, connectSchema, disconnect, getComplaint, getConnection, listComplaints, report, syncNow } from "./services";

const id = t.Object({ id: t.String() });
const anyBody = t.Record(t.String(), t.Any());

export const raRoutes = new Elysia({ prefix: "/ra", tags: ["reclame-aqui"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("/connection", async ({ ctx }) => ({ data: await getConnection(ctx) }), {
    detail: {
      responses: { ...successResponse(R.ConnectionAnswer), ...errorResponses(403) },
      summary: "The account's Reclame Aqui connection (data null when not connected); the secret is never returned",
    },
  })
  .put("/connection", async ({ ctx, body }) => ({ data: await connect(ctx, body) }), {
    body: anyBody,
    detail: {
      requestBody: zodBody(connectSchema),
      responses: { ...successResponse(R.ConnectionAnswer), ...errorResponses(403, 422, 502) },
      summary:
        "Connect (or reconnect) the account's Reclame Aqui company: RA must accept the client credentials for the company (422 on client_secret or company_id, translated), then they are kept, the secret sealed, and the complaints imported at once; owner and admin",
    },
  })
  .delete(
    "/connection",
    async ({ ctx, set }) => {
      await disconnect(ctx);
      set.status = 204;
    },
    { detail: { responses: { 204: { description: "Disconnected (the imported complaints stay)" }, ...errorResponses(403, 404) }, summary: "Disconnect from Reclame Aqui" } },
  )
  .post("/sync", ({ ctx }) => syncNow(ctx), {
    detail: {
      responses: { ...successResponse(R.SyncResult), ...errorResponses(403, 422, 502) },
      summary:
        "Sync now: import the complaints RA changed since the last sync (a complaint already imported is updated, never doubled); 422 on `connection` when not connected or RA refuses the credentials; 502 when RA does not answer (nothing written)",
    },
  })
  .get("/complaints", ({ ctx, query }) => listComplaints(ctx, query), {
    query: t.Object({
      status: t.Optional(t.String({ description: "unanswered, answered, replied or evaluated" })),
      q: t.Optional(t.String({ description: "Text in the title, the complaint or the consumer's name, or an RA id" })),
      ...pageQuery,
    }),
    detail: { responses: { ...successResponse(R.ComplaintPage), ...errorResponses(403, 422) }, summary: "The account's imported complaints, newest first (keyset pages)" },
  })
  .get("/complaints/:id", ({ ctx, params }) => getComplaint(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.ComplaintDetail), ...errorResponses(403, 404) }, summary: "One complaint with its public and private interactions" },
  })
  .post("/complaints/:id/answers", ({ ctx, params, body }) => answerComplaint(ctx, params.id, body), {
    params: id,
    body: anyBody,
    detail: {
      requestBody: zodBody(answerSchema),
      responses: { ...successResponse(R.Interaction), ...errorResponses(403, 404, 422, 502) },
      summary:
        "Answer a complaint on Reclame Aqui: visibility public (everyone sees it; the complaint becomes answered) or private (a message to the consumer); posted to RA first, recorded once RA took it. An evaluated complaint takes no public answer (422)",
    },
  })
  .get("/report", ({ ctx }) => report(ctx), {
    detail: {
      responses: { ...successResponse(R.Report), ...errorResponses(403) },
      summary:
        "Reputation figures of the imported complaints, overall and per month: total, answered %, mean answer time, evaluated, mean score, would do business again %, solution index",
    },
  });
