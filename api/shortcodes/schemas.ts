/** What an account may change on its short code: the nickname. No model imports (browser bundle). */
import { z } from "../lib/zod";

export const shortCodeSchema = z.object({
  nickname: z.string().trim().max(40, "validation.maxLength::40").default(""),
});
