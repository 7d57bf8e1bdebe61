import { z } from "../lib/zod";

/** The list's query string: keyset cursor (`before` = last id seen) and the all/unread filter. */
export const notificationsQuerySchema = z.object({
  before: z.coerce.number().int().positive().optional().catch(undefined),
  filter: z.enum(["all", "unread"]).catch("all"),
});

/** Mark one notification read (`intent=read`, `id`) or all of them (`intent=read-all`). */
export const markReadFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id: z.coerce.number({ message: "validation.invalid" }).int().positive("validation.invalid") }),
  z.object({ intent: z.literal("read-all") }),
]);
