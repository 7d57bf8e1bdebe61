/** Constants of the SMS reports shared with the screens (no imports: safe in the browser bundle). */
export const CHART_DAYS = [7, 30] as const;
/** Statuses a message waits in before it reaches the provider. */
export const WAITING_STATUSES = ["scheduled", "pending", "queued", "sending"] as const;
/** The channels whose history the reports and exports read (rows of the same `messages` table). */
export type ReportChannel = "sms" | "whatsapp";
