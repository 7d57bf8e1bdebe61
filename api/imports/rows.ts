/**
 * One CSV record -> one staging line in PostgreSQL's COPY text format, with the rules of a
 * contact typed by hand (api/contacts/phone.ts): mobile and phone to E.164, a single name split
 * at the first space, an e-mail kept only with @, dates as dd/mm/yyyy or yyyy-mm-dd, gender
 * words in Portuguese or English, tags "a, b", custom values typed by their field. A record
 * without a valid mobile number is rejected (IMPORT_INVALID_NUMBER); an optional value that
 * cannot be read (a date like 31/02/2020, a list value that is not an option) is left empty.
 * This runs a million times per import: plain loops, no per-row schema objects.
 */
import type { CustomFieldType } from "../../models/constants";
import { cleanEmail, cleanWebsite, normalizePhone, splitName } from "../contacts/phone";

/** Staging columns filled from the mapping, in COPY order (after import_id and line). */
export const STAGING_COLUMNS = [
  "first_name",
  "last_name",
  "birth_date",
  "mobile_number",
  "phone",
  "email",
  "gender",
  "company",
  "website",
  "address",
  "number",
  "complement",
  "district",
  "zip",
  "city",
  "state",
  "country",
  "description",
  "custom",
  "tags",
] as const;
export type StagingColumn = (typeof STAGING_COLUMNS)[number];

/** Longest value kept per text column (the contact form's limits); longer values are cut. */
const MAX: Partial<Record<StagingColumn, number>> = {
  first_name: 80,
  last_name: 80,
  phone: 30,
  email: 254,
  company: 120,
  website: 200,
  address: 200,
  number: 20,
  complement: 100,
  district: 100,
  zip: 20,
  city: 100,
  state: 50,
  country: 60,
  description: 2000,
};

export type CustomDef = { key: string; type: CustomFieldType; options: string[] };

/** The staging columns an import writes, given its mapping (the same list for every file). */
export function stagingColumns(mapping: Record<string, string>): StagingColumn[] {
  const targets = new Set(Object.values(mapping).filter(Boolean));
  const cols = new Set<StagingColumn>(["mobile_number"]);
  for (const t of targets) {
    if (t === "name" || t === "first_name" || t === "last_name") {
      cols.add("first_name");
      cols.add("last_name");
    } else if (t.startsWith("custom:")) cols.add("custom");
    else if ((STAGING_COLUMNS as readonly string[]).includes(t)) cols.add(t as StagingColumn);
  }
  return STAGING_COLUMNS.filter((c) => cols.has(c));
}

/** COPY text format: backslash, tab, newline and carriage return are escaped; NULL is \N. */
export function copyText(v: string | null): string {
  if (v === null) return "\\N";
  return /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r")) : v;
}

