/** The number request form's options, without its schema (and zod) beside them (ADR 052); request-schema.ts re-exports them. */

/** Meta's business categories (the `vertical` of a number's business profile), in Meta's order. */
export const VERTICALS = [
  "AUTO",
  "BEAUTY",
  "APPAREL",
  "EDU",
  "ENTERTAIN",
  "EVENT_PLAN",
  "FINANCE",
  "GROCERY",
  "GOVT",
  "HOTEL",
  "HEALTH",
  "NONPROFIT",
  "PROF_SERVICES",
  "RETAIL",
  "TRAVEL",
  "RESTAURANT",
  "OTHER",
] as const;

export const REQUEST_INTEGRATIONS = ["cloud", "onprem"] as const;
