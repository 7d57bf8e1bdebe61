/**
 * Flows over the API (issue 20, spec section 7): list, create, read, edit the draft, publish,
 * enable or inactivate, restore a version — JSON, so flows can be versioned outside. Thin: the
 * use-cases (./flows.ts) check who (owner, admin, sales; omni plan) and validate.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse } from "../http/openapi";
import { fromAcceptLanguage } from "../lib/i18n";
import { pageQuery } from "../lib/page-schema";
import { FLOW_CHANNELS, FLOW_KEYWORD_MAX, FLOW_LIMITS, FLOW_NAME_MAX, FLOW_STATUSES, FLOW_TRIGGERS } from "./constants";
import { createFlow, getFlow, listFlows, publishFlow, restoreFlowVersion, setFlowStatus, updateFlow } from "./flows";
import { FlowDetail, FlowList, FlowPage, FlowTestTurn } from "./responses";
import { TEST_MESSAGE_MAX, TEST_RUN_RATE, testDraft } from "./test-run";

const id = t.Object({ id: t.String({ format: "uuid" }) });
const lang = (request: Request) => fromAcceptLanguage(request.headers.get("accept-language"));
const definition = `The definition {nodes, edges} (ADR 053), at most ${FLOW_LIMITS.bytes / 1024} KB, ${FLOW_LIMITS.nodes} steps, ${FLOW_LIMITS.nodes * 4} connections. Saved with its issues (answered in \`issues\`) unless a step's type is unknown, an id repeats, its shape is not a definition or a size limit is passed: 422 FLOW_HAS_ERRORS naming the step`;
const settings = {
  name: t.Optional(t.Unknown({ description: `1 to ${FLOW_NAME_MAX} characters` })),
  channel: t.Optional(t.Unknown({ description: FLOW_CHANNELS.join(", ") })),
  trigger: t.Optional(t.Unknown({ description: FLOW_TRIGGERS.join(", ") })),
  trigger_value: t.Optional(
    t.Unknown({ description: `The keyword, 1 to ${FLOW_KEYWORD_MAX} characters (kept in lower case); required by the keyword trigger, ignored by the others` }),
  ),
  draft: t.Optional(t.Unknown({ description: definition })),
};

export const flowRoutes = new Elysia({ prefix: "/flow/flows", tags: ["flows"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", ({ ctx, query }) => listFlows(ctx, query), {
    query: t.Object({
      ...pageQuery,
      status: t.Optional(t.String({ description: FLOW_STATUSES.join(", ") })),
      channel: t.Optional(t.String({ description: FLOW_CHANNELS.join(", ") })),
    }),
    detail: {
      responses: { ...successResponse(FlowPage), ...errorResponses(403, 422) },
      summary: "The account's flows, newest first, with status, channel, trigger and published version",
    },
  })
  .post(
    "",
    async ({ ctx, body, set, request }) => {
      const answer = await createFlow({ ...ctx, locale: lang(request) }, body);
      return created(set, `/api/flow/flows/${answer.data.id}`, answer);
    },
    {
      body: t.Object(settings),
      detail: {
        responses: { ...createdResponse(FlowDetail, "The flow, a draft; Location is the flow"), ...errorResponses(403, 422) },
        summary: "Create a flow (a draft): name, channel, trigger, and optionally its first definition (else a start step alone)",
      },
    },
  )
  .post("/status", ({ ctx, body }) => setFlowStatus(ctx, body), {
    body: t.Object({
      ids: t.Optional(t.Unknown({ description: "The flows' ids, 1 to 200" })),
      status: t.Optional(t.Unknown({ description: "active or inactive" })),
    }),
    detail: {
      responses: { ...successResponse(FlowList), ...errorResponses(403, 404, 409, 422) },
      summary:
        "Enable or inactivate flows at once, all or none: enabling needs a published version (422 on ids.<i>) and a channel and trigger no other active flow has (409 FLOW_CHANNEL_TAKEN on ids.<i>); 404 when an id is not the account's",
    },
  })
  .get("/:id", ({ ctx, params, request }) => getFlow({ ...ctx, locale: lang(request) }, params.id), {
    params: id,
    detail: { responses: { ...successResponse(FlowDetail), ...errorResponses(403, 404) }, summary: "One flow: its draft, the draft's issues and its published versions" },
  })
  .put("/:id", ({ ctx, params, body, request }) => updateFlow({ ...ctx, locale: lang(request) }, params.id, body), {
    params: id,
    body: t.Object(settings),
    detail: {
      responses: { ...successResponse(FlowDetail, "The flow as changed"), ...errorResponses(403, 404, 409, 422) },
      summary:
        "Edit a flow's settings and save its draft (what is absent stays); the running version changes only by publishing. 409 FLOW_CHANNEL_TAKEN when an active flow moves onto another's channel and trigger",
    },
  })
  .post("/:id/publish", ({ ctx, params, request }) => publishFlow({ ...ctx, locale: lang(request) }, params.id), {
    params: id,
    detail: {
      responses: { ...successResponse(FlowDetail, "The flow, active on its new version"), ...errorResponses(403, 404, 409, 422) },
      summary:
        "Publish the draft as the next immutable version and make the flow active: 422 FLOW_HAS_ERRORS with each step's issues in fields (nodes.<id>.<field>); 409 FLOW_CHANNEL_TAKEN when another flow is active on the channel and trigger",
    },
  })
  .post("/:id/restore/:version", ({ ctx, params, request }) => restoreFlowVersion({ ...ctx, locale: lang(request) }, params.id, params.version), {
    params: t.Object({ id: t.String({ format: "uuid" }), version: t.String({ pattern: "^[0-9]{1,9}$", description: "A published version's number" }) }),
    detail: {
      responses: { ...successResponse(FlowDetail, "The flow, its draft now the version's definition"), ...errorResponses(403, 404) },
      summary: "Copy a published version's definition into the draft (publish it to run it again)",
    },
  })
  .post("/:id/test", ({ ctx, params, body, request }) => testDraft({ ...ctx, locale: lang(request) }, params.id, body), {
    params: id,
    body: t.Object({
      state: t.Optional(t.Unknown({ description: "The simulated state the previous turn answered (strict; absent for the first turn)" })),
      message: t.Optional(t.Unknown({ description: `The simulated visitor's text, at most ${TEST_MESSAGE_MAX} characters` })),
      reset: t.Optional(t.Unknown({ description: "true: start over from the start step" })),
      skip: t.Optional(t.Unknown({ description: "true: skip the wait (a delay or a question's timeout): the simulated clock jumps to wake_at" })),
      contact: t.Optional(t.Unknown({ description: "Simulated contact fields (name, email, phone, custom fields…), at most 50" })),
    }),
    detail: {
      responses: { ...successResponse(FlowTestTurn, "The turn's transcript, the state to send back, the status and the variables"), ...errorResponses(403, 404, 422, 429) },
      summary: `Test the saved draft against a simulated visitor: one turn (start, an answer, or skip the wait) until the flow waits or ends. Nothing is written (no room, message, contact); HTTP steps really call their URL; tags, fields, groups and the hand-off are only described. 422 FLOW_HAS_ERRORS naming each faulty step, as publishing; at most ${TEST_RUN_RATE.limit} turns a minute per person (429)`,
    },
  });
