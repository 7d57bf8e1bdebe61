/** Flows: the constants the builder needs without the schemas (and zod) beside them (ADR 052, 053). */

export const NODE_TYPES = ["start", "message", "question", "condition", "delay", "http", "action", "handoff", "end"] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** How a question checks its answer before storing it. */
export const QUESTION_CHECKS = ["text", "email", "phone", "cpf", "cnpj", "cpf_cnpj", "number", "date", "choice"] as const;

/** A definition's limits (ADR 053): past them the API refuses it naming the limit. */
export const FLOW_LIMITS = {
  /** Nodes per flow. */
  nodes: 200,
  /** The definition as JSON, bytes. */
  bytes: 256 * 1024,
  /** A message's or question's text. */
  text: 4096,
  /** Buttons (suggestions) per message, or choices per question. */
  buttons: 10,
  /** A button's text (WhatsApp's and RCS's reply buttons take 20). */
  buttonText: 20,
  /** Rules per condition, mapped values per HTTP call. */
  rules: 20,
  /** Retries of a question whose answer fails its check. */
  retries: 5,
  /** A delay, or a question's timeout: at most 7 days. */
  waitSeconds: 7 * 86_400,
  /** An HTTP node's timeout. */
  httpTimeoutMs: 10_000,
} as const;

/**
 * The channels a flow answers on (ADR 053, storage): the live channels (api/live/rooms/types.ts
 * LIVE_CHANNELS) and RCS, for when it exists. The migration 0068's CHECK lists the same.
 */
export const FLOW_CHANNELS = ["webchat", "telegram", "messenger", "instagram", "google_business", "whatsapp", "rcs"] as const;
export type FlowChannel = (typeof FLOW_CHANNELS)[number];

/** What starts a flow: any inbound message on its channel, a keyword, a reply to a campaign, an API call. */
export const FLOW_TRIGGERS = ["inbound", "keyword", "campaign_reply", "api"] as const;
export type FlowTrigger = (typeof FLOW_TRIGGERS)[number];

/** A flow is a draft until first published; then active or inactive (spec section 4). */
export const FLOW_STATUSES = ["draft", "active", "inactive"] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];

/** A flow's name, and a keyword trigger's word(s), at most. */
export const FLOW_NAME_MAX = 100;
export const FLOW_KEYWORD_MAX = 50;

/** A new room whose phone got a campaign's message on the flow's channel within these hours starts the campaign-reply flow (ADR 054). */
export const FLOW_CAMPAIGN_REPLY_HOURS = 72;
