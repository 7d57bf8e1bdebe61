/**
 * zod as every schema uses it: a missing value (a blank form field arrives as undefined) reads
 * "validation.required" instead of zod's English text; other untranslated issues fall back to
 * zod's own message and are shown as "validation.invalid" by the UI and the API.
 */
import { z } from "zod";

z.config({
  customError: (issue) => (issue.input === undefined || (issue.input === null && issue.code === "invalid_type") ? "validation.required" : undefined),
});

export { z };
