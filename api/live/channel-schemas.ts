/** The forms of live chat channel connections (one schema per channel), shared by the use-case, the API and the /channels screen. */
import { z } from "../lib/zod";

export const CONNECTABLE = ["telegram", "messenger", "instagram"] as const;
export type ConnectableChannel = (typeof CONNECTABLE)[number];

const text = (max: number) => z.string().trim().min(1, "validation.required").max(max, `validation.maxLength::${max}`);

export const telegramConnectSchema = z.object({
  channel: z.literal("telegram"),
  bot_token: text(200).regex(/^\d{3,20}:[A-Za-z0-9_-]{20,100}$/, "channels.errors.botToken"),
});
const graphFields = {
  page_id: text(40).regex(/^\d{1,40}$/, "channels.errors.pageId"),
  access_token: text(1000).min(20, "validation.minLength::20"),
  app_secret: text(200).min(16, "validation.minLength::16"),
  verify_token: text(200).min(8, "validation.minLength::8"),
};
export const messengerConnectSchema = z.object({ channel: z.literal("messenger"), ...graphFields });
export const instagramConnectSchema = z.object({ channel: z.literal("instagram"), ...graphFields });
export const connectSchema = z.discriminatedUnion("channel", [telegramConnectSchema, messengerConnectSchema, instagramConnectSchema]);
export type ConnectInput = z.infer<typeof connectSchema>;
