/** Inputs of the moderation words/URLs and their approvals. Messages are locale keys; no model imports. */
import { pageInput } from "../lib/page";
import { z } from "../lib/zod";
import { text } from "../lib/fields";
import { normalizeDomain, normalizeWord } from "./match";

export const TERM_KINDS = ["word", "url"] as const;
export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;
export const MAX_NOTE = 500;

/** A word (folded: lowercase, no accents) or a URL domain, by kind. */
export const termValue = (kind: (typeof TERM_KINDS)[number]) =>
  z
    .string()
    .trim()
    .min(1, "validation.required")
    .max(255, "validation.maxLength::255")
    .transform((v, ctx) => {
      const n = kind === "word" ? normalizeWord(v) : normalizeDomain(v);
      if (!n) {
        ctx.addIssue({ code: "custom", message: kind === "word" ? "validation.invalid" : "validation.host" });
        return z.NEVER;
      }
      return n;
    });

export const termSchema = (kind: (typeof TERM_KINDS)[number]) => z.object({ value: termValue(kind), note: text(255, "") });

/** The account asks ahead to use a term (or adds its justification to an open request). */
export const approvalRequestSchema = (kind: (typeof TERM_KINDS)[number]) => z.object({ value: termValue(kind), note: text(MAX_NOTE, "") });
export const approvalNoteSchema = z.object({ note: text(MAX_NOTE, "") });

export const rejectSchema = z.object({
  reason: z.string().trim().min(1, "validation.required").max(MAX_NOTE, `validation.maxLength::${MAX_NOTE}`),
});

export const termsQuerySchema = z.object(pageInput);

export const approvalsQuerySchema = z.object({
  ...pageInput,
  status: z
    .union([z.enum(APPROVAL_STATUSES, "validation.option"), z.literal("")])
    .optional()
    .transform((v) => v || undefined),
});
