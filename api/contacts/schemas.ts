import { CUSTOM_FIELD_TYPES, GENDERS } from "../../models/constants";
import { z } from "../lib/zod";
import { flag, isEmail, text } from "../lib/fields";
import { cleanEmail, cleanWebsite, normalizePhone, splitName } from "./phone";

/** Tags from a form ("vip, atacado") or a list; lower-case, unique, at most 30 of 40 chars. */
export const tagsField = z
  .union([z.string(), z.array(z.string()), z.null()])
  .optional()
  .transform((v, ctx) => {
    const list = (Array.isArray(v) ? v : (v ?? "").split(",")).map((t) => t.trim().toLowerCase()).filter(Boolean);
    const unique = [...new Set(list)];
    if (unique.some((t) => t.length > 40)) ctx.addIssue({ code: "custom", message: "validation.maxLength::40" });
    if (unique.length > 30) ctx.addIssue({ code: "custom", message: "validation.max::30" });
    return unique;
  });

/** One id or a list of them (a form posts one checked checkbox as a string): uuids, at most `max`. */
export const idList = (max: number) =>
  z
    .union([z.string(), z.array(z.string()), z.null()])
    .optional()
    .transform((v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v.filter(Boolean) : [v]))
    .pipe(z.array(z.string().uuid("validation.invalid")).max(max, `validation.max::${max}`));

/**
 * A contact as people type it (form, API, CSV row after mapping). Phone numbers become E.164;
 * an e-mail without @ is dropped; `name` alone is split at the first space.
 */
export const contactSchema = z
  .object({
    name: text(160),
    first_name: text(80),
    last_name: text(80),
    mobile_number: text(30),
    phone: text(30),
    email: text(254),
    birth_date: z
      .union([z.string(), z.null()])
      .optional()
      .transform((v, ctx) => {
        const s = (v ?? "").trim();
        if (!s) return null;
        const br = s.match(/^(\d{2})\/(\d{2})\/(\d{4})$/); // dd/mm/yyyy as Brazilians write it
        const iso = br ? `${br[3]}-${br[2]}-${br[1]}` : s;
        if (!/^\d{4}-\d{2}-\d{2}$/.test(iso) || Number.isNaN(Date.parse(iso))) {
          ctx.addIssue({ code: "custom", message: "validation.date" });
          return null;
        }
        return iso;
      }),
    gender: z
      .union([z.enum(GENDERS), z.literal(""), z.null()])
      .optional()
      .transform((v) => (v ? v : null)),
    company: text(120),
    website: text(200),
    address: text(200),
    number: text(20),
    complement: text(100),
    district: text(100),
    zip: text(20),
    city: text(100),
    state: text(50),
    country: text(60),
    description: text(2000),
    tags: tagsField,
    custom: z
      .record(z.string(), z.union([z.string(), z.number(), z.null()]))
      .optional()
      .default({}),
    group_ids: idList(500),
  })
  .transform((v, ctx) => {
    const names = v.first_name || v.last_name ? { firstName: v.first_name, lastName: v.last_name } : splitName(v.name);
    const mobile = v.mobile_number ? normalizePhone(v.mobile_number) : null;
    if (v.mobile_number && !mobile) ctx.addIssue({ code: "custom", path: ["mobile_number"], message: "validation.phone" });
    const phone = v.phone ? (normalizePhone(v.phone) ?? v.phone) : null;
    const email = cleanEmail(v.email);
    if (v.email && email && !isEmail(email)) ctx.addIssue({ code: "custom", path: ["email"], message: "validation.email" });
    if (!mobile && !phone && !email && !v.mobile_number) ctx.addIssue({ code: "custom", path: ["mobile_number"], message: "validation.contactReachable" });
    const website = cleanWebsite(v.website);
    if (v.website && !website) ctx.addIssue({ code: "custom", path: ["website"], message: "validation.httpUrl" });
    return {
      firstName: names.firstName,
      lastName: names.lastName,
      mobileNumber: mobile,
      phone,
      email,
      birthDate: v.birth_date,
      gender: v.gender,
      company: v.company,
      website,
      address: v.address,
      number: v.number,
      complement: v.complement,
      district: v.district,
      zip: v.zip,
      city: v.city,
      state: v.state,
      country: v.country,
      description: v.description,
      tags: v.tags,
      custom: v.custom,
      groupIds: v.group_ids,
    };
  });
