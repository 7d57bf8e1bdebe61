/**
 * The flow screens' forms (issue 20): create (optionally from a ready flow), the builder's
 * settings, draft (JSON) and restore forms, and the list's bulk enable / inactivate. The same
 * schemas run in the browser (lazily, ADR 052) and in the routes' actions; the use-cases
 * (api/flows/flows.ts) check again with the API's schemas.
 */
import { z } from "~api/lib/zod";
import { FLOW_CHANNELS, FLOW_KEYWORD_MAX, FLOW_NAME_MAX, FLOW_TRIGGERS } from "~api/flows/constants";
import { FLOW_TEMPLATE_IDS } from "~api/flows/template-ids";

const option = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: "validation.option" });
const name = z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(FLOW_NAME_MAX, `validation.maxLength::${FLOW_NAME_MAX}`);
const keyword = z.string().trim().max(FLOW_KEYWORD_MAX, `validation.maxLength::${FLOW_KEYWORD_MAX}`).optional();

const settings = { name, channel: option(FLOW_CHANNELS), trigger: option(FLOW_TRIGGERS), trigger_value: keyword };
const keywordRequired = (f: { trigger: string; trigger_value?: string }, ctx: z.RefinementCtx) => {
  if (f.trigger === "keyword" && !f.trigger_value) ctx.addIssue({ code: "custom", path: ["trigger_value"], message: "validation.required" });
};

/** /flows/create: a draft with its settings, from a ready flow when one is picked. */
export const createFlowFormSchema = z.object({ ...settings, template: option(FLOW_TEMPLATE_IDS).optional() }).superRefine(keywordRequired);

/** The builder's settings form. */
export const flowSettingsFormSchema = z.object({ intent: z.literal("settings"), ...settings }).superRefine(keywordRequired);

/** The builder's draft, posted as JSON (the canvas fills it; without JavaScript, a textarea): saved, or saved and published. */
export const flowDraftFormSchema = z.object({
  intent: z.enum(["save", "publish"]),
  draft: z
    .string({ error: "validation.required" })
    .min(1, "validation.required")
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "flows.errors.json" });
        return z.NEVER;
      }
    }),
});

/** Restore a published version into the draft. */
export const flowRestoreFormSchema = z.object({ intent: z.literal("restore"), version: z.coerce.number().int().min(1, "validation.invalid") });

/** The list's bulk form: enable or inactivate the checked flows (all or none). */
export const flowBulkFormSchema = z.object({
  intent: z.enum(["enable", "inactivate"]),
  ids: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v, ctx) => {
      const ids = (Array.isArray(v) ? v : v ? [v] : []).filter(Boolean);
      if (ids.length === 0) ctx.addIssue({ code: "custom", message: "flows.bulk.none" });
      return ids;
    }),
});

/** The stream view's Cancel button (the use-case refuses a stream that had ended). */
export const streamCancelFormSchema = z.object({ intent: z.literal("cancel") });
