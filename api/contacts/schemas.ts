import { GENDERS } from "../../models/constants";
import { z } from "../lib/zod";
import { cleanEmail, normalizePhone, splitName } from "./phone";

const text = (max: number) =>
  z.union([z.string(), z.null()]).optional().transform((v, ctx) => {
    const s = (v ?? "").trim();
    if (s.length > max) ctx.addIssue({ code: "custom", message: `validation.maxLength::${max}` });
    return s ? s : null;
  });

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
    birth_date: z.union([z.string(), z.null()]).optional().transform((v, ctx) => {
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
    gender: z.union([z.enum(GENDERS), z.literal(""), z.null()]).optional().transform((v) => (v ? v : null)),
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
    custom: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).optional().default({}),
    group_ids: z.array(z.string().uuid("validation.invalid")).optional().default([]),
  })
  .transform((v, ctx) => {
    const names = v.first_name || v.last_name ? { firstName: v.first_name, lastName: v.last_name } : splitName(v.name);
    const mobile = v.mobile_number ? normalizePhone(v.mobile_number) : null;
    if (v.mobile_number && !mobile) ctx.addIssue({ code: "custom", path: ["mobile_number"], message: "validation.phone" });
    const phone = v.phone ? normalizePhone(v.phone) ?? v.phone : null;
    const email = cleanEmail(v.email);
    if (v.email && email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) ctx.addIssue({ code: "custom", path: ["email"], message: "validation.email" });
    if (!mobile && !phone && !email && !v.mobile_number) ctx.addIssue({ code: "custom", path: ["mobile_number"], message: "validation.contactReachable" });
    return {
      firstName: names.firstName, lastName: names.lastName, mobileNumber: mobile, phone, email,
      birthDate: v.birth_date, gender: v.gender, company: v.company, website: v.website, address: v.address, number: v.number,
      complement: v.complement, district: v.district, zip: v.zip, city: v.city, state: v.state, country: v.country,
      description: v.description, tags: v.tags, custom: v.custom, groupIds: v.group_ids,
    };
  });
export type ContactInput = z.output<typeof contactSchema>;
