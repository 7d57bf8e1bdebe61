/**
 * Inputs of the SMS send (API and /sms/send) and of SMS templates: recipients normalized to E.164,
 * sender, body and route. Messages are locale keys. No model imports (the browser bundle uses it).
 */
import { normalizePhone } from "../contacts/phone";
import { z } from "../lib/zod";
import { SMS_ROUTES, MAX_BODY } from "./constants";
export { SMS_ROUTES, MAX_BODY } from "./constants";

export type SmsRoute = (typeof SMS_ROUTES)[number];
export const MAX_RECIPIENTS = 1000;
/** An alphanumeric sender of up to 11 characters, or a short code (digits). */
const SENDER = /^[A-Za-z0-9]{1,11}$/;

const recipients = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .superRefine((list, ctx) => {
    if (list.length === 0) ctx.addIssue({ code: "custom", message: "validation.required" });
    if (list.length > MAX_RECIPIENTS) ctx.addIssue({ code: "custom", message: `validation.max::${MAX_RECIPIENTS}` });
    if (list.length > MAX_RECIPIENTS) return;
    list.forEach((raw, i) => {
      if (!normalizePhone(raw)) ctx.addIssue({ code: "custom", path: [i], message: "validation.phone" });
    });
  })
  // Normalized and deduplicated: the same number twice in one send is one message.
  .transform((list) => [...new Set(list.map((raw) => normalizePhone(raw)!))]);

/** Latest a send may be scheduled for, in days from now. */
export const MAX_SCHEDULE_DAYS = 90;
/** Rows of a CSV file of recipients (spec section 9). */
export const MAX_FILE_ROWS = 1_000_000;
export const MAX_CAMPAIGN_NAME = 120;
export const MAX_TEMPLATE_NAME = 80;
export const MAX_VARIABLE_VALUE = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An optional id: blank is none; anything else must look like a uuid. */
const optionalId = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    const s = (v ?? "").trim();
    if (s && !UUID.test(s)) ctx.addIssue({ code: "custom", message: "validation.option" });
    return s ? s.toLowerCase() : null;
  });

/** Variable values by name: text, numbers and booleans as text; names as in api/sms/template-vars.ts. */
const variables = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .optional()
  .nullable()
  .superRefine((v, ctx) => {
    for (const [name, value] of Object.entries(v ?? {})) {
      if (!/^[A-Za-z0-9_]{1,40}$/.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "validation.invalid" });
      else if (value !== null && String(value).length > MAX_VARIABLE_VALUE) ctx.addIssue({ code: "custom", path: [name], message: `validation.maxLength::${MAX_VARIABLE_VALUE}` });
    }
  })
  .transform(
    (v) =>
      Object.fromEntries(
        Object.entries(v ?? {})
          .filter(([, x]) => x !== null)
          .map(([k, x]) => [k, String(x)]),
      ) as Record<string, string>,
  );

const body = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    const s = v ?? "";
    if ([...s].length > MAX_BODY) ctx.addIssue({ code: "custom", message: `validation.maxLength::${MAX_BODY}` });
    return s;
  });

/**
 * ISO 8601 with an offset or Z ("2026-05-01T09:30:00-03:00"). Whether it is in the future (and
 * not after MAX_SCHEDULE_DAYS) depends on the clock: the accept use-case checks that.
 */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
const scheduledAt = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    const s = (v ?? "").trim();
    if (!s) return null;
    const at = ISO_WITH_OFFSET.test(s) ? new Date(s) : null;
    if (!at || Number.isNaN(at.getTime())) {
      ctx.addIssue({ code: "custom", message: "validation.date" });
      return z.NEVER;
    }
    return at;
  });

/**
 * One send. Recipients come from exactly one of: `to` (one number or a list), `messages` (a list
 * of {to, variables} for per-recipient variables), `group_id` (every contact of the group with a
 * mobile) or, on the send screen only, an uploaded CSV file (passed to the use-case apart).
 * The text is `body`, or the body of `template_id` (then `body` is ignored). `{{variables}}` are
 * filled per recipient from its own variables, then the contact's fields (group sends) or the
 * file's columns (file sends), then `variables` (the same for everyone).
 */
export const sendSmsSchema = z.object({
  to: recipients.optional(),
  messages: z
    .array(z.object({ to: z.string(), variables }))
    .max(MAX_RECIPIENTS, `validation.max::${MAX_RECIPIENTS}`)
    .optional()
    .superRefine((list, ctx) => {
      (list ?? []).forEach((m, i) => {
        if (!normalizePhone(m.to)) ctx.addIssue({ code: "custom", path: [i, "to"], message: "validation.phone" });
      });
    })
    .transform((list) => {
      if (!list) return undefined;
      // Normalized; a number given twice is sent once, with its first variables.
      const seen = new Map<string, Record<string, string>>();
      for (const m of list) {
        const to = normalizePhone(m.to)!;
        if (!seen.has(to)) seen.set(to, m.variables);
      }
      return [...seen].map(([to, vars]) => ({ to, variables: vars }));
    }),
  group_id: optionalId,
  from: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const s = (v ?? "").trim();
      if (s.length > 11) ctx.addIssue({ code: "custom", message: "validation.maxLength::11" });
      else if (s && !SENDER.test(s)) ctx.addIssue({ code: "custom", message: "validation.invalid" });
      return s;
    }),
  body,
  template_id: optionalId,
  variables,
  route: z
    .union([z.enum(SMS_ROUTES, "validation.option"), z.literal(""), z.null()])
    .optional()
    .transform((v): SmsRoute => v || "T1"),
  scheduled_at: scheduledAt,
  campaign_name: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const s = (v ?? "").trim();
      if (s.length > MAX_CAMPAIGN_NAME) ctx.addIssue({ code: "custom", message: `validation.maxLength::${MAX_CAMPAIGN_NAME}` });
      return s;
    }),
  /**
   * A send to many (a campaign): each http(s) address of the text becomes a short link and each
   * recipient gets its own code of it, so the campaign's report shows who clicked (ADR 060).
   */
  shorten_links: z
    .union([z.boolean(), z.enum(["true", "false", "on", "1", "0", ""]), z.null()], "validation.option")
    .optional()
    .transform((v) => v === true || v === "true" || v === "on" || v === "1"),
});

export type SendSmsInput = z.infer<typeof sendSmsSchema>;

/** An SMS template: a name (unique per account, ignoring case) and a body with {{variables}}. */
export const smsTemplateSchema = z.object({
  name: z.string().transform((v, ctx) => {
    const s = v.trim();
    if (!s) ctx.addIssue({ code: "custom", message: "validation.required" });
    else if (s.length > MAX_TEMPLATE_NAME) ctx.addIssue({ code: "custom", message: `validation.maxLength::${MAX_TEMPLATE_NAME}` });
    return s;
  }),
  body: z.string().transform((v, ctx) => {
    if (v.trim().length === 0) ctx.addIssue({ code: "custom", message: "validation.required" });
    else if ([...v].length > MAX_BODY) ctx.addIssue({ code: "custom", message: `validation.maxLength::${MAX_BODY}` });
    return v;
  }),
});
export type SmsTemplateInput = z.infer<typeof smsTemplateSchema>;

export const bulkIdsSchema = z.object({
  ids: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .superRefine((list, ctx) => {
      if (list.length === 0) ctx.addIssue({ code: "custom", message: "validation.required" });
      if (list.length > 1000) ctx.addIssue({ code: "custom", message: "validation.max::1000" });
    }),
});