/** A text[] literal ({"a","b"}) for COPY. */
export function arrayLiteral(items: string[]): string {
  return `{${items.map((s) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(",")}}`;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** dd/mm/yyyy (also d/m/yyyy, with - or .) or yyyy-mm-dd, checked against the calendar; else null. */
export function parseDate(raw: string): string | null {
  let d: number, m: number, y: number;
  let match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(raw);
  if (match) [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(raw))) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else return null;
  if (y < 1800 || y > 2200 || m < 1 || m > 12 || d < 1 || d > DAYS[m - 1]) return null;
  if (m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return null;
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
const GENDER: Record<string, "male" | "female" | "undisclosed"> = {};
for (const w of ["m", "masculino", "masc", "homem", "h", "male", "man"]) GENDER[w] = "male";
for (const w of ["f", "feminino", "fem", "mulher", "female", "woman"]) GENDER[w] = "female";
for (const w of [
  "outro",
  "outros",
  "nao informado",
  "nao informar",
  "prefiro nao informar",
  "nao binario",
  "other",
  "undisclosed",
  "not informed",
  "prefer not to say",
  "non binary",
  "x",
  "o",
])
  GENDER[w] = "undisclosed";
export function parseGender(raw: string) {
  return (
    GENDER[
      raw.length <= 2
        ? raw.toLowerCase()
        : fold(raw)
            .replace(/[^a-z]+/g, " ")
            .trim()
    ] ?? null
  );
}

export function parseTags(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(/[,;|]/)) {
    const t = part.trim().toLowerCase();
    if (t && t.length <= 40 && !out.includes(t)) out.push(t);
    if (out.length === 30) break;
  }
  return out;
}

/** A custom value typed by its field (number, ISO date, one of the options, text up to 500), or null. */
export function customValue(def: CustomDef, raw: string): string | number | null {
  switch (def.type) {
    case "number": {
      const n = Number(raw.replace(/\s/g, "").replace(",", "."));
      return Number.isFinite(n) ? n : null;
    }
    case "date":
      return parseDate(raw);
    case "list": {
      if (def.options.includes(raw)) return raw;
      const f = fold(raw);
      return def.options.find((o) => fold(o) === f) ?? null;
    }
    default:
      return raw.slice(0, 500);
  }
}

export type RowError = { column: string; value: string };

/**
 * Compiled per file: which CSV column feeds what. `line(record, seq)` answers the COPY line
 * (ending in \n) or a RowError for a rejected record.
 */
export class RowBuilder {
  private mobile: number[] = [];
  private name: number[] = [];
  private first: number[] = [];
  private last: number[] = [];
  private phone: number[] = [];
  private email: number[] = [];
  private birth: number[] = [];
  private gender: number[] = [];
  private tags: number[] = [];
  private texts: Array<[number, StagingColumn]> = [];
  private custom: Array<[number, CustomDef]> = [];
  private readonly mobileHeader: string;
  private readonly prefix: string;

  constructor(
    importId: string,
    columns: string[],
    mapping: Record<string, string>,
    private readonly staging: StagingColumn[],
    customDefs: Map<string, CustomDef>,
  ) {
    this.prefix = `${importId}\t`;
    columns.forEach((header, i) => {
      const target = mapping[header] ?? "";
      if (!target) return;
      if (target === "mobile_number") this.mobile.push(i);
      else if (target === "name") this.name.push(i);
      else if (target === "first_name") this.first.push(i);
      else if (target === "last_name") this.last.push(i);
      else if (target === "phone") this.phone.push(i);
      else if (target === "email") this.email.push(i);
      else if (target === "birth_date") this.birth.push(i);
      else if (target === "gender") this.gender.push(i);
      else if (target === "tags") this.tags.push(i);
      else if (target.startsWith("custom:")) {
        const def = customDefs.get(target.slice(7));
        if (def) this.custom.push([i, def]);
      } else this.texts.push([i, target as StagingColumn]);
    });
    this.mobileHeader = this.mobile.map((i) => columns[i]).join(" / ");
  }

  /** First non-empty trimmed value among the columns mapped to one target. */
  private first_(rec: string[], cols: number[]): string {
    for (const i of cols) {
      const v = rec[i];
      if (v) {
        const t = v.trim();
        if (t) return t;
      }
    }
    return "";
  }

  line(rec: string[], seq: number): string | RowError {
    const rawMobile = this.first_(rec, this.mobile);
    const mobile = rawMobile ? normalizePhone(rawMobile) : null;
    if (!mobile) return { column: this.mobileHeader, value: rawMobile };
    const v: Partial<Record<StagingColumn, string | null>> = { mobile_number: mobile };
    let firstName = this.first.length ? this.first_(rec, this.first) : "";
    let lastName = this.last.length ? this.first_(rec, this.last) : "";
    if (!firstName && !lastName && this.name.length) {
      const split = splitName(this.first_(rec, this.name));
      firstName = split.firstName ?? "";
      lastName = split.lastName ?? "";
    }
    v.first_name = firstName ? firstName.slice(0, 80) : null;
    v.last_name = lastName ? lastName.slice(0, 80) : null;
    if (this.phone.length) {
      const p = this.first_(rec, this.phone);
      v.phone = p ? (normalizePhone(p) ?? p).slice(0, 30) : null;
    }
    if (this.email.length) v.email = cleanEmail(this.first_(rec, this.email))?.slice(0, 254) ?? null;
    if (this.birth.length) {
      const b = this.first_(rec, this.birth);
      v.birth_date = b ? parseDate(b) : null;
    }
    if (this.gender.length) {
      const g = this.first_(rec, this.gender);
      v.gender = g ? parseGender(g) : null;
    }
    for (const [i, col] of this.texts) {
      if (v[col]) continue;
      const t = (rec[i] ?? "").trim();
      // A website that is not http(s) (javascript:, data:…) is left empty like any unreadable value.
      const value = col === "website" ? cleanWebsite(t) : t;
      v[col] = value ? value.slice(0, MAX[col] ?? 200) : null;
    }
    if (this.tags.length) {
      const all: string[] = [];
      for (const i of this.tags) for (const t of parseTags(rec[i] ?? "")) if (!all.includes(t) && all.length < 30) all.push(t);
      v.tags = all.length ? arrayLiteral(all) : null;
    }
    if (this.custom.length) {
      let obj: Record<string, string | number> | null = null;
      for (const [i, def] of this.custom) {
        const t = (rec[i] ?? "").trim();
        if (!t) continue;
        const value = customValue(def, t);
        if (value !== null && (obj ??= {})[def.key] === undefined) obj[def.key] = value;
      }
      v.custom = obj ? JSON.stringify(obj) : null;
    }
    let out = this.prefix + seq;
    for (const c of this.staging) out += "\t" + copyText(v[c] ?? null);
    return out + "\n";
  }
}
