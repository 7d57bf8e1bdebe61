/**
 * Flows (issue 20, ADR 053): what the API takes to create, edit, list and enable flows. No model
 * imports, so the builder's forms validate with the same rules. Messages are locale keys. The
 * definition itself (`draft`) is checked by ./definition.ts (checkDraft, checkFlow).
 */
import { z } from "../lib/zod";
import { pageInput } from "../lib/page";
import { FLOW_CHANNELS, FLOW_KEYWORD_MAX, FLOW_NAME_MAX, FLOW_STATUSES, FLOW_TRIGGERS } from "./constants";

export { FLOW_CHANNELS, FLOW_KEYWORD_MAX, FLOW_NAME_MAX, FLOW_STATUSES, FLOW_TRIGGERS };

const option = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: "validation.option" });
const name = z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(FLOW_NAME_MAX, `validation.maxLength::${FLOW_NAME_MAX}`);
/** A keyword matches whatever the case: kept trimmed and in lower case. */
const keyword = z
  .string({ error: "validation.required" })
  .trim()
  .max(FLOW_KEYWORD_MAX, `validation.maxLength::${FLOW_KEYWORD_MAX}`)
  .transform((s) => s.toLowerCase());

export const createFlowSchema = z
  .object({
    name,
    channel: option(FLOW_CHANNELS),
    trigger: option(FLOW_TRIGGERS),
    trigger_value: keyword.nullish(),
    /** The first draft; a start step alone when absent. */
    draft: z.unknown().optional(),
  })
  .superRefine((f, ctx) => {
    if (f.trigger === "keyword" && !f.trigger_value) ctx.addIssue({ code: "custom", path: ["trigger_value"], message: "validation.required" });
  });
export type CreateFlowInput = z.infer<typeof createFlowSchema>;

/** An edit: any of the flow's settings and its draft; what is absent stays. */
export const updateFlowSchema = z.object({
  name: name.optional(),
  channel: option(FLOW_CHANNELS).optional(),
  trigger: option(FLOW_TRIGGERS).optional(),
  trigger_value: keyword.nullish(),
  draft: z.unknown().optional(),
});
export type UpdateFlowInput = z.infer<typeof updateFlowSchema>;

export const listFlowsSchema = z.object({ ...pageInput, status: option(FLOW_STATUSES).optional(), channel: option(FLOW_CHANNELS).optional() });

/** Enable or inactivate flows at once (a draft is never set by hand: it is a flow never published). */
export const FLOW_STATUS_IDS_MAX = 200;
export const flowStatusSchema = z.object({
  ids: z
    .array(z.uuid({ error: "validation.invalid" }), { error: "validation.required" })
    .min(1, "validation.required")
    .max(FLOW_STATUS_IDS_MAX, `validation.maxItems::${FLOW_STATUS_IDS_MAX}`),
  status: option(["active", "inactive"] as const),
});
