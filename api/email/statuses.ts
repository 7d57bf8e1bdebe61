/**
 * The statuses an e-mail message can have (spec section 4; ADR 036), in the order of the
 * history's filter: no imports, safe in the browser bundle.
 */
export const EMAIL_STATUSES = [
  "scheduled",
  "queued",
  "sending",
  "deferred",
  "sent",
  "delivered",
  "opened",
  "clicked",
  "bounced",
  "dropped",
  "blocked",
  "failed",
  "optout",
  "rejected",
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** Statuses of a message that was not delivered: their rows show the error code and message. */
export const EMAIL_FAILED_STATUSES = ["bounced", "dropped", "blocked", "failed", "rejected", "optout"] as const;
/** Statuses explained by a tooltip of their own (spec section 4). */
export const EMAIL_EXPLAINED_STATUSES = ["deferred", "bounced", "dropped", "blocked"] as const;
