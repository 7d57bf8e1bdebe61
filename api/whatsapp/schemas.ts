/**
 * Inputs of WhatsApp numbers and templates (issue 16; spec section 5 "WhatsApp template"). The
 * template rules are Meta's, each refused with a locale key naming it (validation.wa*):
 * - name: lowercase letters, digits and underscores (Meta's rule), up to 512;
 * - category utility, marketing or authentication; a language code such as pt_BR, en_US, es;
 * - header (optional): text up to 60 characters with at most one variable {{1}} (and its example),
 *   or media by URL: an image JPG/PNG, a video MP4 or a document PDF ('Invalid media URL');
 * - body: required, up to 1,024 characters, variables numbered {{1}}, {{2}}… in order, one example
 *   each (Meta refuses a template without examples);
 * - footer (optional): up to 60 characters, no variables;
 * - at most 3 buttons: quick replies (up to 25 characters, no two alike) and call-to-action —
 *   a phone (E.164), a website, or both; a website URL takes at most one variable, at its end,
 *   and then an example URL.
 * Messages are locale keys; no model imports (the /whatsapp/templates/new form uses these too).
 */
import { z } from "../lib/zod";
import { TEMPLATE_CATEGORIES, MAX_BUTTONS, VARIABLE, variablesOf } from "./constants";
export { TEMPLATE_CATEGORIES, MAX_BUTTONS, variablesOf } from "./constants";

const E164 = /^\+[1-9]\d{7,14}$/;
const digits = (max: number) => z.string().trim().min(1, "validation.required").max(max, `validation.maxLength::${max}`).regex(/^\d+$/, "validation.invalid");

/** A Cloud API number: its ids at Meta and the credentials of the customer's Meta app. */
export const connectCloudNumberSchema = z.object({
  integration: z.literal("cloud", "validation.option").optional().default("cloud"),
  phone_number_id: digits(32),
  waba_id: digits(32),
  access_token: z.string().trim().min(1, "validation.required").max(1000, "validation.maxLength::1000"),
  app_secret: z.string().trim().min(1, "validation.required").max(200, "validation.maxLength::200"),
});
export type ConnectCloudNumberInput = z.infer<typeof connectCloudNumberSchema>;

/**
 * An older-integration number (ADR 035): a WhatsApp Business API client in the On-Premises shape
 * at a BSP — its base URL (http or https; where it may point is the outbound guard's decision at
 * connect, api/lib/outbound.ts), the client's username and password, and the phone number it serves.
 */
export const connectOnpremNumberSchema = z.object({
  integration: z.literal("onprem", "validation.option"),
  base_url: z
    .string()
    .trim()
    .min(1, "validation.required")
    .max(500, "validation.maxLength::500")
    .refine((v) => {
      try {
        return ["http:", "https:"].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, "validation.httpUrl"),
  username: z.string().trim().min(1, "validation.required").max(200, "validation.maxLength::200"),
  password: z.string().min(1, "validation.required").max(200, "validation.maxLength::200"),
  phone_number: z.string().trim().regex(E164, "validation.phone"),
});
export type ConnectOnpremNumberInput = z.infer<typeof connectOnpremNumberSchema>;

/** The connect form of either integration (`integration` absent: cloud, as before the older one existed). */
export const connectNumberSchema = z.discriminatedUnion("integration", [connectCloudNumberSchema, connectOnpremNumberSchema], "validation.option");
export type ConnectNumberInput = z.infer<typeof connectNumberSchema>;

const https = z.string().trim().min(1, "validation.required").max(2000, "validation.maxLength::2000");
const MEDIA: Record<string, RegExp> = { image: /\.(jpe?g|png)$/i, video: /\.mp4$/i, document: /\.pdf$/i };

const header = z.discriminatedUnion(
  "type",
  [
    z.object({
      type: z.literal("text"),
      text: z.string().trim().min(1, "validation.required").max(60, "validation.maxLength::60"),
      example: z.string().trim().max(200).optional(),
    }),
    z.object({ type: z.literal("image"), url: https }),
    z.object({ type: z.literal("video"), url: https }),
    z.object({ type: z.literal("document"), url: https }),
  ],
  "validation.option",
);

const button = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("quick_reply"), text: z.string().trim().min(1, "validation.required").max(25, "validation.maxLength::25") }),
    z.object({ type: z.literal("phone"), text: z.string().trim().min(1, "validation.required").max(25, "validation.maxLength::25"), phone: z.string().trim() }),
    z.object({
      type: z.literal("url"),
      text: z.string().trim().min(1, "validation.required").max(25, "validation.maxLength::25"),
      url: https,
      example: z.string().trim().max(2000).optional(),
    }),
  ],
  "validation.option",
);

