import { pageInput } from "../lib/page";
import { idParam } from "../lib/validate";
import { z } from "../lib/zod";

/** The API's ?cursor= and ?limit= (and the deprecated ?before=, the last id seen); a bad value is a 422 naming it. */
export const listQuerySchema = z.object({ before: idParam(), ...pageInput });

/** The screen's query string (a bad value falls back to the first page): keyset cursor (`before` = last id seen) and the all/unread filter. */
export const notificationsQuerySchema = z.object({
  before: idParam().catch(undefined),
  filter: z.enum(["all", "unread"]).catch("all"),
});

/** Mark one notification read (`intent=read`, `id`) or all of them (`intent=read-all`). */
export const markReadFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id: z.coerce.number({ message: "validation.invalid" }).int().positive("validation.invalid") }),
  z.object({ intent: z.literal("read-all") }),
]);
