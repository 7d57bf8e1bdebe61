/**
 * The chunk `useLazyValidate` downloads on a form's first field event (ADR 052): zod (interpreted,
 * no `new Function` under our CSP), conform's zod adapter, and the validator built from a schema.
 */
import "./zod-jitless";
import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

export type Validate = (formData: FormData) => Submission<unknown>;
/** A schema, or a function choosing it from the submitted data (a form whose buttons submit different things). */
export type SchemaSource = z.ZodType | ((formData: FormData) => z.ZodType);

export function validator(source: SchemaSource): Validate {
  return (formData) => parseWithZod(formData, { schema: typeof source === "function" ? source(formData) : source });
}
