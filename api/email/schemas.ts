/**
 * The e-mail channel's form schemas, shared by the API and the screens (so no server module here:
 * the browser bundle imports this file). The server's use-cases add what needs its settings (the
 * platform's own host names, ./domains.ts).
 */
import { z } from "../lib/zod";

/** A host name of two labels or more, the last one starting with a letter (no IP address), at most 253 characters. */
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A domain as typed (any case, a final dot, an @ before it, an internationalised name) in its ASCII form, or "" when it is not a name at all. */
export function asciiDomain(typed: string): string {
  const name = typed.trim().toLowerCase().replace(/^@/, "").replace(/\.$/, "");
  if (!name || /[\s/:?#@\\[\]]/.test(name)) return "";
  try {
    return new URL(`http://${name}`).hostname;
  } catch {
    return "";
  }
}

export const domainSchema = z.object({
  domain: z
    .string()
    .trim()
    .min(1, "validation.required")
    .max(253, "validation.maxLength::253")
    .transform(asciiDomain)
    .refine((d) => HOST.test(d), "validation.emailDomain"),
});

/** Largest HTML part accepted, in bytes (the issue leaves it to us): 512 KB — Gmail clips a message past 102 KB, and no campaign needs more. */
export const MAX_HTML_BYTES = 512 * 1024;
/** Largest text part, in bytes. */
export const MAX_TEXT_BYTES = 256 * 1024;
/** Most recipients of one POST /email/messages (a larger audience is a campaign). */
export const MAX_RECIPIENTS = 1000;
/** A subject's longest (RFC 5322's line limit less the header name). */
export const MAX_SUBJECT = 900;

/** Line breaks or other control characters: never in a header (header injection). */
const CONTROL = /[\u0000-\u001f\u007f]/;
const bytes = (s: string) => new TextEncoder().encode(s).length;
export const address = z.string().trim().toLowerCase().max(254, "validation.maxLength::254").email("validation.email");

/** The fields the API's body and the /mail/send form share. */
export const fromName = z
  .string()
  .trim()
  .max(120, "validation.maxLength::120")
  .refine((v) => !CONTROL.test(v), "validation.emailHeaderControl")
  .optional();
export const subject = z
  .string()
  .trim()
  .min(1, "validation.required")
  .max(MAX_SUBJECT, `validation.maxLength::${MAX_SUBJECT}`)
  .refine((v) => !CONTROL.test(v), "validation.emailHeaderControl");
export const html = z
  .string()
  .refine((v) => bytes(v) <= MAX_HTML_BYTES, `validation.emailHtmlSize::${MAX_HTML_BYTES / 1024}`)
  .optional();
export const text = z
  .string()
  .refine((v) => bytes(v) <= MAX_TEXT_BYTES, `validation.emailTextSize::${MAX_TEXT_BYTES / 1024}`)
  .optional();
/** HTML, text or both. */
export const contentRequired = (v: { html?: string; text?: string }, ctx: z.RefinementCtx) => {
  if (!v.html?.trim() && !v.text?.trim()) ctx.addIssue({ code: "custom", path: ["html"], message: "validation.emailContentRequired" });
};

/** A template's id (a uuid, else "not an option") and the values of its {{variables}}. */
export const templateId = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "validation.option")
  .optional();
/** At most 100 variables, names as in templates, values up to 1,000 characters (a number or boolean is its text). */
export const MAX_VARIABLES = 100;
const variables = z
  .record(
    z.string().regex(/^[A-Za-z0-9_]{1,40}$/, "validation.emailVariableName"),
    z.union([z.string().max(1000, "validation.maxLength::1000"), z.number(), z.boolean(), z.null()]),
  )
  .refine((v) => Object.keys(v).length <= MAX_VARIABLES, `validation.maxItems::${MAX_VARIABLES}`)
  .optional();

/**
 * Either a template (its subject and parts; `variables` fill it) or a subject with HTML and/or
 * text — not both: a subject or part beside a template is refused on that field.
 */
export const contentOrTemplate = (v: { template_id?: string; subject?: string; html?: string; text?: string }, ctx: z.RefinementCtx) => {
  if (v.template_id) {
    for (const f of ["subject", "html", "text"] as const) if (v[f]?.trim()) ctx.addIssue({ code: "custom", path: [f], message: "validation.emailTemplateOrContent" });
    return;
  }
  // A blank subject given is the subject field's own error; an absent one is this.
  if (v.subject === undefined) ctx.addIssue({ code: "custom", path: ["subject"], message: "validation.required" });
  contentRequired(v, ctx);
};

export const sendEmailSchema = z
  .object({
    /** Absent: the account's default sender address (/settings/resources, ADR 071). */
    from: address.optional(),
    from_name: fromName,
    reply_to: address.optional(),
    to: z.union([address, z.array(address).min(1, "validation.required").max(MAX_RECIPIENTS, `validation.maxItems::${MAX_RECIPIENTS}`)]),
    subject: subject.optional(),
    html,
    text,
    template_id: templateId,
    variables,
    scheduled_at: z.coerce.date("validation.date").optional(),
  })
  .superRefine(contentOrTemplate);
export type SendEmailInput = z.infer<typeof sendEmailSchema>;

/** A form's template variables, written as lines `name=value` (one a line). */
export const variableLines = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const out: Record<string, string> = {};
    for (const line of (v ?? "").split(/\r?\n/)) {
      if (!line.trim()) continue;
      const at = line.indexOf("=");
      const name = (at < 0 ? line : line.slice(0, at)).trim();
      if (!/^[A-Za-z0-9_]{1,40}$/.test(name)) {
        ctx.addIssue({ code: "custom", message: `validation.emailVariableLine::${line.trim().slice(0, 60)}` });
        return z.NEVER;
      }
      out[name] =
        at < 0
          ? ""
          : line
              .slice(at + 1)
              .trim()
              .slice(0, 1000);
    }
    return out;
  });

