/** Constants of the SMS reports shared with the screens (no imports: safe in the browser bundle). */
export const CHART_DAYS = [7, 30] as const;
/** Statuses a message waits in before it reaches the provider. */
export const WAITING_STATUSES = ["scheduled", "pending", "queued", "sending"] as const;
