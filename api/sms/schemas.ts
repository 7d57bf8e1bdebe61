/**
 * Input of the SMS send (API today, the /sms/send form later): recipients normalized to E.164,
 * sender, body and route. Messages are locale keys. No model imports (the browser bundle uses it).
 */
import { normalizePhone } from "../contacts/phone";
import { z } from "../lib/zod";

export const SMS_ROUTES = ["T1", "T2", "T4", "T6"] as const;
export type SmsRoute = (typeof SMS_ROUTES)[number];
export const MAX_RECIPIENTS = 1000;
export const MAX_BODY = 1600;
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

export const sendSmsSchema = z.object({
  to: recipients,
  from: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const s = (v ?? "").trim();
      if (s.length > 11) ctx.addIssue({ code: "custom", message: "validation.maxLength::11" });
      else if (s && !SENDER.test(s)) ctx.addIssue({ code: "custom", message: "validation.invalid" });
      return s;
    }),
  body: z
    .string()
    .transform((v, ctx) => {
      const n = [...v].length;
      if (v.trim().length === 0) ctx.addIssue({ code: "custom", message: "validation.required" });
      else if (n > MAX_BODY) ctx.addIssue({ code: "custom", message: `validation.maxLength::${MAX_BODY}` });
      return v;
    }),
  route: z
    .union([z.enum(SMS_ROUTES, "validation.option"), z.literal(""), z.null()])
    .optional()
    .transform((v): SmsRoute => v || "T1"),
  /**
   * Scheduling is not accepted yet: the release of due messages into the outbox is not built,
   * so a scheduled send is refused instead of being silently held forever.
   */
  scheduled_at: z
    .union([z.string(), z.null()])
    .optional()
    .superRefine((v, ctx) => {
      if (v) ctx.addIssue({ code: "custom", message: "validation.invalid" });
    }),
});

export type SendSmsInput = z.infer<typeof sendSmsSchema>;
