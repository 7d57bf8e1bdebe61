import { z } from "../lib/zod";

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
