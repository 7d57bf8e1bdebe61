/**
 * Inputs of the platform's provider connections and SMS route map (/admin/providers, ADR 011).
 * One flat schema per form, every kind's fields optional and checked by kind, so the one
 * no-JavaScript form (a kind select and every field) and the API share it. Secrets left blank on
 * an edit keep the stored value. Messages are locale keys; no model imports (browser bundle).
 */
import { SMS_ROUTES } from "../sms/schemas";
import { z } from "../lib/zod";
import { flagOr, text } from "../lib/fields";
import { PROVIDER_KINDS } from "./constants";
export { PROVIDER_KINDS } from "./constants";

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
