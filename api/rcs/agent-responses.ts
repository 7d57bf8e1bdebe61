/** The success answers of the RCS agents, templates and keywords routes (./agent-routes), as TypeBox schemas for the OpenAPI document. */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const status = t.Union([t.Literal("requested"), t.Literal("in_review"), t.Literal("launched"), t.Literal("rejected"), t.Literal("suspended")]);

export const Launch = t.Object({
  carrier: t.Union([t.Literal("vivo"), t.Literal("claro"), t.Literal("tim")]),
  state: t.Union([t.Literal("pending"), t.Literal("launched"), t.Literal("rejected")]),
  updated_at: t.String({ description: "When the state was set (ISO 8601), empty when never" }),
});
const agentFields = {
  id: t.String({ format: "uuid" }),
  name: t.String(),
  description: t.String(),
  logo_url: t.String(),
  banner_url: t.String(),
  color: t.String({ description: "#rrggbb" }),
  phone: t.String({ description: "E.164" }),
  website: t.String(),
  email: t.String(),
  privacy_url: t.String(),
  terms_url: t.String(),
  status,
  rbm_agent_id: nullable(t.String({ description: "Google's agent id (…@rbm.goog), once launched" })),
  launches: t.Array(Launch, { description: "The launch state at each Brazilian carrier (Vivo, Claro, TIM)" }),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
};
export const RcsAgent = t.Object(agentFields);
export const RcsAgents = Page(RcsAgent, "The account's agents, oldest first (one page)");
export const RcsAgentOne = t.Object({ data: RcsAgent });
export const RcsAgentMaybe = t.Object({ data: nullable(RcsAgent) });
export const StaffAgent = t.Object({ ...agentFields, account_id: t.String({ format: "uuid" }), account_name: t.String() });
export const StaffAgents = Page(StaffAgent, "Every account's agents, those awaiting review first (at most 500)");
export const StaffAgentOne = t.Object({ data: StaffAgent });

export const RcsSettings = t.Object({
  data: t.Object({
    rcs_fallback_sms: t.Boolean({ description: "A send to a handset that is not RCS-capable goes as SMS" }),
    can_edit: t.Boolean({ description: "Whether the caller may change it (owner, admin)" }),
  }),
});

export const RcsTemplate = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  content: t.Any({ description: "The RCS content (spec section 3): type, messageText, messageDescription, imageUrl, fileUrl, suggestions, images" }),
  group_ids: t.Array(t.String({ format: "uuid" })),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});
export const RcsTemplates = Page(RcsTemplate, "Newest first (created_at, id)");
export const RcsTemplateOne = t.Object({ data: RcsTemplate });
export const RcsTemplateGroup = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  template_ids: t.Array(t.String({ format: "uuid" })),
  created_at: t.String({ format: "date-time" }),
});
export const RcsTemplateGroups = Page(RcsTemplateGroup, "By name (one page)");
export const RcsTemplateGroupOne = t.Object({ data: RcsTemplateGroup });
export const Deleted = t.Object({ deleted: Type.Integer() });

export const RcsKeyword = t.Object({
  id: t.String({ format: "uuid" }),
  agent_id: t.String({ format: "uuid" }),
  keyword: t.String(),
  answer: t.String(),
  active: t.Boolean(),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});
export const RcsKeywords = Page(RcsKeyword, "By keyword (one page)");
export const RcsKeywordOne = t.Object({ data: RcsKeyword });
