import { pageInput } from "../lib/page";
import { pageParam } from "../lib/validate";
import { z } from "../lib/zod";
import { email, flag, text } from "../lib/fields";
import { GENDERS, INVITE_ROLES, LOCALES, ROLES } from "../../models/constants";

export const inviteSchema = z.object({
  email,
  role: z.enum(INVITE_ROLES, { message: "validation.required" }),
});

export const updateUserSchema = z.object({
  firstName: z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(80, "validation.maxLength::80"),
  lastName: z.string().trim().max(80, "validation.maxLength::80").default(""),
  mobile: text(20).refine((v) => v === null || /^\+?\d{10,15}$/.test(v.replace(/[\s()-]/g, "")), "validation.phone"),
  role: z.enum(ROLES, { message: "validation.required" }).optional(),
  isAgent: flag,
  /** Empty or null: no department. Only applied when the account uses departments (omni plan). */
  departmentId: z
    .string()
    .uuid("validation.invalid")
    .nullish()
    .or(z.literal("").transform(() => null)),
});

export const profileSchema = z.object({
  firstName: z.string().trim().min(1, "validation.required").max(80, "validation.maxLength::80"),
  lastName: z.string().trim().max(80, "validation.maxLength::80").default(""),
  mobile: text(20).refine((v) => v === null || /^\+?\d{10,15}$/.test(v.replace(/[\s()-]/g, "")), "validation.phone"),
  gender: z
    .enum(GENDERS)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  birthDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.date")
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

export const localeSchema = z.object({ locale: z.enum(LOCALES, { message: "validation.required" }) });

export const listQuerySchema = z.object({
  page: pageParam(),
  q: z.string().trim().max(100).optional(),
  ...pageInput,
});

/** Turning the second factor off asks for the current password. */
export const disableTotpSchema = z.object({ currentPassword: z.string().min(1, "validation.required").max(128, "validation.maxLength::128") });
