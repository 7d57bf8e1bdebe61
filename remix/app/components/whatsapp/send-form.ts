/** What the WhatsApp send form (/whatsapp/send, /whatsapp/jv/send) posts, checked by the same schema in the browser and the action, and the page's URL for a choice. */
import { z } from "~api/lib/zod";

export const MEDIA_TYPES = ["image", "video", "document", "audio", "sticker"] as const;
export const TYPES = ["template", "text", ...MEDIA_TYPES] as const;
export type SendType = (typeof TYPES)[number];
export const isMediaType = (v: unknown): v is (typeof MEDIA_TYPES)[number] => typeof v === "string" && (MEDIA_TYPES as readonly string[]).includes(v);
/** What the file field offers for each kind (the server reads the real type from the content). */
export const MEDIA_ACCEPT: Record<(typeof MEDIA_TYPES)[number], string> = {
  image: "image/jpeg,image/png",
  video: "video/mp4,video/3gpp",
  document: ".pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.txt",
  audio: "audio/aac,audio/mp4,audio/mpeg,audio/amr,audio/ogg",
  sticker: "image/webp",
};
/** The media kinds that take a caption (audio and stickers do not). */
export const CAPTIONED = ["image", "video", "document"] as const;

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

/** The page's URL for a number, contact, type and template. */
export function sendUrl(base: string, v: { from?: string; to?: string; type?: string; template_id?: string }) {
  const p = new URLSearchParams();
  if (v.from) p.set("number_id", v.from);
  if (v.to) p.set("to", v.to);
  if (v.type) p.set("type", v.type);
  if (v.template_id) p.set("template", v.template_id);
  const s = p.toString();
  return `${base}/send${s ? `?${s}` : ""}`;
}
