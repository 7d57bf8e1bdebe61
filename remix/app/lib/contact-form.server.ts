import { parseWithZod } from "@conform-to/zod/v4";
import { contactSchema } from "~api/contacts/schemas";

/** The raw contact form (strings, nested custom.*, repeated group_ids) for the use-case, which validates it with the same schema. */
export function contactPayload(formData: FormData) {
  return parseWithZod(formData, { schema: contactSchema }).payload;
}
