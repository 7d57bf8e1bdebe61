import { z } from "../lib/zod";

export const whitelabelSchema = z.object({
  name: z.string().trim().min(1, "validation.required").max(60, "validation.maxLength::60"),
  color: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, "validation.color")
    .transform((v) => v.toLowerCase()),
  host: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, "validation.required")
    .max(253, "validation.maxLength::253")
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, "validation.host"),
});