/** A template as the account writes it; `metaComponents` turns it into what the provider gets. */
export const createTemplateSchema = z
  .object({
    number_id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "validation.required"),
    name: z
      .string()
      .trim()
      .min(1, "validation.required")
      .max(512, "validation.maxLength::512")
      .regex(/^[a-z0-9_]+$/, "validation.waTemplateName"),
    category: z.enum(TEMPLATE_CATEGORIES, "validation.option"),
    language: z
      .string()
      .trim()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, "validation.invalid"),
    header: header.optional().nullable(),
    body: z.string().trim().min(1, "validation.required").max(1024, "validation.maxLength::1024"),
    body_examples: z.array(z.string().trim().min(1, "validation.required").max(200, "validation.maxLength::200")).max(100).optional().default([]),
    footer: z.string().trim().max(60, "validation.maxLength::60").optional().nullable(),
    buttons: z.array(button).optional().default([]),
  })
  .superRefine((t, ctx) => {
    // Body variables: {{1}}, {{2}}… in order, each with an example.
    const vars = variablesOf(t.body);
    if (vars.some((n, i) => n !== i + 1)) ctx.addIssue({ code: "custom", path: ["body"], message: "validation.waVariables" });
    else if (t.body_examples.length !== vars.length) ctx.addIssue({ code: "custom", path: ["body_examples"], message: `validation.waExamples::${vars.length}` });
    if (t.header?.type === "text") {
      const hv = variablesOf(t.header.text);
      if (hv.length > 1 || (hv.length === 1 && hv[0] !== 1)) ctx.addIssue({ code: "custom", path: ["header", "text"], message: "validation.waHeaderVariable" });
      else if (hv.length === 1 && !t.header.example) ctx.addIssue({ code: "custom", path: ["header", "example"], message: "validation.waExamples::1" });
    } else if (t.header) {
      let ok = false;
      try {
        const u = new URL(t.header.url);
        ok = u.protocol === "https:" && MEDIA[t.header.type].test(u.pathname);
      } catch {}
      if (!ok) ctx.addIssue({ code: "custom", path: ["header", "url"], message: "validation.waMediaUrl" });
    }
    if (t.footer && variablesOf(t.footer).length) ctx.addIssue({ code: "custom", path: ["footer"], message: "validation.waFooterVariables" });
    if (t.buttons.length > MAX_BUTTONS) ctx.addIssue({ code: "custom", path: ["buttons"], message: `validation.waButtonsMax::${MAX_BUTTONS}` });
    const replies = t.buttons.filter((b) => b.type === "quick_reply").map((b) => b.text.toLowerCase());
    if (new Set(replies).size !== replies.length) ctx.addIssue({ code: "custom", path: ["buttons"], message: "validation.waQuickReplyRepeat" });
    // Call to action: a phone, a website, or both (one of each at most).
    if (t.buttons.filter((b) => b.type === "phone").length > 1 || t.buttons.filter((b) => b.type === "url").length > 1) {
      ctx.addIssue({ code: "custom", path: ["buttons"], message: "validation.waCallToAction" });
    }
    for (const [i, b] of t.buttons.entries()) {
      if (b.type === "phone" && !E164.test(b.phone)) ctx.addIssue({ code: "custom", path: ["buttons", i, "phone"], message: "validation.phone" });
      if (b.type === "url") {
        let ok = false;
        try {
          ok = ["https:", "http:"].includes(new URL(b.url.replace(VARIABLE, "x")).protocol);
        } catch {}
        if (!ok) ctx.addIssue({ code: "custom", path: ["buttons", i, "url"], message: "validation.httpUrl" });
        const uv = variablesOf(b.url);
        // One variable at most, and only at the very end of the URL.
        if (uv.length > 1 || (uv.length === 1 && !/\{\{\s*1\s*\}\}$/.test(b.url)))
          ctx.addIssue({ code: "custom", path: ["buttons", i, "url"], message: "validation.waUrlVariable" });
        else if (uv.length === 1 && !b.example) ctx.addIssue({ code: "custom", path: ["buttons", i, "example"], message: "validation.waExamples::1" });
      }
    }
  });
export type CreateTemplateInput = z.infer<typeof createTemplateSchema>;

/** Meta's `components` of a template (Graph API message_templates). */
export function metaComponents(t: CreateTemplateInput): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  if (t.header?.type === "text") {
    out.push({ type: "HEADER", format: "TEXT", text: t.header.text, ...(t.header.example ? { example: { header_text: [t.header.example] } } : {}) });
  } else if (t.header) {
    out.push({ type: "HEADER", format: t.header.type.toUpperCase(), example: { header_handle: [t.header.url] } });
  }
  out.push({ type: "BODY", text: t.body, ...(t.body_examples.length ? { example: { body_text: [t.body_examples] } } : {}) });
  if (t.footer) out.push({ type: "FOOTER", text: t.footer });
  if (t.buttons.length) {
    out.push({
      type: "BUTTONS",
      buttons: t.buttons.map((b) =>
        b.type === "quick_reply"
          ? { type: "QUICK_REPLY", text: b.text }
          : b.type === "phone"
            ? { type: "PHONE_NUMBER", text: b.text, phone_number: b.phone }
            : { type: "URL", text: b.text, url: b.url, ...(b.example ? { example: [b.example] } : {}) },
      ),
    });
  }
  return out;
}
