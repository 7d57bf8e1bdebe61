/** What the e-mail screens post (/mail/*): each action checks it, and the browser with the same schema once loaded (ADR 052). */
import { emailTemplateSchema, domainSchema } from "~api/email/schemas";
import { z } from "~api/lib/zod";

/** /mail/insights: the account's tracking settings. */
export const trackingSettingsSchema = z.object({ open_tracking: z.string().optional(), click_tracking: z.string().optional() });
/** /mail/templates/create: a template, saved to the account or to the library. */
export const templateFormSchema = emailTemplateSchema.extend({ intent: z.enum(["save", "library"]).optional() });
/** /mail/domains: register a sending domain. */
export const registerDomainSchema = domainSchema.extend({ intent: z.literal("register") });
