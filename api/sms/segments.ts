/**
 * SMS coding and segment count (3GPP TS 23.038 / 23.040). No imports: the send screen's live
 * counter, the API and the accept use-case all count the same way.
 *
 * - GSM-7 when every character is in the GSM 03.38 basic table or its extension table
 *   (extension characters — ^ { } \ [ ~ ] | € and form feed — take two septets: ESC + char).
 *   One SMS holds 160 septets; a concatenated one 153 per part (the UDH takes the rest), and an
 *   escaped character is never split across two parts.
 * - UCS-2 otherwise: 70 UTF-16 code units in one SMS, 67 per part; a surrogate pair (emoji) is
 *   two units and never split across parts.
 * `characters` is what the count is made of: septets for GSM-7, UTF-16 code units for UCS-2.
 */

export type SmsCoding = "GSM7" | "UCS2";
export type SegmentInfo = { coding: SmsCoding; characters: number; segments: number };

/** The default alphabet in code order, without the escape (0x1B). */
export const GSM_BASIC = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENSION = "\f^{}\\[~]|€";

const basic = new Set(GSM_BASIC);
const extension = new Set(GSM_EXTENSION);

export const GSM7_SINGLE = 160;
export const GSM7_PART = 153;
export const UCS2_SINGLE = 70;
export const UCS2_PART = 67;

/** Septets a character takes in GSM-7 (1 or 2), or 0 when GSM-7 cannot carry it. */
function septets(ch: string): number {
  if (basic.has(ch)) return 1;
  if (extension.has(ch)) return 2;
  return 0;
}

export function isGsm7(text: string): boolean {
  for (const ch of text) if (septets(ch) === 0) return false;
  return true;
}

/** Parts needed for units of the given sizes when a part holds `part` units (no unit split). */
function parts(sizes: number[], part: number): number {
  let count = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > part) {
      count++;
      used = 0;
    }
    used += size;
  }
  return count;
}

export function smsSegments(text: string): SegmentInfo {
  const chars = [...text]; // code points: a surrogate pair stays one element
  if (chars.every((ch) => septets(ch) > 0)) {
    const sizes = chars.map(septets);
    const characters = sizes.reduce((s, n) => s + n, 0);
    return { coding: "GSM7", characters, segments: characters <= GSM7_SINGLE ? 1 : parts(sizes, GSM7_PART) };
  }
  const sizes = chars.map((ch) => ch.length); // 1 or 2 UTF-16 units
  const characters = sizes.reduce((s, n) => s + n, 0);
  return { coding: "UCS2", characters, segments: characters <= UCS2_SINGLE ? 1 : parts(sizes, UCS2_PART) };
}

/**
 * The text of each part as it is sent (the same split smsSegments counts): one part when it fits
 * a single SMS, else parts of at most 153 septets (GSM-7) or 67 UTF-16 units (UCS-2), never
 * splitting an escaped character or a surrogate pair. Used by the SMPP client (UDH concatenation).
 */
export function smsParts(text: string): { coding: SmsCoding; parts: string[] } {
  const info = smsSegments(text);
  if (info.segments === 1) return { coding: info.coding, parts: [text] };
  const size = info.coding === "GSM7" ? septets : (ch: string) => ch.length;
  const limit = info.coding === "GSM7" ? GSM7_PART : UCS2_PART;
  const out: string[] = [];
  let current = "";
  let used = 0;
  for (const ch of text) {
    const n = size(ch);
    if (used + n > limit) {
      out.push(current);
      current = "";
      used = 0;
    }
    current += ch;
    used += n;
  }
  out.push(current);
  return { coding: info.coding, parts: out };
}
