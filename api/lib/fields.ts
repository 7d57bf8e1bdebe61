/**
 * The form and API fields every schema shares (issue 13): a checkbox/boolean `flag`, optional
 * `text(max)`, required `requiredText(max)` and the one e-mail rule (`email`, `isEmail`). Messages
 * are locale keys. No model imports: the schemas that use these run in the browser too.
 */
import { z } from "./zod";

/** What a checked checkbox (`"on"`) or a JSON client sends for yes. */
export const FLAG_TRUE = ["true", "on", "1"] as const;
/** What reads as no: also `false`, `null` and absent (an unchecked checkbox posts nothing). Any other string reads as no too. */
export const FLAG_FALSE = ["false", "off", "0", ""] as const;

const flagInput = z.union([z.boolean(), z.string(), z.null()]).optional();
const isYes = (v: boolean | string | null | undefined) => v === true || (typeof v === "string" && (FLAG_TRUE as readonly string[]).includes(v));

/** A checkbox or a boolean: true for `true`, "true", "on", "1"; everything else, absent included, is false. */
export const flag = flagInput.transform(isYes);
/** `flag`, but absent (undefined) answers `absent`: a create's default ("enabled unless said"), or undefined to keep the stored value. */
export const flagOr = <D extends boolean | undefined>(absent: D) => flagInput.transform((v): boolean | D => (v === undefined ? absent : isYes(v)));

type Empty = null | "" | undefined;

/**
 * An optional text of at most `max` characters, trimmed; blank, null or absent answers `empty`
 * (null unless given: "" or undefined). Accepts null, so a value parsed once (by the form)
 * validates again in the use-case.
 */
export function text<E extends Empty = null>(max: number, ...rest: [E?]) {
  const empty = (rest.length ? rest[0] : null) as E;
  return z
    .string()
    .trim()
    .max(max, `validation.maxLength::${max}`)
    .nullish()
    .transform((v): string | E => (v ? v : empty));
}

/** A required text of at most `max` characters, trimmed (a zod string: more checks can follow, e.g. `.regex`). */
export const requiredText = (max: number) => z.string().trim().min(1, "validation.required").max(max, `validation.maxLength::${max}`);

const emailCheck = z.string().email();
/** The one e-mail rule (zod's e-mail check): for values already trimmed and lower-cased. */
export const isEmail = (value: string) => emailCheck.safeParse(value).success;

/** A required e-mail address: trimmed, at most 254 characters, checked by `isEmail`, lower-cased. */
export const email = z
  .string()
  .trim()
  .min(1, "validation.required")
  .max(254, "validation.maxLength::254")
  .email("validation.email")
  .transform((v) => v.toLowerCase());
