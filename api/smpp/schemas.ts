/**
 * Inputs of SMPP users (the credentials an account gives its systems for our SMPP server).
 * SMPP 3.4 limits: system_id up to 15 characters, password up to 8. Messages are locale keys;
 * no model imports (the /sms/smpp forms use these too).
 */
import { SMS_ROUTES } from "../sms/schemas";
import { z } from "../lib/zod";
import { flag, flagOr } from "../lib/fields";
import { MAX_TPS } from "./constants";
export { MAX_TPS } from "./constants";

const tps = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = typeof v === "number" ? v : Number(String(v).trim());
  if (String(v).trim() === "") {
    ctx.addIssue({ code: "custom", message: "validation.required" });
    return z.NEVER;
  }
  if (!Number.isInteger(n)) {
    ctx.addIssue({ code: "custom", message: "validation.integer" });
    return z.NEVER;
  }
  if (n < 1) ctx.addIssue({ code: "custom", message: "validation.min::1" });
  else if (n > MAX_TPS) ctx.addIssue({ code: "custom", message: `validation.max::${MAX_TPS}` });
  return n;
});

const route = z.enum(SMS_ROUTES, "validation.option");

export const createSmppUserSchema = z.object({
  system_id: z
    .string()
    .trim()
    .min(1, "validation.required")
    .min(3, "validation.minLength::3")
    .max(15, "validation.maxLength::15")
    .regex(/^[A-Za-z0-9_.-]+$/, "validation.invalid"),
  route: z
    .union([route, z.literal(""), z.null()])
    .optional()
    .transform((v) => v || "T1"),
  tps: tps.optional().transform((v) => v ?? 10),
  enabled: flagOr(true),
});
export type CreateSmppUserInput = z.infer<typeof createSmppUserSchema>;

/** The edit form: route, tps, enabled (an unchecked box posts nothing: disabled), and optionally a new password. */
export const updateSmppUserSchema = z.object({
  route,
  tps,
  enabled: flag,
  reset_password: flag,
});
export type UpdateSmppUserInput = z.infer<typeof updateSmppUserSchema>;

export const bulkDeleteSchema = z.object({
  ids: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(
      z
        .array(z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "validation.invalid"))
        .min(1, "validation.required")
        .max(500, "validation.max::500"),
    ),
});
