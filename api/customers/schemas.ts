/**
 * What the staff and a reseller send to create, edit and attach people to a customer, and to
 * assign it short codes (issue 23, ADR 063). No model imports: the same rules validate in the
 * browser (conform), the screens' actions and the use-cases. Messages are locale keys.
 */
import { email, isEmail } from "../lib/fields";
import { z } from "../lib/zod";

export { ATTACH_ROLES, CARRIERS, CORPORATE_NAME_MAX, MONTHLY_PRICE_MAX, NAME_MAX } from "./constants";
import { CORPORATE_NAME_MAX, MONTHLY_PRICE_MAX, NAME_MAX, CARRIERS, ATTACH_ROLES } from "./constants";

const name = z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(NAME_MAX, `validation.maxLength::${NAME_MAX}`);
const corporateName = z
  .string()
  .trim()
  .max(CORPORATE_NAME_MAX, `validation.maxLength::${CORPORATE_NAME_MAX}`)
  .nullish()
  .transform((v) => v ?? "");
/** The billing e-mail: optional (blank clears it); when given, the one e-mail rule, lower-cased. */
const billingEmail = z
  .string()
  .trim()
  .max(254, "validation.maxLength::254")
  .nullish()
  .transform((v) => (v ?? "").toLowerCase())
  .refine((v) => v === "" || isEmail(v), "validation.email");

export const createCustomerSchema = z.object({
  name,
  corporate_name: corporateName,
  billing_email: billingEmail,
  currency: z
    .string({ error: "validation.required" })
    .trim()
    .regex(/^[A-Z]{3}$/, "validation.option"),
  /** Only the platform's staff creates resellers; a reseller's new accounts are customers. */
  type: z.enum(["customer", "reseller"], { error: "validation.option" }).default("customer"),
});
export type CreateCustomerInput = z.infer<typeof createCustomerSchema>;

export const updateCustomerSchema = z.object({
  name: name.optional(),
  corporate_name: corporateName.optional(),
  billing_email: billingEmail.optional(),
  /** active or suspended: a suspended customer signs in to nothing and sends nothing until activated again. */
  status: z.enum(["active", "suspended"], { error: "validation.option" }).optional(),
});
export type UpdateCustomerInput = z.infer<typeof updateCustomerSchema>;

export const attachSchema = z.object({
  email,
  role: z.enum(ATTACH_ROLES, { error: "validation.option" }),
});

const nickname = z
  .string()
  .trim()
  .max(40, "validation.maxLength::40")
  .nullish()
  .transform((v) => v ?? "");
/** Carriers by name (each once); anything else refuses the whole field (one error on `deliverability`). */
const deliverability = z
  .array(z.string(), { error: "validation.option" })
  .refine((v) => v.every((c) => (CARRIERS as readonly string[]).includes(c)), "validation.option")
  .transform((v) => [...new Set(v)]);
const monthlyPrice = z
  .number({ error: "validation.required" })
  .int("validation.integer")
  .min(0, "validation.min::0")
  .max(MONTHLY_PRICE_MAX, `validation.max::${MONTHLY_PRICE_MAX}`);

export const createShortCodeSchema = z.object({
  number: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .regex(/^[0-9]{4,8}$/, "customers.errors.shortCodeNumber"),
  nickname,
  deliverability: deliverability.default([]),
  status: z.enum(["active", "inactive"], { error: "validation.option" }).default("active"),
  monthly_price: monthlyPrice,
});
export type CreateShortCodeInput = z.infer<typeof createShortCodeSchema>;

/** An edit: anything but the number (another number is another short code). */
export const updateShortCodeSchema = z.object({
  nickname: nickname.optional(),
  deliverability: deliverability.optional(),
  status: z.enum(["active", "inactive"], { error: "validation.option" }).optional(),
  monthly_price: monthlyPrice.optional(),
});

/** A WhatsApp number of a customer: what the platform charges for it each month. */
export const updateNumberSchema = z.object({ monthly_price: monthlyPrice });
