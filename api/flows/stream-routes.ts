/**
 * Flow streams over the API (issue 20, spec section 7; ADR 054): the runs of the account's flows,
 * one run with its path, cancelling one, starting a flow on an open room, and the funnel. Thin: the
 * use-cases (./streams.ts) check who (as /flows: owner, admin, sales; omni plan) and validate.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import { STREAM_STATUSES } from "./engine";
import { StreamDetail, StreamInsights, StreamPage } from "./responses";
import { getStream, listStreams, startFlowStream, streamInsights, updateStream } from "./streams";

const id = t.Object({ id: t.String({ format: "uuid" }) });
const when = (what: string) => t.Optional(t.String({ description: `${what} (ISO 8601 date or date-time)` }));

export const flowStreamRoutes = new Elysia({ prefix: "/flow", tags: ["flows"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .post(
    "/flows/:id/streams",
    async ({ ctx, params, body, set }) => {
      const answer = await startFlowStream(ctx, params.id, body);
      return created(set, `/api/flow/streams/${answer.data.id}`, answer);
    },
    {
      params: id,
      body: t.Object({ room_id: t.Optional(t.Unknown({ description: "An open live room of the account, on the flow's channel" })) }),
      detail: {
        responses: { ...createdResponse(StreamDetail, "The stream, started; Location is the stream"), ...errorResponses(403, 404, 409, 422) },
        summary:
          "Start the flow's published version on an open room (the API trigger): the room becomes the bot's. 409 FLOW_STREAM_LIVE when the room already has a live stream, LIVE_ROOM_STATE when it is closed; 422 when the flow is not active or the room is on another channel",
      },
    },
  )
  .get("/streams", ({ ctx, query }) => listStreams(ctx, query), {
    query: t.Object({
      ...pageQuery,
      flow_id: t.Optional(t.String({ description: "One flow's streams" })),
      status: t.Optional(t.String({ description: STREAM_STATUSES.join(", ") })),
      from: when("Started at or after"),
      to: when("Started before"),
    }),
    detail: { responses: { ...successResponse(StreamPage), ...errorResponses(403, 422) }, summary: "The runs of the account's flows, newest first" },
  })
  .post("/streams/insights", ({ ctx, body }) => streamInsights(ctx, body), {
    body: t.Object({
      flow_id: t.Optional(t.Unknown({ description: "One flow (else every flow)" })),
      from: t.Optional(t.Unknown({ description: "Streams started at or after (ISO 8601)" })),
      to: t.Optional(t.Unknown({ description: "Streams started before (ISO 8601)" })),
    }),
    detail: {
      responses: { ...successResponse(StreamInsights), ...errorResponses(403, 422) },
      summary: "The funnel per flow and per step: streams entered, finished, dropped, handed off (and cancelled, failed, live per flow)",
    },
  })
  .get("/streams/:id", ({ ctx, params }) => getStream(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(StreamDetail), ...errorResponses(403, 404) }, summary: "One stream and its path, step by step" },
  })
  .put("/streams/:id", ({ ctx, params, body }) => updateStream(ctx, params.id, body), {
    params: id,
    body: t.Object({ status: t.Optional(t.Unknown({ description: "cancelled" })) }),
    detail: {
      responses: { ...successResponse(StreamDetail, "The stream, cancelled"), ...errorResponses(403, 404, 409, 422) },
      summary: "Cancel a live stream: it stops and its room joins the queue. 409 FLOW_STREAM_ENDED when it had already ended",
    },
  });
