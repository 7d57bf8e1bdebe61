/** What the staff's product forms post (/admin/customers/{id}/products/*): the action checks it, and the browser with the same schema once loaded (ADR 052). */
import { z } from "~api/lib/zod";
import { reais } from "./money";

const required = z.string({ error: "validation.required" }).trim().min(1, "validation.required");
/** What the form posts; the use-case's schema (api/products/schemas.ts) decides the rest (options, lengths, credits for a credits product). */
export const hireProductSchema = z.object({
  channel: required,
  name: required,
  billing_cycle: required,
  currency: required,
  kind: required,
  credits: z.string().trim().optional(),
  price: reais,
});

export const editProductSchema = z.object({
  intent: z.literal("save"),
  name: z.string({ error: "validation.required" }).trim().min(1, "validation.required"),
  credits: z.string().trim().optional(),
  price: reais,
});
export const cancelProductSchema = z.object({ intent: z.literal("cancel") });
