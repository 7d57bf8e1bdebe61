/**
 * Numbers at the lookup's boundary. The API takes E.164 only (`+` and 8 to 15 digits, no leading
 * zero), refused with a field error naming the rule; a CSV cell is read like the contact import
 * reads a mobile (+55 assumed for 10 or 11 digits, masks dropped) but only its shape is judged
 * here: whether the number exists is the provider's answer. No imports: unit-tested alone.
 */
export const E164 = /^\+[1-9]\d{7,14}$/;

/** The field error keys (public/locales/<lng>/lookup.json errors.*). */
export type NumberProblem = "required" | "e164Plus" | "e164Digits" | "e164Length";

/** What is wrong with an API number, or null when it is E.164. */
export function e164Problem(raw: string | null | undefined): NumberProblem | null {
  const v = (raw ?? "").trim();
  if (!v) return "required";
  if (!v.startsWith("+")) return "e164Plus";
  if (!/^\+\d+$/.test(v)) return "e164Digits";
  if (!E164.test(v)) return "e164Length";
  return null;
}

/** A CSV cell as E.164, or null when it cannot be a phone number at all (a bad line). */
export function cellToE164(raw: string | null | undefined): string | null {
  const v = (raw ?? "").trim();
  if (!v || /[a-z]/i.test(v)) return null;
  const digits = v.replace(/\D/g, "");
  let candidate: string;
  if (v.startsWith("+")) candidate = `+${digits}`;
  else if (digits.length === 10 || digits.length === 11) candidate = `+55${digits}`;
  else if (digits.startsWith("00")) candidate = `+${digits.slice(2)}`;
  else candidate = `+${digits}`;
  return E164.test(candidate) ? candidate : null;
}
