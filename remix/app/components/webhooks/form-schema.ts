/** The endpoint form's schema: the API's, with the checkbox reading of `enabled` (absent = off) and the intent. */
import { z } from "../../../../api/lib/zod";
import { webhookEndpointSchema } from "../../../../api/webhooks/schemas";

export const webhookFormSchema = webhookEndpointSchema.extend({
  enabled: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "true"),
  intent: z.enum(["create", "update"]).optional(),
});
