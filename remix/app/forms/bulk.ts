/** A list screen's bulk form: `intent=bulk` and the checked ids (one or many `ids` fields); none checked is `none` (a locale key). */
import { z } from "~api/lib/zod";

export const bulkIdsSchema = (none: string) =>
  z.object({
    intent: z.literal("bulk"),
    ids: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .transform((v, ctx) => {
        const ids = (Array.isArray(v) ? v : v ? [v] : []).filter(Boolean);
        if (ids.length === 0) ctx.addIssue({ code: "custom", message: none });
        return ids;
      }),
  });
