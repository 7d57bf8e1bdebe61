import type { z } from "zod";
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
