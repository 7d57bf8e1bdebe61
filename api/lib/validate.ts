import { z } from "./zod";
import { AppError, type FieldErrors } from "./errors";

/** A schema's own message is a locale key ("validation.required", "channels.errors.keyField::token_uri"); zod's English texts have spaces. */
const LOCALE_KEY = /^[a-z][A-Za-z]*\.[\w.]+(::\S*)?$/;

/**
 * Parse input with its schema; failure is one AppError("VALIDATION") whose field errors are
 * locale keys ("validation.required", "validation.minLength::13"); anything else reads "validation.invalid".
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const name = issue.path.join(".") || "form";
    (fields[name] ??= []).push(LOCALE_KEY.test(issue.message) ? issue.message : "validation.invalid");
  }
  throw new AppError("VALIDATION", { fields });
}

/** Pages stop here: past it no list has rows, and (max - 1) × a page size still fits in SQL. */
export const MAX_PAGE = 100_000;

/**
 * One integer query parameter (page, limit, a keyset id) as every list parses it: absent or blank
 * is `fallback`; anything but plain decimal digits is "validation.integer" (so "abc", "1e309",
 * "0x10" and "1.5" never reach SQL as NaN or Infinity); outside [min, max] is "validation.min::min"
 * or "validation.max::max" (so a 20-digit page is refused instead of overflowing the OFFSET).
 */
export function intParam<F extends number | undefined>(min: number, max: number, fallback: F) {
  return z
    .union([z.string(), z.number(), z.null()])
    .optional()
    .transform((v, ctx): number | F => {
      if (v === undefined || v === null || v === "") return fallback;
      const s = typeof v === "number" ? String(v) : v.trim();
      if (!/^-?\d+$/.test(s)) {
        ctx.addIssue({ code: "custom", message: "validation.integer" });
        return z.NEVER;
      }
      const n = Number(s);
      if (n < min) ctx.addIssue({ code: "custom", message: `validation.min::${min}` });
      else if (n > max) ctx.addIssue({ code: "custom", message: `validation.max::${max}` });
      return n;
    });
}

/** `?page=`: 1-based, at most MAX_PAGE, 1 when absent. */
export const pageParam = () => intParam(1, MAX_PAGE, 1);

/** A keyset cursor that is a row id (`?before=`): optional, positive, exact in a JS number. */
export const idParam = () => intParam(1, Number.MAX_SAFE_INTEGER, undefined);
