/** The WhatsApp send form's options, without its schema (and zod) beside them (ADR 052); send-form.ts re-exports them. */

export const MEDIA_TYPES = ["image", "video", "document", "audio", "sticker"] as const;

export const TYPES = ["template", "text", ...MEDIA_TYPES] as const;

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
