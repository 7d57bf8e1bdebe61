/**
 * CNPJ, the Brazilian company registry number: 12 characters of the registration then 2 check
 * digits (modulo 11). Since July 2026 the Receita Federal also issues alphanumeric CNPJs (IN RFB
 * 2.229/2024): the first 12 may be letters A–Z, each counted as its ASCII code minus 48 (so a
 * digit counts as itself), the check digits stay numeric. The same computation checks both.
 * No imports: schemas that run in the browser use it.
 */

const WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** What a person typed, without the mask (dots, slash, dash, spaces) and upper-cased: 14 characters when it can be a CNPJ. */
export function cleanCnpj(raw: string): string {
  return raw.replace(/[\s./-]/g, "").toUpperCase();
}

function checkDigit(base: string, weights: number[]): number {
  const sum = weights.reduce((acc, w, i) => acc + (base.charCodeAt(i) - 48) * w, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A CNPJ (masked or not) whose check digits are right; a run of one repeated digit (00.000.000/0000-00) is not one. */
export function isValidCnpj(raw: string): boolean {
  const v = cleanCnpj(raw);
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(v) || /^(\d)\1{13}$/.test(v)) return false;
  const first = checkDigit(v.slice(0, 12), WEIGHTS_1);
  const second = checkDigit(v.slice(0, 12) + first, WEIGHTS_2);
  return v.endsWith(`${first}${second}`);
}

/** 14 characters as 11.222.333/0001-81 (anything else as it is). */
export function formatCnpj(value: string): string {
  const v = cleanCnpj(value);
  return v.length === 14 ? `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8, 12)}-${v.slice(12)}` : value;
}
