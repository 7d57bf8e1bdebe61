/** Campaigns: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

export const CAMPAIGN_STATUSES = ["scheduled", "preparing", "running", "paused", "canceled", "completed", "failed"] as const;
