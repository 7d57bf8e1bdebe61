/**
 * What the catalogue's product form posts (/catalog/list/new, /catalog/list/{id}): the use-case's
 * own field rules (api/catalog/schemas.ts) with the money typed in reais ("1.234,56") instead of
 * minor units; the action checks it, and the browser with the same schema once loaded (ADR 052).
 */
import { productFields } from "~api/catalog/schemas";
import { z } from "~api/lib/zod";
import { reais } from "./money";

const optionalReais = z
  .union([z.literal(""), reais])
  .optional()
  .transform((v) => (typeof v === "number" ? v : 0));

export const productFormSchema = z
  .object({
    intent: z.literal("save"),
    ...productFields,
    price: reais,
    discount: optionalReais,
  })
  .superRefine((p, ctx) => {
    if (p.discount > p.price) ctx.addIssue({ code: "custom", path: ["discount"], message: "catalog.errors.discountAbovePrice" });
  });
export type ProductForm = z.infer<typeof productFormSchema>;

/** The use-case's input from the form's values. */
export function productInput(v: ProductForm) {
  const { intent: _intent, price, discount, ...rest } = v;
  return { ...rest, price_cents: price, discount_cents: discount };
}
