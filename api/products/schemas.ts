/**
 * Products per customer (ADR 048): what staff send to hire or edit one. No model imports, so the
 * same rules validate in the browser (conform), the action and the use-case. Messages are locale
 * keys.
 */
import { z } from "../lib/zod";
import { CHANNELS, CYCLES, CURRENCIES, KINDS } from "./constants";
export { CHANNELS, CYCLES, CURRENCIES, KINDS } from "./constants";

export const NAME_MAX = 100;
/** Most credits a product gives per period. */
export const CREDITS_MAX = 10_000_000;
/** The highest price, in minor units: 100.000,00. */
export const PRICE_MAX = 10_000_000;

const option = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: "validation.option" });
const credits = z.number({ error: "validation.integer" }).int("validation.integer").min(1, "validation.min::1").max(CREDITS_MAX, `validation.max::${CREDITS_MAX}`);
const price = z.number({ error: "validation.required" }).int("validation.integer").min(0, "validation.min::0").max(PRICE_MAX, `validation.max::${PRICE_MAX}`);
const name = z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(NAME_MAX, `validation.maxLength::${NAME_MAX}`);

export const createProductSchema = z
  .object({
    channel: option(CHANNELS),
    name,
    billing_cycle: option(CYCLES),
    currency: option(CURRENCIES),
    kind: option(KINDS),
    credits: credits.nullish(),
    price,
  })
  .superRefine((p, ctx) => {
    if (p.kind === "credits" && (p.credits === undefined || p.credits === null)) ctx.addIssue({ code: "custom", path: ["credits"], message: "products.errors.creditsRequired" });
  });
export type CreateProductInput = z.infer<typeof createProductSchema>;

export const updateProductSchema = z.object({ name: name.optional(), credits: credits.optional(), price: price.optional() });
export type UpdateProductInput = z.infer<typeof updateProductSchema>;
