import { pageInput } from "../lib/page";
import { z } from "../lib/zod";
import { text } from "../lib/fields";

export const accountSchema = z.object({
  name: z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(120, "validation.maxLength::120"),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, "validation.required")
    .default("BRL"),
  street: text(200),
  number: text(20),
  complement: text(100),
  district: text(100),
  city: text(100),
  province: text(50),
  postalCode: text(20).refine((v) => v === null || /^\d{5}-?\d{3}$|^[A-Za-z0-9 -]{3,10}$/.test(v), "validation.postalCode"),
});

/** GET /accounts: a keyset page. */
export const accountPageSchema = z.object({ ...pageInput });
