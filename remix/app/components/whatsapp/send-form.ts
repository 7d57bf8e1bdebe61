/** What the WhatsApp send form (/whatsapp/send, /whatsapp/jv/send) posts, checked by the same schema in the browser and the action, and the page's URL for a choice. */
import { z } from "~api/lib/zod";
import { TYPES } from "./send-options";
export { MEDIA_TYPES, TYPES, isMediaType, MEDIA_ACCEPT, CAPTIONED, sendUrl } from "./send-options";

export type SendType = (typeof TYPES)[number];

/** What the form posts; the use-case checks the message itself (window, template, variables). */
export const sendFormSchema = z
  .object({
    intent: z.literal("send"),
    idempotency_key: z.string().optional(),
    from: z.string("validation.required"),
    to: z.string("validation.required"),
    type: z.enum(TYPES, "validation.option"),
    template_id: z.string().optional(),
    variables: z.array(z.string().max(1000, "validation.maxLength::1000").optional()).optional(),
    header_variable: z.string().max(1000, "validation.maxLength::1000").optional(),
    button_variable: z.string().max(1000, "validation.maxLength::1000").optional(),
    body: z.string().max(4096, "validation.maxLength::4096").optional(),
    /** A media message: a public https link, or the file the form uploads (media_file, streamed: not in this schema). */
    media_link: z.string().max(2000, "validation.maxLength::2000").optional(),
    caption: z.string().max(1024, "validation.maxLength::1024").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type === "text" && !v.body) ctx.addIssue({ code: "custom", path: ["body"], message: "validation.required" });
    if (v.type === "template" && !v.template_id) ctx.addIssue({ code: "custom", path: ["template_id"], message: "validation.required" });
    // The template's fields count only when a template is sent (without JavaScript both kinds' fields are posted).
    if (v.type === "template") for (const [i, x] of (v.variables ?? []).entries()) if (!x) ctx.addIssue({ code: "custom", path: ["variables", i], message: "validation.required" });
  });
/** The "Check" button: only what the page is loaded with. */
export const checkSchema = z.object({
  intent: z.literal("check"),
  from: z.string().optional(),
  to: z.string().optional(),
  type: z.string().optional(),
  template_id: z.string().optional(),
});
export const formSchema = (intent: FormDataEntryValue | null) => (intent === "check" ? checkSchema : sendFormSchema);