export type ContactInput = z.output<typeof contactSchema>;

/** Blank form values and nulls read as absent. */
const blank = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

/** A custom field's key: a slug that becomes the JSON key in contacts.custom (and a CSV mapping target). */
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;

/** GET /contacts filters (screen and API): search, group, tag, one custom field equality, keyset cursor. */
export const contactListQuerySchema = z.object({
  q: blank(z.string().trim().max(100, "validation.maxLength::100")),
  group: blank(z.string().uuid("validation.invalid")),
  tag: blank(z.string().trim().toLowerCase().max(40, "validation.maxLength::40")),
  field: blank(z.string().trim().regex(CUSTOM_FIELD_KEY, "validation.invalid")),
  value: blank(z.string().trim().max(500, "validation.maxLength::500")),
  /** Deprecated alias of `cursor` (the web's links). */
  after: blank(z.string().max(1000, "validation.invalid")),
});
export type ContactListQuery = z.input<typeof contactListQuerySchema>;

export const BULK_ACTIONS = ["delete", "add_to_group", "remove_from_group"] as const;

/** Bulk actions on selected contacts (list screen, group screen, POST /api/contacts/bulk). */
export const bulkSchema = z
  .object({
    action: z.enum(BULK_ACTIONS, { message: "validation.required" }),
    ids: idList(1000).refine((l) => l.length > 0, "validation.required"),
    group_id: blank(z.string().uuid("validation.invalid")),
  })
  .superRefine((v, ctx) => {
    if (v.action !== "delete" && !v.group_id) ctx.addIssue({ code: "custom", path: ["group_id"], message: "validation.required" });
  });

export const groupSchema = z.object({
  name: z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(80, "validation.maxLength::80"),
  description: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const s = (v ?? "").trim();
      if (s.length > 200) ctx.addIssue({ code: "custom", message: "validation.maxLength::200" });
      return s;
    }),
});

/** Options of a list field: "a, b, c" (one per comma or line) or a list; trimmed, unique, at most 100 of 60 chars. */
const optionsField = z
  .union([z.string(), z.array(z.string()), z.null()])
  .optional()
  .transform((v, ctx) => {
    const list = (Array.isArray(v) ? v : (v ?? "").split(/[,\n]/)).map((o) => o.trim()).filter(Boolean);
    const unique = [...new Set(list)];
    if (unique.some((o) => o.length > 60)) ctx.addIssue({ code: "custom", message: "validation.maxLength::60" });
    if (unique.length > 100) ctx.addIssue({ code: "custom", message: "validation.max::100" });
    return unique;
  });

const customFieldBase = {
  label: z.string({ message: "validation.required" }).trim().min(1, "validation.required").max(80, "validation.maxLength::80"),
  type: z.enum(CUSTOM_FIELD_TYPES, { message: "validation.required" }),
  options: optionsField,
  required: flag,
  sensitive: flag,
  visible_in_attendance: flag,
  position: blank(z.coerce.number({ message: "validation.integer" }).int("validation.integer").min(0, "validation.min::0").max(9999, "validation.max::9999")),
};

const listNeedsOptions = (v: { type: string; options: string[] }, ctx: z.RefinementCtx) => {
  if (v.type === "list" && v.options.length === 0) ctx.addIssue({ code: "custom", path: ["options"], message: "validation.required" });
};

/** A custom field definition. Its key cannot change later (stored values are keyed by it). */
export const customFieldSchema = z
  .object({
    key: z
      .string({ message: "validation.required" })
      .trim()
      .toLowerCase()
      .min(1, "validation.required")
      .max(40, "validation.maxLength::40")
      .regex(CUSTOM_FIELD_KEY, "validation.mask"),
    ...customFieldBase,
  })
  .superRefine(listNeedsOptions);
export const customFieldUpdateSchema = z.object(customFieldBase).superRefine(listNeedsOptions);

export const exportFormatSchema = z.enum(["json", "csv"], { message: "validation.invalid" });
