/**
 * Schemas of live chat's configuration (issue 5): tabulations, canned samples, macros, holidays,
 * opening hours, system settings, agents' capacity, widget settings and per-user mute/volume.
 * Used by the use-cases, the API and the forms alike. No model imports (browser bundle).
 */
import { z } from "../lib/zod";
import { flag, requiredText as required } from "../lib/fields";
import { SAMPLE_AUDIENCES, ACCEPTANCE_OPTIONS, WIDGET_TEXT_MAX, WIDGET_POSITIONS, WIDGET_COLOR_PARTS, MUTE_OPTIONS } from "./constants";
export { WEEKDAYS, WIDGET_TEXT_MAX, WIDGET_COLOR_PARTS } from "./constants";

/** A select's empty option arrives as undefined (form) or "" / null (API): all mean "none". */
const optionalId = z
  .union([z.string().trim(), z.null()])
  .optional()
  .transform((v) => (v ? v : null));
const int = (min: number, max: number) =>
  z.coerce.number({ message: "validation.number" }).int("validation.integer").min(min, `validation.min::${min}`).max(max, `validation.max::${max}`);

// ---- tabulations
export const tabulationSchema = z.object({ name: required(120) });
export const tabulationActiveSchema = z.object({ active: flag });

export type SampleAudience = (typeof SAMPLE_AUDIENCES)[number];
export const sampleKeySchema = z
  .string({ message: "validation.required" })
  .trim()
  .toLowerCase()
  .min(1, "validation.required")
  .max(40, "validation.maxLength::40")
  .regex(/^[a-z0-9_-]+$/, "live.responses.keyFormat");
/** The screen's form: an audience and, for "department", which one. */
export const sampleFormSchema = z
  .object({
    audience: z.enum(SAMPLE_AUDIENCES, { message: "validation.option" }),
    department_id: optionalId,
    key: sampleKeySchema,
    message: required(4000),
  })
  .superRefine((v, ctx) => {
    if (v.audience === "department" && !v.department_id) ctx.addIssue({ code: "custom", path: ["department_id"], message: "validation.required" });
  });
/** Editing a sample: its shortcut and text (the audience stays). */
export const sampleEditSchema = z.object({ key: sampleKeySchema, message: required(4000) });
/** The live-chat API's body (POST webchat/samples/create). */
export const sampleApiSchema = z.object({
  agent_id: optionalId,
  department_id: optionalId,
  for_all: flag,
  key: sampleKeySchema,
  message: required(4000),
});

// ---- macros
export const macroSchema = z.object({
  name: required(120),
  message: z
    .union([z.string().trim().max(4000, "validation.maxLength::4000"), z.null()])
    .optional()
    .transform((v) => v || null),
  /** Comma-separated on the form, an array in the API. */
  tags: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => [...new Set((Array.isArray(v) ? v : (v ?? "").split(",")).map((t) => t.trim()).filter(Boolean))])
    .pipe(z.array(z.string().max(40, "validation.maxLength::40")).max(20, "validation.max::20")),
  tabulation_id: optionalId,
  close: flag,
});

// ---- holidays and opening hours (São Paulo local dates and times)
export const holidaySchema = z.object({
  name: required(120),
  day: z
    .string({ message: "validation.required" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.date")
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "validation.date"),
});
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$|^24:00(:00)?$/;
const time = z
  .string({ message: "validation.required" })
  .trim()
  .regex(TIME, "live.hours.timeFormat")
  .transform((t) => t.slice(0, 5));
export const openingHourSchema = z
  .object({
    /** One weekday, or several (checkboxes on the form post the field once per box). */
    weekdays: z
      .union([z.coerce.number(), z.string(), z.array(z.union([z.string(), z.number()]))])
      .optional()
      .transform((v) => [...new Set((Array.isArray(v) ? v : v === undefined || v === "" ? [] : [v]).map(Number))].sort())
      .pipe(z.array(z.number().int().min(0, "validation.option").max(6, "validation.option")).min(1, "live.hours.weekdaysRequired")),
    opens: time,
    closes: time,
    department_id: optionalId,
  })
  .superRefine((v, ctx) => {
    if (v.closes <= v.opens) ctx.addIssue({ code: "custom", path: ["closes"], message: "live.hours.closesAfterOpens" });
  });

export const systemSettingsSchema = z.object({
  queued_enabled: flag,
  acceptance_option: z.enum(ACCEPTANCE_OPTIONS, { message: "validation.option" }),
  default_capacity: int(1, 100),
  tabulation_required: flag,
  idle_minutes: int(1, 1440),
});
export const agentSettingsSchema = z.object({
  /** Blank = the account's default capacity. */
  capacity: z
    .union([z.literal(""), z.null(), int(1, 100)])
    .optional()
    .transform((v) => (v === "" || v === null || v === undefined ? null : v)),
  department_ids: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => [...new Set((Array.isArray(v) ? v : v ? [v] : []).filter(Boolean))]),
});

export type WidgetColorPart = (typeof WIDGET_COLOR_PARTS)[number];
const color = z
  .string({ message: "validation.required" })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "validation.color")
  .transform((c) => c.toLowerCase());
const pair = z.object({ bg: color, text: color });
export const widgetSettingsSchema = z.object({
  title_online: required(60),
  title_offline: required(60),
  welcome: z.string().trim().max(WIDGET_TEXT_MAX, `live.widget.errors.welcomeLength::${WIDGET_TEXT_MAX}`).default(""),
  offline_message: z.string().trim().max(WIDGET_TEXT_MAX, `live.widget.errors.offlineLength::${WIDGET_TEXT_MAX}`).default(""),
  position: z.enum(WIDGET_POSITIONS, { message: "validation.option" }),
  highlight_color: color,
  enabled: flag,
  attachments: flag,
  emoji: flag,
  colors: z.object(Object.fromEntries(WIDGET_COLOR_PARTS.map((p) => [p, pair])) as Record<WidgetColorPart, typeof pair>),
});
export type WidgetSettings = z.infer<typeof widgetSettingsSchema>;

export const DEFAULT_WIDGET: WidgetSettings = {
  title_online: "Fale conosco",
  title_offline: "Deixe sua mensagem",
  welcome: "",
  offline_message: "",
  position: "right",
  highlight_color: "#2563eb",
  enabled: true,
  attachments: true,
  emoji: true,
  colors: {
    header: { bg: "#2563eb", text: "#ffffff" },
    launcher: { bg: "#2563eb", text: "#ffffff" },
    messageList: { bg: "#ffffff", text: "#111827" },
    sentMessage: { bg: "#2563eb", text: "#ffffff" },
    receivedMessage: { bg: "#f3f4f6", text: "#111827" },
    userInput: { bg: "#ffffff", text: "#111827" },
    userList: { bg: "#ffffff", text: "#111827" },
  },
};

export type MuteOption = (typeof MUTE_OPTIONS)[number];
/** The spec's names (8_hours, 1_week, 1_month) are accepted too. */
const MUTE_ALIASES: Record<string, MuteOption> = { "8_hours": "8h", "1_week": "1w", "1_month": "1m" };
export const preferencesSchema = z.object({
  mute: z
    .string({ message: "validation.required" })
    .transform((v) => MUTE_ALIASES[v] ?? v)
    .pipe(z.enum(MUTE_OPTIONS, { message: "validation.option" })),
  volume: z.coerce.number({ message: "validation.number" }).min(0, "validation.min::0").max(1, "validation.max::1"),
});
