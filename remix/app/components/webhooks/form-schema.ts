/** The endpoint form's schema: the API's, with the checkbox reading of `enabled` (absent = off) and the intent. */
import { flag } from "~api/lib/fields";
import { z } from "~api/lib/zod";
import { webhookEndpointSchema } from "~api/webhooks/schemas";

export const webhookFormSchema = webhookEndpointSchema.extend({
  enabled: flag,
  intent: z.enum(["create", "update"]).optional(),
});
