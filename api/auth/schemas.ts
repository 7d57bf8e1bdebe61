import { z } from "../lib/zod";
import { email, requiredText as name } from "../lib/fields";
import { LOCALES } from "../../models/constants";
import { SPECIALS } from "./constants";
export { SPECIALS } from "./constants";

const COMMON = ["password", "senha", "qwerty", "asdf", "zxcv", "letmein", "welcome", "admin", "iloveyou", "mudar", "abc123", "dragon", "monkey", "master", "brasil", "mensageria"];

/** True when the password holds a run of 4 ascending, descending or repeated characters. */
export function hasSequence(value: string, run = 4): boolean {
  const s = value.toLowerCase();
  for (let i = 0; i + run <= s.length; i++) {
    let up = true,
      down = true,
      same = true;
    for (let j = 1; j < run; j++) {
      const d = s.charCodeAt(i + j) - s.charCodeAt(i + j - 1);
      up &&= d === 1;
      down &&= d === -1;
      same &&= d === 0;
    }
    if (up || down || same) return true;
  }
  return false;
}

export function isCommonPassword(value: string): boolean {
  const s = value.toLowerCase();
  return COMMON.some((w) => s.includes(w));
}

export function passwordRule(min: number) {
  return z
    .string()
    .min(1, "validation.required")
    .min(min, `validation.minLength::${min}`)
    .max(128, "validation.maxLength::128")
    .refine((v) => /[a-z]/.test(v), "validation.password.lower")
    .refine((v) => /[A-Z]/.test(v), "validation.password.upper")
    .refine((v) => /\d/.test(v), "validation.password.digit")
    .refine((v) => [...SPECIALS].some((c) => v.includes(c)), "validation.password.special")
    .refine((v) => !hasSequence(v) && !isCommonPassword(v), "validation.password.pattern");
}
export const password = passwordRule(13);

const locale = z.enum(LOCALES).default("pt-BR");

export const registerSchema = z
  .object({
    firstName: name(80),
    lastName: name(80),
    email,
    password,
    confirmPassword: z.string().min(1, "validation.required"),
    companyName: name(120),
    mobile: z.string().trim().max(20, "validation.maxLength::20").optional(),
    locale,
    acceptTerms: z.literal(true, { message: "validation.acceptTerms" }).or(z.literal("on").transform(() => true as const)),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "validation.password.mismatch" });
export type RegisterInput = z.input<typeof registerSchema>;

export const loginSchema = z.object({
  email,
  password: z.string().min(1, "validation.required").max(128, "validation.maxLength::128"),
});

export const emailOnlySchema = z.object({ email });

export const resetPasswordSchema = z
  .object({ token: z.string().min(1, "validation.required"), password, confirmPassword: z.string().min(1, "validation.required") })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "validation.password.mismatch" });

export const totpCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "validation.totp"),
});

export const acceptInvitationSchema = z
  .object({
    token: z.string().min(1, "validation.required"),
    firstName: name(80),
    lastName: name(80),
    password,
    confirmPassword: z.string().min(1, "validation.required"),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "validation.password.mismatch" });

export const changePasswordSchema = z
  .object({ currentPassword: z.string().min(1, "validation.required"), password, confirmPassword: z.string().min(1, "validation.required") })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "validation.password.mismatch" });
