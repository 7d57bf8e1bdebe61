/** What /admin/customers/* post: the action checks it, and the browser with the same schema once loaded (ADR 052). */
import { attachSchema, CARRIERS, createCustomerSchema, updateCustomerSchema } from "~api/customers/schemas";
import { z } from "~api/lib/zod";
import { reais } from "./money";

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

// ——— Administration of customers (issue 23, ADR 063) ———
// (api/customers/schemas.ts has the rules; these are what the screens post, in reais where money.)

/** /admin/customers/create. */
export const createCustomerFormSchema = createCustomerSchema.extend({ key: z.string().max(100).optional() });

/** /admin/customers/{id}: the edit form (intent=save). */
export const editCustomerFormSchema = z.object({
  intent: z.literal("save"),
  name: updateCustomerSchema.shape.name.unwrap(),
  corporate_name: updateCustomerSchema.shape.corporate_name,
  billing_email: updateCustomerSchema.shape.billing_email,
});
/** Suspend, activate and delete are one button each (intent only). */
export const customerIntentSchema = z.object({ intent: z.enum(["suspend", "activate", "delete"]) });
/** The attach-a-person form (intent=attach). */
export const attachFormSchema = attachSchema.extend({ intent: z.literal("attach") });

const carriers = z
  .array(z.string())
  .refine((v) => v.every((c) => (CARRIERS as readonly string[]).includes(c)), "validation.option")
  .default([]);
/** /admin/customers/{id}/short-codes/create. */
export const shortCodeFormSchema = z.object({
  number: z
    .string({ error: "validation.required" })
    .trim()
    .regex(/^[0-9]{4,8}$/, "customers.errors.shortCodeNumber"),
  nickname: z.string().trim().max(40, "validation.maxLength::40").optional(),
  deliverability: carriers,
  status: z.enum(["active", "inactive"], { error: "validation.option" }),
  monthly_price: reais,
});
/** /admin/customers/{id}/short-codes/{shortCodeId}: the edit form (intent=save); delete is intent=delete. */
export const editShortCodeFormSchema = shortCodeFormSchema.omit({ number: true }).extend({ intent: z.literal("save") });
export const deleteShortCodeFormSchema = z.object({ intent: z.literal("delete") });
/** /admin/customers/{id}/numbers/{numberId}: the monthly price. */
export const numberFormSchema = z.object({ monthly_price: reais });
