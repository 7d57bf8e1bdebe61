/**
 * RCS agents, templates (+groups), keywords and the fallback setting over the API (issue 21; spec
 * section 7 "RCS": rcs/agents, rcs/agent, rcs/templates…, rcs/keywords), and the platform staff's
 * review of agents (/api/admin/rcs/agents). Thin: the use-cases (./agents, ./templates,
 * ./keywords) check roles, validate and scope by account; the /rcs screens call the same functions.
 * Path parameters the spec leaves open:
 * - DELETE rcs/templates/{group}/{id}: `group` is "-" or a group the template must be in; `id` the template.
 * - DELETE rcs/templates/groups/{group}/{mode}: `mode` "keep" (templates stay) or "templates" (deleted too).
 * - POST rcs/templates/groups/dettach/{group}/{template}/{to}: out of `group`; `to` "-" or a group to move it into.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, successResponse } from "../http/openapi";
import { currentAgent, getAgent, getRcsSettings, listAgents, putRcsSettings, requestAgent, reviewAgent, staffGetAgent, staffListAgents, updateAgent } from "./agents";
import * as R from "./agent-responses";
import { createKeyword, deleteKeyword, listKeywords, updateKeyword } from "./keywords";
import {
  attachTemplate,
  createGroup,
  createTemplate,
  deleteGroup,
  deleteTemplateIn,
  deleteTemplates,
  detachTemplate,
  getTemplate,
  listGroups,
  listTemplates,
  updateTemplate,
} from "./templates";

const id = t.Object({ id: t.String() });
const anyBody = t.Record(t.String(), t.Unknown());
const agentBody = t.Object({
  name: t.String({ description: "The brand name shown on the handset, 1 to 100 characters" }),
  description: t.Optional(t.String({ description: "Up to 100 characters" })),
  logo_url: t.String({ description: "An https link to the logo image (.jpg, .jpeg, .png, .gif, .webp)" }),
  banner_url: t.String({ description: "An https link to the banner image (.jpg, .jpeg, .png, .gif, .webp)" }),
  color: t.String({ description: "The brand color, #RRGGBB" }),
  phone: t.String({ description: "The business's phone (E.164, or a Brazilian number as typed)" }),
  website: t.String({ description: "An https address" }),
  email: t.Optional(t.String({ description: "The business's contact e-mail" })),
  privacy_url: t.String({ description: "The privacy policy (https)" }),
  terms_url: t.String({ description: "The terms of service (https)" }),
});

export const rcsAgentRoutes = new Elysia({ name: "rcs-agent-routes", tags: ["rcs"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("/rcs/agents", ({ ctx }) => listAgents(ctx), {
    detail: { responses: successResponse(R.RcsAgents), summary: "The account's RCS agents with their status and launch state per carrier" },
  })
  .post(
    "/rcs/agents",
    async ({ ctx, body, set }) => {
      const answer = await requestAgent(ctx, body);
      return created(set, `/api/rcs/agents/${answer.data.id}`, answer);
    },
    {
      body: agentBody,
      detail: {
        responses: { ...createdResponse(R.RcsAgentOne), ...errorResponses(403, 422) },
        summary: "Ask for an RCS agent (the request form): written `requested`, every carrier pending; each refused field is a 422 naming it",
      },
    },
  )
  .get("/rcs/agent", ({ ctx }) => currentAgent(ctx), {
    detail: { responses: successResponse(R.RcsAgentMaybe), summary: "The account's launched agent (the oldest), else its first agent, else null" },
  })
  .get("/rcs/agents/:id", ({ ctx, params }) => getAgent(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.RcsAgentOne), ...errorResponses(404) }, summary: "One agent of the account" },
  })
  .put("/rcs/agents/:id", ({ ctx, params, body }) => updateAgent(ctx, params.id, body), {
    params: id,
    body: agentBody,
    detail: {
      responses: { ...successResponse(R.RcsAgentOne), ...errorResponses(403, 404, 422) },
      summary: "Edit an agent while it is not launched (requested, in review, rejected: a rejected agent is requested again); a launched or suspended one is a 422 on `form`",
    },
  })
  .get("/rcs/settings", ({ ctx }) => getRcsSettings(ctx), {
    detail: { responses: successResponse(R.RcsSettings), summary: "The account's RCS settings: the SMS fallback" },
  })
  .put("/rcs/settings", ({ ctx, body }) => putRcsSettings(ctx, body), {
    body: t.Object({ rcs_fallback_sms: t.Union([t.Boolean(), t.String()], { description: "true: a send to a handset that is not RCS-capable goes as SMS" }) }),
    detail: { responses: { ...successResponse(R.RcsSettings), ...errorResponses(403, 422) }, summary: "Turn the SMS fallback on or off (owner, admin)" },
  })
  .post(
    "/rcs/templates",
    async ({ ctx, body, set }) => {
      const answer = await createTemplate(ctx, body);
      return created(set, `/api/rcs/templates/${answer.data.id}`, answer);
    },
    {
      body: anyBody,
      detail: {
        responses: { ...createdResponse(R.RcsTemplateOne), ...errorResponses(403, 422) },
        summary: "Save a template: `name` (unique in the account, any case), `content` (the RCS content JSON, checked as a send's), optional `group_id`",
      },
    },
  )
  .put("/rcs/templates", ({ ctx, body }) => updateTemplate(ctx, body), {
    body: anyBody,
    detail: { responses: { ...successResponse(R.RcsTemplateOne), ...errorResponses(403, 404, 422) }, summary: "Change a template: `id`, `name`, `content`" },
  })
  .post("/rcs/templates/list", ({ ctx, body }) => listTemplates(ctx, body), {
    body: t.Object({
      q: t.Optional(t.String({ description: "Part of the name, any case" })),
      group_id: t.Optional(t.String({ description: "Only the templates of this group" })),
      type: t.Optional(t.String({ description: "text, link, midia, card or card-carousel" })),
      cursor: t.Optional(t.String()),
      limit: t.Optional(t.Union([t.String(), t.Number()])),
    }),
    detail: { responses: { ...successResponse(R.RcsTemplates), ...errorResponses(422) }, summary: "The account's templates, newest first, filtered" },
  })
  .get("/rcs/templates/groups", ({ ctx }) => listGroups(ctx), {
    detail: { responses: successResponse(R.RcsTemplateGroups), summary: "The account's template groups, each with its templates' ids" },
  })
  .post("/rcs/templates/groups", async ({ ctx, body, set }) => created(set, "/api/rcs/templates/groups", await createGroup(ctx, body)), {
    body: t.Object({ name: t.String({ description: "1 to 100 characters, unique in the account (any case)" }) }),
    detail: { responses: { ...createdResponse(R.RcsTemplateGroupOne), ...errorResponses(403, 422) }, summary: "A new template group" },
  })
  .post("/rcs/templates/groups/:group/templates/:template", ({ ctx, params }) => attachTemplate(ctx, params.group, params.template), {
    params: t.Object({ group: t.String(), template: t.String() }),
    detail: { responses: { ...successResponse(R.RcsTemplateOne), ...errorResponses(403, 404) }, summary: "Put a template in a group (already there: unchanged)" },
  })
  .post("/rcs/templates/groups/dettach/:group/:template/:to", ({ ctx, params }) => detachTemplate(ctx, params.group, params.template, params.to), {
    params: t.Object({ group: t.String(), template: t.String(), to: t.String({ description: '"-" to only detach, or a group to move the template into' }) }),
    detail: { responses: { ...successResponse(R.RcsTemplateOne), ...errorResponses(403, 404) }, summary: "Take a template out of a group (and optionally into another)" },
  })
  .delete("/rcs/templates/groups/:group/:mode", ({ ctx, params }) => deleteGroup(ctx, params.group, params.mode), {
    params: t.Object({ group: t.String(), mode: t.String({ description: "keep: the templates stay (detached); templates: they are deleted too" }) }),
    detail: { responses: { ...successResponse(R.Deleted, "How many templates were deleted"), ...errorResponses(403, 404, 422) }, summary: "Delete a template group" },
  })
  .post("/rcs/templates/delete", ({ ctx, body }) => deleteTemplates(ctx, body), {
    body: t.Object({ ids: t.Array(t.String(), { description: "Template ids (others' are ignored), up to 500" }) }),
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(403, 422) }, summary: "Delete several templates (the list's bulk delete)" },
  })
  .delete("/rcs/templates/:group/:id", ({ ctx, params }) => deleteTemplateIn(ctx, params.group, params.id), {
    params: t.Object({ group: t.String({ description: '"-", or a group the template must be in' }), id: t.String() }),
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(403, 404) }, summary: "Delete a template" },
  })
  .get("/rcs/templates/:id", ({ ctx, params }) => getTemplate(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.RcsTemplateOne), ...errorResponses(404) }, summary: "One template of the account" },
  })
  .get("/rcs/keywords", ({ ctx, query }) => listKeywords(ctx, query), {
    query: t.Object({ agent_id: t.Optional(t.String({ description: "Only this agent's keywords" })) }),
    detail: {
      responses: { ...successResponse(R.RcsKeywords), ...errorResponses(422) },
      summary: "The account's keywords (an inbound text equal to one, any case, is answered by the agent)",
    },
  })
  .post(
    "/rcs/keywords",
    async ({ ctx, body, set }) => {
      const answer = await createKeyword(ctx, body);
      return created(set, `/api/rcs/keywords/${answer.data.id}`, answer);
    },
    {
      body: t.Object({
        agent_id: t.String({ description: "An agent of the account" }),
        keyword: t.String({ description: "1 to 50 characters; unique per agent, any case" }),
        answer: t.String({ description: "The agent's answer, up to 3,072 characters" }),
        active: t.Optional(t.Union([t.Boolean(), t.String()], { description: "Default true" })),
      }),
      detail: { responses: { ...createdResponse(R.RcsKeywordOne), ...errorResponses(403, 422) }, summary: "A new keyword of an agent; 'This keyword already exists' on `keyword`" },
    },
  )
  .put("/rcs/keywords/:id", ({ ctx, params, body }) => updateKeyword(ctx, params.id, body), {
    params: id,
    body: t.Object({ keyword: t.String(), answer: t.String(), active: t.Optional(t.Union([t.Boolean(), t.String()])) }),
    detail: { responses: { ...successResponse(R.RcsKeywordOne), ...errorResponses(403, 404, 422) }, summary: "Change a keyword" },
  })
  .delete("/rcs/keywords/:id", ({ ctx, params }) => deleteKeyword(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(403, 404) }, summary: "Delete a keyword" },
  })
  .get("/admin/rcs/agents", ({ ctx, query }) => staffListAgents(ctx, query), {
    query: t.Object({ status: t.Optional(t.String({ description: "requested, in_review, launched, rejected or suspended" })) }),
    detail: { tags: ["admin"], responses: successResponse(R.StaffAgents), summary: "Platform staff: every account's RCS agents" },
  })
  .get("/admin/rcs/agents/:id", ({ ctx, params }) => staffGetAgent(ctx, params.id), {
    params: id,
    detail: { tags: ["admin"], responses: { ...successResponse(R.StaffAgentOne), ...errorResponses(404) }, summary: "Platform staff: one agent" },
  })
  .put("/admin/rcs/agents/:id", ({ ctx, params, body }) => reviewAgent(ctx, params.id, body), {
    params: id,
    body: t.Object({
      status: t.String({ description: "requested -> in_review | rejected; in_review -> launched | rejected; launched -> suspended; suspended -> launched; rejected -> in_review" }),
      rbm_agent_id: t.Optional(t.Union([t.String({ description: "Google's agent id (…@rbm.goog); made from the name when launching without one" }), t.Null()])),
      vivo: t.Optional(t.String({ description: "pending, launched or rejected" })),
      claro: t.Optional(t.String()),
      tim: t.Optional(t.String()),
    }),
    detail: {
      tags: ["admin"],
      responses: { ...successResponse(R.StaffAgentOne), ...errorResponses(403, 404, 422) },
      summary: "Platform staff: review an agent (status, Google's id, launch per carrier); audited in the agent's account",
    },
  });
