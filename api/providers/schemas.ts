/**
 * Inputs of the platform's provider connections and SMS route map (/admin/providers, ADR 011).
 * One flat schema per form, every kind's fields optional and checked by kind, so the one
 * no-JavaScript form (a kind select and every field) and the API share it. Secrets left blank on
 * an edit keep the stored value. Messages are locale keys; no model imports (browser bundle).
 */
import { SMS_ROUTES } from "../sms/schemas";
import { z } from "../lib/zod";
import { flagOr, text } from "../lib/fields";
import { COST_CURRENCIES, COST_MAX, PROVIDER_KINDS } from "./constants";
export { COST_CURRENCIES, COST_MAX, PROVIDER_KINDS } from "./constants";

export type ProviderKind = (typeof PROVIDER_KINDS)[number];
/** Settings that are credentials: stored as the adapters read them, answered only as a masked hint. */
export const SECRET_SETTINGS = ["api_key", "webhook_secret", "password"] as const;
export type SecretSetting = (typeof SECRET_SETTINGS)[number];

const int = (min: number, max: number) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || String(v).trim() === "") return undefined;
      const n = typeof v === "number" ? v : Number(String(v).trim());
      if (!Number.isInteger(n)) {
        ctx.addIssue({ code: "custom", message: "validation.integer" });
        return z.NEVER;
      }
      if (n < min) ctx.addIssue({ code: "custom", message: `validation.min::${min}` });
      else if (n > max) ctx.addIssue({ code: "custom", message: `validation.max::${max}` });
      return n;
    });

/** A checkbox posts "on" (or nothing); the API sends booleans. */

const fields = {
  kind: z.enum(PROVIDER_KINDS, "validation.option"),
  enabled: flagOr(undefined),
  // http
  url: text(500, undefined),
  api_key: text(500, undefined),
  webhook_secret: text(500, undefined),
  // smpp
  host: text(255, undefined),
  port: int(1, 65535),
  system_id: text(15, undefined),
  password: text(8, undefined),
  system_type: text(12, undefined),
  // both
  tps: int(1, 10_000),
};

type Raw = Partial<{ [K in keyof typeof fields]: z.infer<(typeof fields)[K]> }>;

/** The kind's required fields. `stored` says which secrets the connection already holds (edit). */
function checkKind(v: Raw, ctx: z.RefinementCtx, stored: Partial<Record<SecretSetting, boolean>> = {}) {
  const need = (name: keyof Raw, ok = v[name] !== undefined) => {
    if (!ok) ctx.addIssue({ code: "custom", path: [name], message: "validation.required" });
  };
  if (v.kind === "http") {
    need("url");
    if (v.url && !/^https?:\/\/[^\s/]+/i.test(v.url)) ctx.addIssue({ code: "custom", path: ["url"], message: "validation.invalid" });
    else if (v.url) {
      try {
        new URL(v.url);
      } catch {
        ctx.addIssue({ code: "custom", path: ["url"], message: "validation.invalid" });
      }
    }
    need("api_key", v.api_key !== undefined || Boolean(stored.api_key));
  }
  if (v.kind === "smpp") {
    need("host");
    need("system_id");
    need("password", v.password !== undefined || Boolean(stored.password));
  }
}

const base = z.object(fields);

export const createProviderSchema = base
  .extend({
    name: z
      .string()
      .trim()
      .min(1, "validation.required")
      .min(2, "validation.minLength::2")
      .max(41, "validation.maxLength::41")
      .regex(/^[a-z][a-z0-9_-]+$/, "validation.mask"),
  })
  .superRefine((v, ctx) => checkKind(v, ctx));
export type CreateProviderInput = z.infer<typeof createProviderSchema>;

/** The edit form: the name is fixed (messages and webhook URLs carry it); blank secrets keep the stored ones. */
export const updateProviderSchema = base;
export type UpdateProviderInput = z.infer<typeof updateProviderSchema>;
export { checkKind as checkProviderKind };

/** PUT of the route map: any of T1, T2, T4, T6 -> a connection id (at least one). */
const uuid = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "validation.option");
export const routeMapSchema = z
  .object(Object.fromEntries(SMS_ROUTES.map((r) => [r, uuid.optional()])) as Record<(typeof SMS_ROUTES)[number], z.ZodOptional<typeof uuid>>)
  .refine((v) => SMS_ROUTES.some((r) => v[r]), { message: "validation.required" });
export type RouteMapInput = z.infer<typeof routeMapSchema>;

/** An instant with its offset ("2026-12-01T00:00:00-03:00", "…Z"): when a cost starts. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A provider's cost per SMS segment on a route from `valid_from` on (ADR 070): integer minor units
 * of `currency` (the form posts reais and converts them first). Accepts what it answers (a Date), so
 * the form's parsed value validates again in the use-case.
 */
export const createCostSchema = z.object({
  route: z.enum(SMS_ROUTES, "validation.option"),
  cost_per_segment: z.union([z.number(), z.string()], { error: "validation.required" }).transform((v, ctx) => {
    const n = typeof v === "number" ? v : String(v).trim() === "" ? Number.NaN : Number(String(v).trim());
    if (!Number.isInteger(n)) {
      ctx.addIssue({ code: "custom", message: String(v).trim() === "" ? "validation.required" : "validation.integer" });
      return z.NEVER;
    }
    if (n < 0) ctx.addIssue({ code: "custom", message: "validation.min::0" });
    else if (n > COST_MAX) ctx.addIssue({ code: "custom", message: `validation.max::${COST_MAX}` });
    return n;
  }),
  currency: z.enum(COST_CURRENCIES, "validation.option"),
  valid_from: z.union([z.string(), z.date()], { error: "validation.required" }).transform((v, ctx) => {
    if (v instanceof Date) return v;
    const s = v.trim();
    const at = ISO_WITH_OFFSET.test(s) ? new Date(s) : null;
    if (!at || Number.isNaN(at.getTime())) {
      ctx.addIssue({ code: "custom", message: s ? "validation.date" : "validation.required" });
      return z.NEVER;
    }
    return at;
  }),
});
export type CreateCostInput = z.infer<typeof createCostSchema>;
