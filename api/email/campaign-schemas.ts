/**
 * The e-mail campaign's input (POST /api/email/campaigns and the /mail/send group and file modes):
 * the content fields of a single send (./schemas.ts) and exactly one source of recipients — `to`
 * (a list), `group_id` (a contact group's contacts with an e-mail) or a CSV file (multipart, staged
 * by ./recipients-file.ts). No server module here: the browser bundle imports it.
 */
import { z } from "../lib/zod";
import { address, contentOrTemplate, fromName, html, subject, templateId, text, toListField, variableLines } from "./schemas";
import { SEND_MODES } from "./constants";
export { SEND_MODES } from "./constants";

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
    /** Absent: the account's default sender address (/settings/resources, ADR 071). */
    from: address.optional(),
    from_name: fromName,
    reply_to: address.optional(),
    subject: subject.optional(),
    html,
    text,
    /** A template instead of subject and content: its {{variables}} are filled per recipient from the contact (or the file's columns). */
    template_id: templateId,
    to: z.array(address).min(1, "validation.required").max(MAX_CAMPAIGN_LIST, `validation.maxItems::${MAX_CAMPAIGN_LIST}`).optional(),
    group_id: groupId.optional(),
    scheduled_at: z.coerce.date("validation.date").optional(),
  })
  .superRefine(contentOrTemplate);
export type EmailCampaignInput = z.infer<typeof emailCampaignSchema>;

export type SendMode = (typeof SEND_MODES)[number];

/**
 * The /mail/send form in every mode (the file itself is read by the action's upload handler):
 * `to` is checked only in list mode (each bad address named), `group_id` required in group mode.
 */
export const mailSendFormSchema = z
  .object({
    mode: z.enum(SEND_MODES, { message: "validation.option" }).default("list"),
    name,
    from: address,
    from_name: fromName,
    to: z.string().optional(),
    group_id: z.string().trim().optional(),
    subject: subject.optional(),
    html,
    text,
    template_id: templateId,
    /** A template's variables as `name=value` lines (one message per address typed; a campaign fills them from each contact). */
    variables: variableLines,
    scheduled_at: z.string().trim().optional(),
  })
  .superRefine(contentOrTemplate)
  .superRefine((v, ctx) => {
    if (v.mode === "list") {
      const checked = toListField.safeParse(v.to ?? "");
      if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: "custom", path: ["to"], message: issue.message });
    }
    if (v.mode === "group" && !v.group_id) ctx.addIssue({ code: "custom", path: ["group_id"], message: "validation.required" });
  });
