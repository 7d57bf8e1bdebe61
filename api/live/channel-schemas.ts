/** The forms of live chat channel connections (one schema per channel), shared by the use-case, the API and the /channels screen. */
import { z } from "../lib/zod";
import { isEmail, requiredText as text } from "../lib/fields";
import { CONNECTABLE } from "./channel-constants";
export { CONNECTABLE } from "./channel-constants";

export type ConnectableChannel = (typeof CONNECTABLE)[number];

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

/**
 * What we use of a Google service account key (the JSON file the Cloud console downloads). Its
 * token_uri is not among it: the token endpoint is the platform's (GBM_TOKEN_URL, ADR 021), since a
 * tenant could point the key's anywhere.
 */
export type ServiceAccountKey = { client_email: string; private_key: string };

/**
 * Reads a service account key: the parsed key, or the error naming what is wrong (a locale key,
 * "channels.errors.keyField::<field>" for a missing or malformed field).
 */
export function readServiceAccountKey(raw: string): { key: ServiceAccountKey } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { error: "channels.errors.keyJson" };
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) return { error: "channels.errors.keyJson" };
  const k = json as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const key = { client_email: str(k.client_email), private_key: str(k.private_key) };
  if (!isEmail(key.client_email)) return { error: "channels.errors.keyField::client_email" };
  if (!/^-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----$/.test(key.private_key)) return { error: "channels.errors.keyField::private_key" };
  return { key };
}

export const googleBusinessConnectSchema = z.object({
  channel: z.literal("google_business"),
  /** The Business Messages agent's resource name. */
  agent_id: text(120).regex(/^brands\/[A-Za-z0-9_-]{1,50}\/agents\/[A-Za-z0-9_-]{1,50}$/, "channels.errors.agentId"),
  /** The client token of the webhook: Google signs every post with it (X-Goog-Signature). */
  client_token: text(200).min(8, "validation.minLength::8"),
  service_account_key: text(20_000).superRefine((raw, ctx) => {
    const read = readServiceAccountKey(raw);
    if ("error" in read) ctx.addIssue({ code: "custom", message: read.error });
  }),
});

export const connectSchema = z.discriminatedUnion("channel", [telegramConnectSchema, messengerConnectSchema, instagramConnectSchema, googleBusinessConnectSchema]);
export type ConnectInput = z.infer<typeof connectSchema>;
