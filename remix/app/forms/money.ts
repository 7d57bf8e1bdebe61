/**
 * Money as people type it in a form: reais ("50", "50,00", "1.234,56", "R$ 50.5") to integer
 * minor units (centavos); anything else is `validation.number`. Shared by the forms that take an
 * amount (the top-up, a product's price); the browser loads it with the form's schema (ADR 052).
 */
import { z } from "~api/lib/zod";

export const reais = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, "validation.required")
  .transform((v, ctx) => {
    const text = v.replace(/^R\$\s*/i, "").replace(/\s/g, "");
    const normal = text.includes(",") ? text.replace(/\./g, "").replace(",", ".") : text;
    if (!/^\d{1,9}(\.\d{1,2})?$/.test(normal)) {
      ctx.addIssue({ code: "custom", message: "validation.number" });
      return z.NEVER;
    }
    return Math.round(Number(normal) * 100);
  });
