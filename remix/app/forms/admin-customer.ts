/** What /admin/customers/{id} posts: the action checks it, and the browser with the same schema once loaded (ADR 052). */
import { z } from "~api/lib/zod";

/** Reais as people write them, with a sign ("50", "50,00", "-12,34", "R$ 1.234,56", "-50.5") to centavos; anything else is not a number. */
const signedReais = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, "validation.required")
  .transform((v, ctx) => {
    let text = v.replace(/\s/g, "").replace(/^R\$/i, "");
    const sign = text.startsWith("-") ? -1 : 1;
    text = text.replace(/^[-+]/, "").replace(/^R\$/i, "");
    const normal = text.includes(",") ? text.replace(/\./g, "").replace(",", ".") : text;
    if (!/^\d{1,9}(\.\d{1,2})?$/.test(normal)) {
      ctx.addIssue({ code: "custom", message: "validation.number" });
      return z.NEVER;
    }
    return sign * Math.round(Number(normal) * 100);
  });
/** The balance adjustment form on /admin/customers/{id}. */
export const adjustBalanceSchema = z.object({
  amount: signedReais,
  reason: z.string({ error: "validation.required" }).trim().min(3, "validation.minLength::3").max(500, "validation.maxLength::500"),
  key: z.string().max(100).optional(),
});
