/**
 * The forms of workflow boards (issue 22; spec sections 3, 4 and 5) as zod schemas, without the
 * database: boards, columns, deals (cards), tasks, comments, deal products, moves and report
 * filters. Messages are locale keys (`validation.*`, `pipelines.errors.*`); the screens validate
 * with the same schemas in the browser, so nothing here imports a model.
 */
import { requiredText } from "../lib/fields";
import { z } from "../lib/zod";

/** Spec section 5: a board holds at most 30 columns. */
export const MAX_COLUMNS = 30;
export const BOARD_NAME_MAX = 100;
export const COLUMN_NAME_MAX = 50;
/** Spec section 5: a card's lead name holds 25 characters, its description 200. */
export const LEAD_NAME_MAX = 25;
export const DESCRIPTION_MAX = 200;
export const TASK_TITLE_MAX = 100;
export const COMMENT_MAX = 1000;
export const QUANTITY_MAX = 100_000;
/** A deal's value or a line discount: at most 10^13 minor units (R$ 100 billion), exact in a JS number. */
export const CENTS_MAX = 10_000_000_000_000;

/** Spec section 4: low, normal/medium, high, urgent ("medium" is read as normal). */
export const PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export type Priority = (typeof PRIORITIES)[number];
export const OUTCOMES = ["sold", "lost"] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const DEAL_CHANNELS = ["sms", "whatsapp", "email", "rcs", "webchat", "telegram", "messenger", "instagram", "google_business", "phone", "other"] as const;
export type DealChannel = (typeof DEAL_CHANNELS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const blank = (v: unknown) => v === undefined || v === null || v === "";

/** A uuid field (an id picked on a form); a malformed one is "validation.invalid". */
const uuid = z.string().trim().regex(UUID, "validation.invalid");
/** An optional id: blank or absent is null. */
const optionalId = z.preprocess((v) => (blank(v) ? null : v), uuid.nullable());

/** A column name: required (its own message, spec section 8), at most 50 characters. */
export const columnName = z
  .string({ message: "pipelines.errors.columnNameRequired" })
  .trim()
  .min(1, "pipelines.errors.columnNameRequired")
  .max(COLUMN_NAME_MAX, `validation.maxLength::${COLUMN_NAME_MAX}`);

export const boardSchema = z.object({
  name: requiredText(BOARD_NAME_MAX),
  /** On create only: the first columns, in order (blank lines skipped). */
  columns: z
    .preprocess(
      (v) => (typeof v === "string" ? v.split(/\r?\n/) : v),
      z.array(z.string()).transform((list) => list.map((s) => s.trim()).filter(Boolean)),
    )
    .optional(),
});
export const renameSchema = z.object({ name: requiredText(BOARD_NAME_MAX) });
export const columnSchema = z.object({ name: columnName });
export const reorderSchema = z.object({
  column_ids: z.preprocess((v) => (typeof v === "string" ? v.split(",").filter(Boolean) : v), z.array(uuid).min(1, "validation.required")),
});
export const deleteColumnSchema = z.object({ move_cards_to: optionalId });

/** Money typed on a form ("1.234,56", "1234.56", "R$ 10") or sent as integer minor units. */
export const cents = z.preprocess(
  (v) => {
    if (blank(v)) return 0;
    if (typeof v === "number") return v;
    if (typeof v !== "string") return v;
    const s = v.replace(/[^\d.,-]/g, "");
    if (!/^\d+([.,]\d{1,2})?$/.test(s.replace(/\.(?=\d{3}(\D|$))/g, ""))) return Number.NaN;
    const normal = s.replace(/\.(?=\d{3}(\D|$))/g, "").replace(",", ".");
    return Math.round(Number(normal) * 100);
  },
  z.number({ message: "validation.number" }).int("validation.integer").min(0, "validation.min::0").max(CENTS_MAX, `validation.max::${CENTS_MAX}`),
);
/** Integer minor units as the API sends them (no decimal parsing). */
const centsInt = z.preprocess(
  (v) => (blank(v) ? 0 : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v),
  z.number({ message: "validation.integer" }).int("validation.integer").min(0, "validation.min::0").max(CENTS_MAX, `validation.max::${CENTS_MAX}`),
);

/** A date (YYYY-MM-DD), required (spec section 5: "priority and date required"). */
const dateOnly = z
  .string({ message: "validation.required" })
  .trim()
  .min(1, "validation.required")
  .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.date")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), "validation.date");
/** An instant: ISO 8601 with offset, or a form's `YYYY-MM-DDTHH:mm` read in America/Sao_Paulo (UTC-03:00, no DST since 2019). */
const instant = z
  .string({ message: "validation.required" })
  .trim()
  .min(1, "validation.required")
  .transform((v, ctx) => {
    const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v) ? `${v}${v.length === 16 ? ":00" : ""}-03:00` : v;
    const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T23:59:59-03:00`) : new Date(local);
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: "custom", message: "validation.date" });
      return z.NEVER;
    }
    return d;
  });
const priority = z.preprocess(
  (v) => (v === "medium" ? "normal" : blank(v) ? undefined : v),
  z.enum(PRIORITIES, { error: (iss) => (iss.input === undefined ? "validation.required" : "validation.option") }),
);

export const dealSchema = z.object({
  lead_name: requiredText(LEAD_NAME_MAX),
  description: requiredText(DESCRIPTION_MAX),
  owner_id: optionalId,
  due_date: dateOnly,
  channel: z.preprocess((v) => (blank(v) ? null : v), z.enum(DEAL_CHANNELS, { message: "validation.option" }).nullable()),
  value_cents: centsInt.optional(),
  /** A form's money field ("1.234,56"); wins over value_cents when given. */
  value: cents.optional(),
  priority,
  contact_id: optionalId,
  room_id: optionalId,
  column_id: optionalId,
});
export type DealInput = z.infer<typeof dealSchema>;
/** An update: every field optional (absent keeps the stored value); outcome null clears it. */
export const dealUpdateSchema = dealSchema
  .omit({ column_id: true })
  .partial()
  .extend({
    outcome: z.preprocess((v) => (v === "" || v === "open" ? null : v), z.enum(OUTCOMES, { message: "validation.option" }).nullable()).optional(),
  });

export const moveSchema = z
  .object({
    to_column_id: uuid,
    before_deal_id: optionalId.optional(),
    /** 0-based index in the target column (without the moved deal); instead of before_deal_id. */
    position: z.preprocess(
      (v) => (blank(v) ? undefined : typeof v === "string" ? Number(v) : v),
      z.number({ message: "validation.integer" }).int("validation.integer").min(0, "validation.min::0").optional(),
    ),
    expected_version: z.preprocess(
      (v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v),
      z.number({ message: "validation.required" }).int("validation.integer").min(1, "validation.min::1"),
    ),
  })
  .strip();

export const taskSchema = z.object({
  /** Spec section 5: "title and description required" (the task form), with priority and date. */
  title: requiredText(TASK_TITLE_MAX),
  description: requiredText(DESCRIPTION_MAX),
  priority,
  due_at: instant,
  owner_id: optionalId,
});
export const taskUpdateSchema = taskSchema.partial();
export const commentSchema = z.object({ body: requiredText(COMMENT_MAX) });

const quantity = z.preprocess(
  (v) => (blank(v) ? 1 : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v),
  z.number({ message: "validation.integer" }).int("validation.integer").min(1, "validation.min::1").max(QUANTITY_MAX, `validation.max::${QUANTITY_MAX}`),
);
export const dealProductSchema = z.object({ product_id: uuid, quantity, discount_cents: centsInt.optional(), discount: cents.optional() });
export const dealProductUpdateSchema = z.object({ quantity: quantity.optional(), discount_cents: centsInt.optional(), discount: cents.optional() });

export const reportSchema = z.object({
  board_id: optionalId,
  owner_id: optionalId,
  /** The period of won/lost (outcome date), Sao Paulo days; default the last 30 days. */
  from: z.preprocess((v) => (blank(v) ? undefined : v), dateOnly.optional()),
  to: z.preprocess((v) => (blank(v) ? undefined : v), dateOnly.optional()),
  /** Won/lost grouped by day, week or month. */
  group: z.preprocess((v) => (blank(v) ? "day" : v), z.enum(["day", "week", "month"], { message: "validation.invalid" })),
});
