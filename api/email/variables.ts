/**
 * Variables of e-mail templates (issue 17, ADR 037), pure (no imports beyond the SMS parser, which
 * is pure too): the screens, the preview and the accept use-case fill templates the same way.
 *
 * The syntax is the SMS templates' (`{{first_name}}`, `{{ first_name }}`; names of letters, digits
 * and `_`, case-sensitive; anything else is text). A value is HTML-escaped in the HTML part; in the
 * subject every line break or control character becomes a space (no header injection); a variable
 * no source gives is filled with "" (an e-mail to a contact without a first name still goes).
 */
import { parseTemplate, templateVariables } from "../sms/template-vars";

export type VariableValue = string | number | boolean | null | undefined;
export type VariableValues = Record<string, VariableValue>;

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
/** Line breaks and other control characters (a header is one line). */
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

export type FillMode = { html?: boolean; header?: boolean };

/** The first source that gives `name` a non-blank value, as text ("" when none does). */
function givenValue(name: string, sources: Array<VariableValues | null | undefined>): string {
  for (const s of sources) {
    const v = s?.[name];
    if (v !== null && v !== undefined && String(v).trim() !== "") return String(v);
  }
  return "";
}

/**
 * `text` with each {{variable}} replaced by its value from `values` (or a later source):
 * HTML-escaped with `{html: true}`, control characters as spaces with `{header: true}`.
 */
export function fillVariables(text: string, values: VariableValues | Array<VariableValues | null | undefined>, mode: FillMode = {}): string {
  const sources = Array.isArray(values) ? values : [values];
  const { texts, vars } = parseTemplate(text);
  let out = texts[0];
  for (let i = 0; i < vars.length; i++) {
    let v = givenValue(vars[i], sources);
    if (mode.header) v = v.replace(CONTROL, " ");
    if (mode.html) v = escapeHtml(v);
    out += v + texts[i + 1];
  }
  return mode.header ? out.replace(CONTROL, " ").trim() : out;
}

export type EmailParts = { subject: string; html: string; text: string | null };

/** A template's subject, HTML and text filled with the values (the rules above). */
export function fillParts(parts: EmailParts, values: VariableValues | Array<VariableValues | null | undefined>): EmailParts {
  return {
    subject: fillVariables(parts.subject, values, { header: true }),
    html: fillVariables(parts.html, values, { html: true }),
    text: parts.text === null ? null : fillVariables(parts.text, values),
  };
}

/** The distinct variables a template uses (subject, source, text), in order of first use. */
export function partsVariables(...texts: Array<string | null | undefined>): string[] {
  return [...new Set(texts.flatMap((t) => (t ? templateVariables(t) : [])))];
}

/** Sample values a preview without a contact shows. */
export const SAMPLE_VALUES: Record<string, string> = {
  first_name: "Maria",
  last_name: "Silva",
  name: "Maria Silva",
  email: "maria.silva@example.com",
  mobile: "+5511999990000",
  company: "Loja Exemplo",
  city: "São Paulo",
  state: "SP",
};
