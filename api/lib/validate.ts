import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors";

/**
 * Parse input with its schema; failure is one AppError("VALIDATION") whose field errors are
 * locale keys ("validation.required", "validation.minLength::13").
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const name = issue.path.join(".") || "form";
    (fields[name] ??= []).push(issue.message.startsWith("validation.") ? issue.message : "validation.invalid");
  }
  throw new AppError("VALIDATION", { fields });
}
