/**
 * Input of campaign control (API and the /sms/campaigns screens). Messages are locale keys.
 * No model imports (the browser bundle uses it).
 */
import { pageParam } from "../lib/validate";
import { z } from "../lib/zod";
import { CAMPAIGN_STATUSES } from "./constants";
export { CAMPAIGN_STATUSES } from "./constants";

export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
/** What the account can ask: pause, resume (running) or cancel. */
export const CONTROL_STATUSES = ["paused", "running", "canceled"] as const;
export const CAMPAIGNS_PER_PAGE = 20;

export const controlCampaignSchema = z.object({
  status: z.enum(CONTROL_STATUSES, { message: "validation.option" }),
});
export type ControlCampaignInput = z.infer<typeof controlCampaignSchema>;

/** The channels that have campaigns (the `campaigns.channel` of a send to many). */
export const CAMPAIGN_CHANNELS = ["sms", "whatsapp", "email", "rcs"] as const;

export const listCampaignsSchema = z.object({
  page: pageParam(),
  /** /campaigns (every channel): one channel only. */
  channel: z
    .union([z.enum(CAMPAIGN_CHANNELS), z.literal("")], { message: "validation.option" })
    .optional()
    .transform((v) => (v ? v : undefined)),
  status: z
    .union([z.enum(CAMPAIGN_STATUSES), z.literal("")], { message: "validation.option" })
    .optional()
    .transform((v) => (v ? v : undefined)),
});
