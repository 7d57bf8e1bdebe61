import { z } from "../lib/zod";

/**
 * Starting an import: the mapping (CSV header -> contact field, "name", "custom:<key>" or "" to
 * ignore), and optionally the group the contacts join: an existing one or a new name.
 */
export const startImportSchema = z.object({
  mapping: z.record(z.string().max(300), z.string().max(60)),
  groupId: z
    .union([z.uuid("validation.invalid"), z.literal(""), z.null()])
    .optional()
    .transform((v) => v || null),
  newGroupName: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const s = (v ?? "").trim();
      if (s.length > 80) ctx.addIssue({ code: "custom", message: "validation.maxLength::80" });
      return s || null;
    }),
});
export type StartImportInput = z.output<typeof startImportSchema>;
