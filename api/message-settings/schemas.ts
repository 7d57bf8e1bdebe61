/**
 * Inputs of /settings/resources (default senders) and /settings/messages (signature, opt-out text,
 * marketing window). The same schemas parse the API's JSON and the screens' forms (a blank field
 * clears an option; checkboxes post a field once per box). Messages are locale keys.
 */
import { z } from "../lib/zod";
import { EMAIL_FROM_NAME_MAX, OPTOUT_TEXT_MAX, parseMinute, SIGNATURE_CHANNELS, SIGNATURE_MAX } from "./constants";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Optional in JSON (absent or null) and blank in a form: all clear the option. */
const optionalId = z
  .union([z.literal(""), z.null(), z.string().trim().regex(UUID, "validation.option")])
  .optional()
  .transform((v) => v || null);

/** A list posted as one value, several, or none. */
// biome-ignore lint/suspicious/noExplicitAny: the item schema takes what a form or JSON posts
const list = <T extends z.ZodType<unknown, any>>(item: T) =>
  z
    .union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])
    .optional()
    .nullable()
    .transform((v) => [...new Set(Array.isArray(v) ? v : v === undefined || v === null || v === "" ? [] : [v])])
    .pipe(z.array(item));

const flag = z
  .union([z.boolean(), z.string(), z.null()])
  .optional()
  .transform((v) => v === true || v === "on" || v === "true" || v === "1");

/** A minute of the day: "HH:MM" (a form, or the API) or the minute itself (the API, as GET answers it). */
const time = z
  .union([z.number(), z.string({ message: "validation.required" })], { message: "validation.required" })
  .transform((v) => (typeof v === "number" ? (Number.isInteger(v) && v >= 0 && v <= 1440 ? v : null) : parseMinute(v)))
  .refine((v) => v !== null, "settings.messages.errors.time")
  .transform((v) => v as number);

const text = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string()
        .max(max, `validation.maxLength::${max}`)
        .refine((v) => !v.includes("{{"), "settings.messages.errors.noVariables"),
    );

export const resourcesSchema = z.object({
  /** An active short code of the account; blank: the route's default sender. */
  sms_sender: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").replace(/\D/g, ""))
    .pipe(z.string().max(20, "validation.maxLength::20")),
  whatsapp_number_id: optionalId,
  rcs_agent_id: optionalId,
  email_from: z
    .union([z.literal(""), z.null(), z.string().trim().toLowerCase().email("validation.email").max(254, "validation.maxLength::254")])
    .optional()
    .transform((v) => v || null),
  email_from_name: text(EMAIL_FROM_NAME_MAX),
});
export type ResourcesInput = z.infer<typeof resourcesSchema>;

export const messagesSchema = z
  .object({
    signature: text(SIGNATURE_MAX),
    signature_channels: list(z.enum(SIGNATURE_CHANNELS, { message: "validation.option" })),
    optout_text: text(OPTOUT_TEXT_MAX),
    window_enabled: flag,
    window_start: time,
    window_end: time,
    window_days: list(z.coerce.number().int().min(0, "validation.option").max(6, "validation.option")),
  })
  .superRefine((v, ctx) => {
    if (v.window_end <= v.window_start) ctx.addIssue({ code: "custom", path: ["window_end"], message: "settings.messages.errors.endAfterStart" });
    if (v.window_start > 1439) ctx.addIssue({ code: "custom", path: ["window_start"], message: "settings.messages.errors.time" });
    if (v.window_enabled && v.window_days.length === 0) ctx.addIssue({ code: "custom", path: ["window_days"], message: "settings.messages.errors.daysRequired" });
    if (v.signature_channels.length > 0 && v.signature === "") ctx.addIssue({ code: "custom", path: ["signature"], message: "settings.messages.errors.signatureRequired" });
  });
export type MessagesInput = z.infer<typeof messagesSchema>;
