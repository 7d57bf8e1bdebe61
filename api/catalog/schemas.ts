/**
 * Catalogue products (issue 22; spec sections 3, 5 and 9): what a person sends to create or edit
 * one. No model imports, so the same rules validate in the browser (the form's lazy schema), the
 * action and the use-case. Messages are locale keys. Money is integer minor units of the account's
 * currency (`price_cents`, `discount_cents`); the web form types reais and converts
 * (remix/app/forms/catalog-product.ts).
 */
import { intParam } from "../lib/validate";
import { z } from "../lib/zod";
import { LIMITS, PUBLISH_CHANNELS, WARRANTIES } from "./constants";
export { IMAGE_MAX_BYTES, IMAGE_SIDE, IMAGES_PER_PRODUCT, LIMITS, PUBLISH_CHANNELS, THUMB_SIDE, WARRANTIES } from "./constants";

/** Characters as people count them (and PostgreSQL's length()): code points, not UTF-16 units. */
const chars = (s: string) => Array.from(s).length;

const text = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((s) => (s ?? "").trim())
    .refine((s) => chars(s) <= max, `validation.maxLength::${max}`);

const name = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, "validation.required")
  .refine((s) => chars(s) <= LIMITS.name, `validation.maxLength::${LIMITS.name}`);

const barcode = text(LIMITS.barcode).refine((s) => /^\d*$/.test(s), "catalog.errors.barcode");

const url = text(LIMITS.url).refine((v) => {
  if (!v) return true;
  try {
    const u = new URL(v);
    return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password;
  } catch {
    return false;
  }
}, "validation.httpUrl");

const warranty = z.preprocess((w) => (w === "" || w === null || w === undefined ? "none" : w), z.enum(WARRANTIES, { error: "validation.option" }));

/** A list of channels, or one channel as a form posts a single checkbox, or none. */
const channels = z.preprocess(
  (c) => (c === undefined || c === null || c === "" ? [] : Array.isArray(c) ? c : [c]),
  z.array(z.enum(PUBLISH_CHANNELS, { error: "validation.option" }), { error: "validation.option" }).transform((list) => [...new Set(list)].sort()),
);

export const productFields = {
  name,
  description: text(LIMITS.description),
  brand: text(LIMITS.brand),
  model: text(LIMITS.model),
  reference: text(LIMITS.reference),
  barcode,
  included_items: text(LIMITS.includedItems),
  additional_message: text(LIMITS.additionalMessage),
  warranty,
  weight_grams: intParam(0, LIMITS.weightGrams, undefined).transform((g) => g ?? null),
  url,
  published_channels: channels,
};

/** The discount is part of the price: never above it. */
function discountWithinPrice(p: { price_cents: number; discount_cents: number }, ctx: z.RefinementCtx) {
  if (p.discount_cents > p.price_cents) ctx.addIssue({ code: "custom", path: ["discount_cents"], message: "catalog.errors.discountAbovePrice" });
}

export const productSchema = z
  .object({
    ...productFields,
    price_cents: intParam(0, LIMITS.priceCents, 0),
    discount_cents: intParam(0, LIMITS.priceCents, 0),
  })
  .superRefine(discountWithinPrice);
export type ProductInput = z.infer<typeof productSchema>;

/** The search of the list (name, brand, reference or barcode, any case) and its page. */
export const listSchema = z.object({
  q: z.string().max(100, "validation.maxLength::100").optional(),
  published: z.union([z.enum(PUBLISH_CHANNELS, { error: "validation.option" }), z.literal("any"), z.literal("")]).optional(),
  cursor: z.string().max(1000).optional(),
  limit: intParam(1, 200, 50),
});

/** Bulk delete: the ids ticked (others' and unknown ones are ignored). */
export const bulkDeleteSchema = z.object({
  ids: z.array(z.string(), { error: "catalog.errors.noneTicked" }).min(1, "catalog.errors.noneTicked").max(500, "validation.maxItems::500"),
});
