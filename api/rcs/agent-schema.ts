/**
 * The forms of the RCS area (issue 21) as zod schemas, without the database: the agent request
 * (the brand Google shows on the handset), the staff's review, keywords, templates and groups,
 * the fallback setting. Messages are locale keys; the screens validate with the same schemas in
 * the browser, so nothing here imports a model.
 */
import { flag, requiredText, text } from "../lib/fields";
import { z } from "../lib/zod";
import { normalizePhone } from "../contacts/phone";
import { AGENT_STATUSES, LAUNCH_STATES } from "./constants";

export * from "./constants";

/** A required text that stops at "required" when blank (one message, not also the format's). */
const filled = (max: number) => z.string().trim().min(1, { message: "validation.required", abort: true }).max(max, `validation.maxLength::${max}`);
const https = (max = 500) => filled(max).refine((v) => publicHttps(v) !== null, "validation.httpsUrl");
/** RBM: a text message (and so a keyword's answer) holds 3,072 characters (api/rcs/content.ts RCS_LIMITS.text; not imported: that module is not browser-safe). */
export const ANSWER_MAX = 3072;

/** A public https link Google can fetch: a host name with a dot, no credentials, not an address literal. */
function publicHttps(v: string): URL | null {
  try {
    const u = new URL(v);
    const host = u.hostname.toLowerCase();
    if (u.protocol !== "https:" || u.username || u.password || !host.includes(".") || host.endsWith(".localhost")) return null;
    if (/^[\d.]+$/.test(host) || host.startsWith("[")) return null;
    return u;
  } catch {
    return null;
  }
}
/** A logo or banner: a public https link to a JPEG, PNG, GIF or WebP image. */
const image = filled(500).refine((v) => {
  const u = publicHttps(v);
  return u !== null && /\.(jpe?g|png|gif|webp)$/i.test(u.pathname);
}, "rcs.agents.errors.imageUrl");

const phone = requiredText(40).transform((v, ctx) => {
  const e164 = normalizePhone(v);
  if (!e164) {
    ctx.addIssue({ code: "custom", message: "validation.phone" });
    return z.NEVER;
  }
  return e164;
});

export const agentRequestSchema = z.object({
  name: requiredText(100),
  description: text(100, ""),
  logo_url: image,
  banner_url: image,
  color: z
    .string()
    .trim()
    .regex(/^#[0-9A-Fa-f]{6}$/, "validation.color"),
  phone,
  website: https(),
  email: z
    .string()
    .trim()
    .max(254, "validation.maxLength::254")
    .refine((v) => v === "" || z.string().email().safeParse(v).success, "validation.email")
    .transform((v) => v.toLowerCase()),
  privacy_url: https(),
  terms_url: https(),
});
export type AgentRequestInput = z.infer<typeof agentRequestSchema>;

/** The staff's review: a status, Google's agent id (made from the name when launching without one), each carrier's launch state. */
export const agentReviewSchema = z.object({
  status: z.enum(AGENT_STATUSES, "validation.option"),
  rbm_agent_id: z
    .string()
    .trim()
    .max(200, "validation.maxLength::200")
    .refine((v) => v === "" || /^[a-z0-9][a-z0-9._-]*@rbm\.goog$/.test(v), "rcs.agents.errors.rbmAgentId")
    .nullish()
    .transform((v) => v || null),
  vivo: z.enum(LAUNCH_STATES, "validation.option").optional(),
  claro: z.enum(LAUNCH_STATES, "validation.option").optional(),
  tim: z.enum(LAUNCH_STATES, "validation.option").optional(),
});
export type AgentReviewInput = z.infer<typeof agentReviewSchema>;

export const keywordSchema = z.object({
  keyword: requiredText(50),
  answer: requiredText(ANSWER_MAX),
  active: flag,
});
export type KeywordInput = z.infer<typeof keywordSchema>;

export const settingsSchema = z.object({ rcs_fallback_sms: flag });

export const templateNameSchema = requiredText(100);
export const groupSchema = z.object({ name: requiredText(100) });
