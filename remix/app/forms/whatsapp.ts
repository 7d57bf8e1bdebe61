/** What /whatsapp posts to connect a Cloud API number: the action checks it, and the browser with the same schema once loaded (ADR 052). */
import { z } from "~api/lib/zod";
import { connectCloudNumberSchema } from "~api/whatsapp/schemas";

export const connectNumberFormSchema = connectCloudNumberSchema.extend({ intent: z.literal("connect") });
