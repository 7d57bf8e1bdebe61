/**
 * The e-mail channel's form schemas, shared by the API and the screens (so no server module here:
 * the browser bundle imports this file). The server's use-cases add what needs its settings (the
 * platform's own host names, ./domains.ts).
 */
import { z } from "../lib/zod";

/** A host name of two labels or more, the last one starting with a letter (no IP address), at most 253 characters. */
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A domain as typed (any case, a final dot, an @ before it, an internationalised name) in its ASCII form, or "" when it is not a name at all. */
export function asciiDomain(typed: string): string {
  const name = typed.trim().toLowerCase().replace(/^@/, "").replace(/\.$/, "");
  if (!name || /[\s/:?#@\\[\]]/.test(name)) return "";
  try {
    return new URL(`http://${name}`).hostname;
  } catch {
    return "";
  }
}

export const domainSchema = z.object({
  domain: z
    .string()
    .trim()
    .min(1, "validation.required")
    .max(253, "validation.maxLength::253")
    .transform(asciiDomain)
    .refine((d) => HOST.test(d), "validation.emailDomain"),
});
