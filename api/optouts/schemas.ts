/**
 * Inputs of opt-outs, the deny list and the opt-out keyword settings. Messages are locale keys;
 * no model imports (the screens' forms use these too).
 */
import { normalizePhone } from "../contacts/phone";
import { pageParam } from "../lib/validate";
import { z } from "../lib/zod";
import { foldKeyword } from "./keywords";
import { OPTOUT_CHANNELS, MAX_KEYWORD_LENGTH, KEYWORD_ACTIONS } from "./constants";
export { OPTOUT_CHANNELS, MAX_KEYWORD_LENGTH, KEYWORD_ACTIONS } from "./constants";

export const OPTOUT_SOURCES = ["manual", "keyword", "api", "import"] as const;
/** Where an e-mail opt-out came from (the optouts.source check, migrations 0052 and 0055). */
export const EMAIL_OPTOUT_SOURCES = ["manual", "api", "unsubscribe", "complaint", "import"] as const;
/** At most this many keywords of each action (opt-out, resume) per account. */
export const MAX_KEYWORDS = 20;
export type KeywordAction = (typeof KEYWORD_ACTIONS)[number];
export const MAX_REASON = 255;

/** Any format a person types; E.164 after parsing (+55 assumed for 10 or 11 digits). */
const phone = z.string().transform((v, ctx) => {
  if (!v.trim()) {
    ctx.addIssue({ code: "custom", message: "validation.required" });
    return z.NEVER;
  }
  const e164 = normalizePhone(v);
  if (!e164) {
    ctx.addIssue({ code: "custom", message: "validation.phone" });
    return z.NEVER;
  }
  return e164;
});

export const addOptoutSchema = z.object({
  recipient: phone,
  channel: z
    .union([z.enum(OPTOUT_CHANNELS, "validation.option"), z.literal(""), z.null()])
    .optional()
    .transform((v) => v || "sms"),
});
export type AddOptoutInput = z.infer<typeof addOptoutSchema>;

export const addDenySchema = z.object({
  recipient: phone,
  reason: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const s = (v ?? "").trim();
      if (s.length > MAX_REASON) ctx.addIssue({ code: "custom", message: `validation.maxLength::${MAX_REASON}` });
      return s;
    }),
});
export type AddDenyInput = z.infer<typeof addDenySchema>;

/** A list of keywords as an array or one comma/space/newline-separated string (the form's textarea). */
const keywordList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(/[\s,;]+/)))
  .transform((list, ctx) => {
    const words = list.map((w) => w.trim()).filter(Boolean);
    const seen = new Set<string>();
    const out: string[] = [];
    for (const w of words) {
      if (/\s/.test(w) || w.length > 30) {
        ctx.addIssue({ code: "custom", message: "validation.invalid" });
        return z.NEVER;
      }
      const key = foldKeyword(w);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(w.toUpperCase());
      }
    }
    if (out.length === 0) ctx.addIssue({ code: "custom", message: "validation.required" });
    else if (out.length > MAX_KEYWORDS) ctx.addIssue({ code: "custom", message: `validation.max::${MAX_KEYWORDS}` });
    return out;
  });

/** One keyword (spec "keywords"): one word, trimmed, stored uppercase; unique per account ignoring accents. */
export const keywordSchema = z.object({
  keyword: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const w = (v ?? "").trim();
      if (!w) {
        ctx.addIssue({ code: "custom", message: "validation.required" });
        return z.NEVER;
      }
      if (/\s/u.test(w) || w.length > MAX_KEYWORD_LENGTH || !foldKeyword(w)) {
        ctx.addIssue({ code: "custom", message: `validation.oneWord::${MAX_KEYWORD_LENGTH}` });
        return z.NEVER;
      }
      return w.toUpperCase();
    }),
  action: z.enum(KEYWORD_ACTIONS, "validation.option"),
});
export type KeywordInput = z.infer<typeof keywordSchema>;

/** Several keywords by id (DELETE keywords bulk; the screen's checkboxes send `ids` once per box). */
export const keywordIdsSchema = z.object({
  ids: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .superRefine((list, ctx) => {
      if (list.length === 0) ctx.addIssue({ code: "custom", message: "validation.required" });
      if (list.length > 100) ctx.addIssue({ code: "custom", message: "validation.max::100" });
    }),
});

export const optoutSettingsSchema = z.object({ keywords: keywordList, resume_keywords: keywordList }).superRefine((v, ctx) => {
  // A word cannot both stop and resume sending.
  const stop = new Set(v.keywords.map(foldKeyword));
  if (v.resume_keywords.some((k) => stop.has(foldKeyword(k)))) ctx.addIssue({ code: "custom", path: ["resume_keywords"], message: "validation.invalid" });
});
export type OptoutSettingsInput = z.infer<typeof optoutSettingsSchema>;

/** An e-mail address of the e-mail lists (/mail/optouts, /mail/denylist): trimmed, lower case, as messages.recipient holds it (migration 0052). */
const emailAddress = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    const s = (v ?? "").trim().toLowerCase();
    if (!s) {
      ctx.addIssue({ code: "custom", message: "validation.required" });
      return z.NEVER;
    }
    if (s.length > 254) {
      ctx.addIssue({ code: "custom", message: "validation.maxLength::254" });
      return z.NEVER;
    }
    if (!z.string().email().safeParse(s).success) {
      ctx.addIssue({ code: "custom", message: "validation.email" });
      return z.NEVER;
    }
    return s;
  });

/** An e-mail opt-out (channel email): the address. */
export const addEmailOptoutSchema = z.object({ recipient: emailAddress });
/** An e-mail address on the deny list, with an optional reason. */
export const addEmailDenySchema = addDenySchema.extend({ recipient: emailAddress });

export const listQuerySchema = z.object({
  page: pageParam(),
  q: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").replace(/\D/g, "").slice(0, 15)),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** The e-mail lists' query: `q` a part of the address (any case). */
export const emailListQuerySchema = z.object({
  page: pageParam(),
  q: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim().toLowerCase().slice(0, 254)),
});
