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
