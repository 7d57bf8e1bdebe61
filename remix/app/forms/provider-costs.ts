/**
 * What the cost form of /admin/providers posts (ADR 070): the cost per segment in reais ("0,04") and
 * the start as São Paulo wall-clock time (datetime-local), converted here to what the use-case takes
 * (api/providers/schemas.ts createCostSchema: minor units, an instant with its offset). The action
 * checks it, and the browser with the same schema once loaded (ADR 052).
 */
import { z } from "~api/lib/zod";
import { localToIso } from "~api/sms/schedule";
import { reais } from "./money";

const required = z.string({ error: "validation.required" }).trim().min(1, "validation.required");

export const costFormSchema = z.object({
  intent: z.literal("cost"),
  connection_id: required,
  route: required,
  cost_per_segment: reais,
  currency: required,
  valid_from: required.transform((v, ctx) => {
    const iso = localToIso(v);
    if (!iso) {
      ctx.addIssue({ code: "custom", message: "validation.date" });
      return z.NEVER;
    }
    return iso;
  }),
});

export const deleteCostSchema = z.object({ intent: z.literal("deleteCost"), id: required });
