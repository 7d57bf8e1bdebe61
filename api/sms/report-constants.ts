/** Constants of the SMS reports shared with the screens (no imports: safe in the browser bundle). */
export const CHART_DAYS = [7, 30] as const;
/** Statuses a message waits in before it reaches the provider. */
export const WAITING_STATUSES = ["scheduled", "pending", "queued", "sending"] as const;
/** The channels whose history the reports and exports read (rows of the same `messages` table). */
export type ReportChannel = "sms" | "whatsapp" | "email" | "rcs";
/** Each channel's screens live under its own path: e-mail's under /mail. */
export const CHANNEL_AREA: Record<ReportChannel, string> = { sms: "/sms", whatsapp: "/whatsapp", email: "/mail", rcs: "/rcs" };
const REPORT_CHANNELS: readonly ReportChannel[] = ["sms", "whatsapp", "email", "rcs"];
/** The channel as SQL text: one of the literals (anything else is a programming error). */
export function channelLiteral(channel: ReportChannel): string {
  if (!REPORT_CHANNELS.includes(channel)) throw new Error(`unknown report channel ${channel}`);
  return channel;
}
