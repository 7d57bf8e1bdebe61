/**
 * Phone numbers: stored E.164, shown with the country's mask (spec section 5: digits only, up to
 * 13; +55 assumed for 10 or 11 digits; the leading 55 is not shown for Brazilian numbers).
 */
import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/** E.164 for what a person typed, or null when it is not a valid phone number. */
export function normalizePhone(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const trimmed = raw.trim();
  const digits = trimmed.replace(/\D/g, "");
  if (!digits || digits.length > 15) return null;
  let candidate: string;
  if (trimmed.startsWith("+")) candidate = `+${digits}`;
  else if (digits.length === 10 || digits.length === 11)
    candidate = `+55${digits}`; // DDD + number
  else if (digits.length === 12 || digits.length === 13) candidate = digits.startsWith("55") ? `+${digits}` : `+${digits}`;
  else candidate = `+${digits}`;
  const parsed = parsePhoneNumberFromString(candidate);
  return parsed && parsed.isValid() ? parsed.number : null;
}

/** Brazilian numbers as (11) 91234-5678; others in international form. */
export function formatPhone(e164: string | null | undefined): string {
  if (!e164) return "";
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.countryCallingCode === "55" ? parsed.formatNational() : parsed.formatInternational();
}

/** A single "name" column split at the first space: "Maria da Silva" -> Maria / da Silva. */
export function splitName(full: string | null | undefined): { firstName: string | null; lastName: string | null } {
  const s = (full ?? "").trim().replace(/\s+/g, " ");
  if (!s) return { firstName: null, lastName: null };
  const i = s.indexOf(" ");
  return i < 0 ? { firstName: s, lastName: null } : { firstName: s.slice(0, i), lastName: s.slice(i + 1) };
}

/** The e-mail is kept only when it contains @ (spec section 5). */
export function cleanEmail(raw: string | null | undefined): string | null {
  const s = (raw ?? "").trim().toLowerCase();
  return s.includes("@") ? s : null;
}

/**
 * A contact's website as an http(s) URL, or null when it is not one. A bare host ("loja.com.br")
 * reads as https; any other scheme (javascript:, data:, ftp:…) is refused: the value ends up as a link.
 */
export function cleanWebsite(raw: string | null | undefined): string | null {
  const s = (raw ?? "").trim();
  if (!s) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  const http = url.protocol === "http:" || url.protocol === "https:";
  return http && (url.hostname.includes(".") || url.hostname === "localhost") ? withScheme : null;
}
