/** What /sms/templates posts: the action checks it, and the browser with the same schema once loaded (ADR 052). */
import { z } from "~api/lib/zod";
import { smsTemplateSchema } from "~api/sms/schemas";
import { bulkIdsSchema } from "./bulk";

export { smsTemplateSchema };
export const editTemplateSchema = smsTemplateSchema.extend({ intent: z.literal("edit"), id: z.string().min(1, "validation.required") });
export const bulkTemplatesSchema = bulkIdsSchema("sms.templates.bulk.none");
