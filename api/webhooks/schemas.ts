import { pageInput } from "../lib/page";
import { pageParam } from "../lib/validate";
import { z } from "../lib/zod";
import { flagOr } from "../lib/fields";
import { WEBHOOK_EVENT_TYPES } from "./constants";
export { WEBHOOK_EVENT_TYPES } from "./constants";

/** The JSON body of a provider's status receipt (after its signature is verified over the raw bytes). */
export const providerReceiptSchema = z.object({
  event_id: z.string().trim().min(1, "validation.required").max(200, "validation.maxLength::200").optional(),
  /** The provider's id of the message (what it answered to our submit). */
  message_id: z.string().trim().min(1, "validation.required").max(200, "validation.maxLength::200"),
  /** The provider's status word; mapped to ours per provider. */
  status: z.string().trim().min(1, "validation.required").max(40, "validation.maxLength::40"),
  error_code: z.string().max(100, "validation.maxLength::100").nullish(),
  error_message: z.string().max(1000, "validation.maxLength::1000").nullish(),
  /** The handset's operator, when the provider knows it (e.g. "Vivo"). */
  carrier: z.string().trim().max(40, "validation.maxLength::40").nullish(),
  occurred_at: z.iso.datetime({ offset: true, message: "validation.invalid" }),
});
export type ProviderReceiptBody = z.infer<typeof providerReceiptSchema>;

/** An inbound SMS (MO) a provider posts to the same signed endpoint: `type: "inbound"`. */
export const providerInboundSchema = z.object({
  type: z.literal("inbound"),
  event_id: z.string().trim().min(1, "validation.required").max(200, "validation.maxLength::200").optional(),
  /** The mobile that sent it. */
  from: z.string().transform((v, ctx) => {
    const digits = v.trim().replace(/^\+/, "");
    if (!/^[1-9]\d{7,14}$/.test(digits)) {
      ctx.addIssue({ code: "custom", message: "validation.phone" });
      return z.NEVER;
    }
    return `+${digits}`;
  }),
  /** The number or short code it was sent to. */
  to: z.string().trim().min(1, "validation.required").max(20, "validation.maxLength::20"),
  body: z.string().max(1600, "validation.maxLength::1600"),
  occurred_at: z.iso.datetime({ offset: true, message: "validation.invalid" }),
});
export type ProviderInboundBody = z.infer<typeof providerInboundSchema>;
// ---- customer webhook endpoints ----------------------------------------------------------------

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = "webhook.test";
export const MAX_URL = 2000;
export const MAX_DESCRIPTION = 255;

/** http(s) URL without credentials; the outbound guard (api/lib/outbound, ADR 021) adds https and a public address when the endpoint is saved, and again, with DNS, before every POST. */
const webhookUrl = z
  .string()
  .trim()
  .min(1, "validation.required")
  .max(MAX_URL, `validation.maxLength::${MAX_URL}`)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, "validation.invalid");

/** A list (API: JSON array; form: repeated checkbox values or one value) of event types or '*'. */
const events = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => [...new Set((Array.isArray(v) ? v : [v]).map((s) => s.trim()).filter(Boolean))])
  .refine((list) => list.length > 0, "validation.required")
  .refine((list) => list.every((e) => e === "*" || (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e)), "validation.option")
  .transform((list) => (list.includes("*") ? ["*"] : list));

export const webhookEndpointSchema = z.object({
  url: webhookUrl,
  description: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim())
    .refine((v) => v.length <= MAX_DESCRIPTION, `validation.maxLength::${MAX_DESCRIPTION}`),
  events,
  /** Missing = true through the API (a create); the form reads its checkbox with absent = off (remix/app/components/webhooks/form-schema.ts). */
  enabled: flagOr(true),
});
export type WebhookEndpointInput = z.infer<typeof webhookEndpointSchema>;

export const deliveriesQuerySchema = z.object({
  /** Deprecated (the web screen's numbered pages): `cursor` and `limit` are the API's paging. */
  page: pageParam(),
  ...pageInput,
  status: z
    .union([z.enum(["pending", "succeeded", "failed"], "validation.option"), z.literal("")])
    .optional()
    .transform((v) => v || undefined),
});
