/**
 * The RCS area's constants (issue 21) without any import: the screens' browser code reads them
 * (statuses, carriers, the template editor's slots) without pulling a schema's dependencies
 * (the phone rules' metadata) into a page's first load.
 */
export const AGENT_STATUSES = ["requested", "in_review", "launched", "rejected", "suspended"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** Brazil's carriers an agent is launched on, one by one. */
export const CARRIERS = ["vivo", "claro", "tim"] as const;
export type Carrier = (typeof CARRIERS)[number];
export const LAUNCH_STATES = ["pending", "launched", "rejected"] as const;
export type LaunchState = (typeof LAUNCH_STATES)[number];

/** The moves staff may make from each status (the platform's review; Google's own launch flow). */
export const AGENT_TRANSITIONS: Record<AgentStatus, readonly AgentStatus[]> = {
  requested: ["in_review", "rejected"],
  in_review: ["launched", "rejected"],
  launched: ["suspended"],
  rejected: ["in_review"],
  suspended: ["launched"],
};

/** What the account may still edit: an agent not yet (or no longer) live at Google. */
export const EDITABLE_STATUSES: readonly AgentStatus[] = ["requested", "in_review", "rejected"];

/**
 * The template editor's slots (no JavaScript needed): MESSAGE_SLOTS suggestions under the
 * message, CARD_SLOTS carousel cards of CARD_SUGGESTION_SLOTS suggestions each; anything beyond
 * (more chips, location and calendar suggestions) goes in the editor's JSON field.
 * CONTENT_TYPES is api/rcs/content.ts's RCS_TYPES (a unit test keeps them equal; that module is
 * not browser-safe).
 */
export const MESSAGE_SLOTS = 4;
export const CARD_SLOTS = 10;
export const CARD_SUGGESTION_SLOTS = 2;
export const SLOT_SUGGESTION_TYPES = ["reply", "url", "dial"] as const;
export const CONTENT_TYPES = ["text", "link", "midia", "card", "card-carousel"] as const;

/** A group's delete: "keep" leaves its templates (only detached), "templates" deletes them too. */
export const GROUP_DELETE_MODES = ["keep", "templates"] as const;
