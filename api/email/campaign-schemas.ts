/**
 * The e-mail campaign's input (POST /api/email/campaigns and the /mail/send group and file modes):
 * the content fields of a single send (./schemas.ts) and exactly one source of recipients — `to`
 * (a list), `group_id` (a contact group's contacts with an e-mail) or a CSV file (multipart, staged
 * by ./recipients-file.ts). No server module here: the browser bundle imports it.
 */
import { z } from "../lib/zod";
import { address, contentRequired, fromName, html, subject, text } from "./schemas";

/** Most addresses of one list (`to`); a group or a file has no limit but its own (MAX_FILE_ROWS). */
export const MAX_CAMPAIGN_LIST = 10_000;

const groupId = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "validation.option");
const name = z.string().trim().max(120, "validation.maxLength::120").optional();

export const emailCampaignSchema = z
  .object({
    name,
    from: address,
    from_name: fromName,
    reply_to: address.optional(),
    subject,
    html,
    text,
    to: z.array(address).min(1, "validation.required").max(MAX_CAMPAIGN_LIST, `validation.maxItems::${MAX_CAMPAIGN_LIST}`).optional(),
    group_id: groupId.optional(),
    scheduled_at: z.coerce.date("validation.date").optional(),
  })
  .superRefine(contentRequired);
export type EmailCampaignInput = z.infer<typeof emailCampaignSchema>;

/** The /mail/send form in group or file mode (the file itself is read by the action's upload handler). */
export const emailCampaignFormSchema = z
  .object({
    mode: z.enum(["group", "file"], { message: "validation.option" }),
    name,
    from: address,
    from_name: fromName,
    subject,
    html,
    text,
    group_id: groupId.optional(),
    scheduled_at: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : undefined)),
  })
  .superRefine(contentRequired)
  .superRefine((v, ctx) => {
    if (v.mode === "group" && !v.group_id) ctx.addIssue({ code: "custom", path: ["group_id"], message: "validation.required" });
  });
