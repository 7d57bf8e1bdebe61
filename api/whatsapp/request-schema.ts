/**
 * The request for a WhatsApp number (issue 16; spec section 2 "/whatsapp/request"): the business's
 * data that Meta's onboarding asks for, each field refused with a locale key naming what is wrong.
 * - legal_name; cnpj (check digits, ../lib/cnpj); website (optional, https); a business e-mail;
 *   business_phone and phone_number (what a person typed, E.164 through ../contacts/phone);
 *   address (optional, up to 256 like Meta's business profile); description (optional, up to 512,
 *   Meta's profile description);
 * - display_name: Meta's display name guidelines, as far as a machine can tell — 3 to 200
 *   characters (Meta: "at least 3"; 200 is what a connected number's verified name holds here),
 *   letters in it, no emoji, no web address, no trademark symbols or repeated punctuation, not in
 *   capitals only (acronyms are fine), not "WhatsApp", and related to the business: a word of it in
 *   the legal name, the website's host or the description, or the legal name's initials;
 * - vertical: Meta's business profile categories (`vertical` of whatsapp_business_profile);
 * - integration: cloud (Meta's Cloud API) or onprem (the older one, ADR 035).
 * Its own file, apart from ./schemas: this one brings the phone library into the browser, which
 * only this form needs. No model imports.
 */
import { normalizePhone } from "../contacts/phone";
import { cleanCnpj, isValidCnpj } from "../lib/cnpj";
import { email, text } from "../lib/fields";
import { z } from "../lib/zod";
import { VERTICALS, REQUEST_INTEGRATIONS } from "./request-constants";
export { VERTICALS, REQUEST_INTEGRATIONS } from "./request-constants";

export type Vertical = (typeof VERTICALS)[number];

export const DISPLAY_NAME_MIN = 3;
export const DISPLAY_NAME_MAX = 200;

const SYMBOLS = /[™®©℠]/u;
const EMOJI = /[\p{Extended_Pictographic}\p{Regional_Indicator}]|\u20E3|\uFE0F/u;
const URL_LIKE = /(?:^|[\s(])(?:https?:\/\/|www\.)|[\p{L}\d-]\.(?:com|net|org|gov|edu|br|io|app|shop|store|online|site|info|biz|dev|ai|me|co)(?:\.[a-z]{2})?(?=[/\s)]|$)/iu;
const REPEATED_PUNCTUATION = /([!?.,;:*~_#@$%&+=|\\/<>^-])\1/u;
/** Words that relate nothing by themselves (a display name "by" its company, articles). */
const STOP_WORDS = new Set(["and", "the", "for", "por", "para", "com", "dos", "das", "del", "los", "las", "ltda", "eireli", "cia"]);

/** Lower case without accents: "Padaria São João" and "PADARIA SAO JOAO" read alike. */
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const wordsOf = (s: string) =>
  fold(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
/** "Banco do Brasil S.A." -> "bb": the first letters of its words of 3 letters or more. */
const initials = (s: string) =>
  wordsOf(s)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w))
    .map((w) => w[0])
    .join("");

/** The first of Meta's formatting rules a display name breaks (a locale key), or null. */
export function displayNameIssue(name: string): string | null {
  if (SYMBOLS.test(name)) return "validation.waDisplayNameSymbols";
  if (EMOJI.test(name)) return "validation.waDisplayNameEmoji";
  if (URL_LIKE.test(name)) return "validation.waDisplayNameUrl";
  if (!/\p{L}/u.test(name)) return "validation.waDisplayNameLetters";
  if (/whats\s*app/i.test(name)) return "validation.waDisplayNameWhatsapp";
  if (REPEATED_PUNCTUATION.test(name)) return "validation.waDisplayNamePunctuation";
  const words = name.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  const shouting = name === name.toUpperCase() && name !== name.toLowerCase() && words.length >= 2 && words.some((w) => (w.match(/\p{L}/gu) ?? []).length >= 5);
  if (shouting) return "validation.waDisplayNameCaps";
  return null;
}

/** Whether a display name has a visible relationship with the business (Meta: "a clear relationship with your business"). */
export function displayNameRelated(name: string, business: { legal_name: string; website?: string | null; description?: string | null }): boolean {
  let host = "";
  try {
    host = business.website ? new URL(business.website).hostname.replace(/^www\./, "") : "";
  } catch {}
  const haystack = fold(`${business.legal_name} ${host} ${business.description ?? ""}`);
  const words = wordsOf(name);
  if (words.some((w) => w.length >= 3 && !STOP_WORDS.has(w) && haystack.includes(w))) return true;
  const acronym = initials(business.legal_name);
  return acronym.length >= 2 && words.some((w) => w.length >= 2 && w === acronym);
}

const phone = z
  .string()
  .trim()
  .min(1, "validation.required")
  .max(40, "validation.maxLength::40")
  .transform((v, ctx) => {
    const e164 = normalizePhone(v);
    if (!e164) {
      ctx.addIssue({ code: "custom", message: "validation.phone" });
      return z.NEVER;
    }
    return e164;
  });

export const numberRequestSchema = z
  .object({
    legal_name: z.string().trim().min(1, { message: "validation.required", abort: true }).min(2, "validation.minLength::2").max(200, "validation.maxLength::200"),
    cnpj: z
      .string()
      .trim()
      .min(1, "validation.required")
      .max(30, "validation.maxLength::30")
      .transform((v) => cleanCnpj(v))
      .refine(isValidCnpj, "validation.cnpj"),
    website: text(500).refine((v) => {
      if (v === null) return true;
      try {
        const u = new URL(v);
        return u.protocol === "https:" && u.hostname.includes(".");
      } catch {
        return false;
      }
    }, "validation.httpsUrl"),
    email,
    business_phone: phone,
    address: text(256),
    display_name: z
      .string()
      .transform((v) => v.replace(/\s+/g, " ").trim())
      .pipe(
        z
          .string()
          .min(1, { message: "validation.required", abort: true })
          .min(DISPLAY_NAME_MIN, `validation.minLength::${DISPLAY_NAME_MIN}`)
          .max(DISPLAY_NAME_MAX, `validation.maxLength::${DISPLAY_NAME_MAX}`),
      )
      .superRefine((v, ctx) => {
        const issue = displayNameIssue(v);
        if (issue) ctx.addIssue({ code: "custom", message: issue });
      }),
    vertical: z.enum(VERTICALS, "validation.option"),
    phone_number: phone,
    integration: z.enum(REQUEST_INTEGRATIONS, "validation.option").default("cloud"),
    description: text(512),
  })
  .superRefine((v, ctx) => {
    // Only a display name (and a legal name) that passed their own rules are compared: one error at a time on the field.
    const name = v.display_name;
    if (typeof name !== "string" || typeof v.legal_name !== "string" || name.length < DISPLAY_NAME_MIN || name.length > DISPLAY_NAME_MAX || displayNameIssue(name)) return;
    if (!displayNameRelated(name, v)) ctx.addIssue({ code: "custom", path: ["display_name"], message: "validation.waDisplayNameRelated" });
  });
export type NumberRequestInput = z.infer<typeof numberRequestSchema>;