/** Addresses as a person types them in one field: separated by commas, semicolons, spaces or lines. */
export const splitAddresses = (typed: string) =>
  typed
    .split(/[\s,;]+/)
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);

/** The form's recipients: one text of addresses, each checked (a bad one named), at most MAX_RECIPIENTS. */
export const toListField = z
  .string()
  .trim()
  .min(1, "validation.required")
  .transform((v) => [...new Set(splitAddresses(v))])
  .superRefine((list, ctx) => {
    const bad = list.find((a) => !z.string().email().safeParse(a).success || a.length > 254);
    if (bad) ctx.addIssue({ code: "custom", message: `validation.emailOne::${bad.slice(0, 100)}` });
    if (list.length > MAX_RECIPIENTS) ctx.addIssue({ code: "custom", message: `validation.maxItems::${MAX_RECIPIENTS}` });
  });

/**
 * The /mail/send form (its `to` one text of addresses), checked like the API's body: each address
 * refused names the field `to` with the address, so the person sees which one.
 */
export const sendEmailFormSchema = z
  .object({
    from: address,
    from_name: fromName,
    to: toListField,
    subject: subject.optional(),
    html,
    text,
    template_id: templateId,
    variables: variableLines,
  })
  .superRefine(contentOrTemplate);

/** Most bytes of a template's MJML source (the compiled HTML has the HTML limit, MAX_HTML_BYTES). */
export const MAX_MJML_BYTES = MAX_HTML_BYTES;
const mjml = z
  .string("validation.required")
  .refine((v) => v.trim().length > 0, "validation.required")
  .refine((v) => bytes(v) <= MAX_MJML_BYTES, `validation.emailMjmlSize::${MAX_MJML_BYTES / 1024}`);
/** A checkbox (a form's "on") or a JSON boolean. */
const flag = z.union([z.boolean(), z.string()]).transform((v) => v === true || v === "on" || v === "true" || v === "1");
const templateName = z.string().trim().min(1, "validation.required").max(120, "validation.maxLength::120");

/** An e-mail template (POST /email/templates, /mail/templates/create): its subject may hold {{variables}}. */
export const emailTemplateSchema = z.object({
  name: templateName,
  subject,
  mjml,
  text,
  active: flag.optional(),
});
export type EmailTemplateInput = z.infer<typeof emailTemplateSchema>;
/** PUT /email/templates/{id}: any of the fields (the toggle sends only `active`). */
export const emailTemplateUpdateSchema = emailTemplateSchema.partial();

/** A library entry (POST /email/libs). */
export const emailLibSchema = z.object({
  name: templateName,
  description: z.string().trim().max(300, "validation.maxLength::300").optional(),
  subject,
  mjml,
  text,
});
export type EmailLibInput = z.infer<typeof emailLibSchema>;

/** Several ids at once (DELETE /email/templates). */
export const emailBulkIdsSchema = z.object({
  ids: z.array(z.string().max(100)).min(1, "validation.required").max(MAX_RECIPIENTS, `validation.maxItems::${MAX_RECIPIENTS}`),
});
