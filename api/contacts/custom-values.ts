import { CustomField } from "../../models";
import { AppError, type FieldErrors } from "../lib/errors";

/**
 * Check custom values against the account's field definitions: known keys only, the type's
 * format (number, ISO date, one of the list's options), required ones present on creation.
 */
export async function checkCustomValues(accountId: string, values: Record<string, string | number | null>, opts: { creating: boolean }) {
  const defs = await CustomField.findAll({ where: { accountId } });
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const out: Record<string, string | number | null> = {};
  const fields: FieldErrors = {};
  for (const [key, raw] of Object.entries(values)) {
    const def = byKey.get(key);
    if (!def) continue; // unknown keys are ignored, never stored
    const s = raw === null || raw === undefined ? "" : String(raw).trim();
    if (!s) {
      out[key] = null;
      continue;
    }
    if (def.type === "number") {
      const n = Number(s.replace(",", "."));
      if (!Number.isFinite(n)) (fields[`custom.${key}`] ??= []).push("validation.number");
      else out[key] = n;
    } else if (def.type === "date") {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || Number.isNaN(Date.parse(s))) (fields[`custom.${key}`] ??= []).push("validation.date");
      else out[key] = s;
    } else if (def.type === "list") {
      if (!def.options.includes(s)) (fields[`custom.${key}`] ??= []).push("validation.option");
      else out[key] = s;
    } else {
      if (s.length > 500) (fields[`custom.${key}`] ??= []).push("validation.maxLength::500");
      else out[key] = s;
    }
  }
  if (opts.creating) for (const d of defs) if (d.required && (out[d.key] === undefined || out[d.key] === null)) (fields[`custom.${d.key}`] ??= []).push("validation.required");
  if (Object.keys(fields).length) throw new AppError("VALIDATION", { fields });
  return out;
}
