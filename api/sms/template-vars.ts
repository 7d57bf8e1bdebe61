/**
 * Template variables of SMS bodies (pure, no imports: the API, the accept use-case, the SQL
 * renderer of group/file sends and the send screen all read templates the same way).
 *
 * Syntax: `{{name}}` where name is 1..40 letters (A-Z, a-z), digits and `_`; spaces inside the
 * braces are allowed (`{{ first_name }}`). Names are case-sensitive. Anything else — a single
 * brace, `{{}}`, `{{two words}}`, `{{ç}}` — is plain text and sent as written.
 */

export const VARIABLE_NAME = /^[A-Za-z0-9_]{1,40}$/;
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]{1,40})\s*\}\}/g;

/** A template split into its literal text and variables, in order (texts.length === vars.length + 1). */
export type ParsedTemplate = { texts: string[]; vars: string[] };

export function parseTemplate(body: string): ParsedTemplate {
  const texts: string[] = [];
  const vars: string[] = [];
  let last = 0;
  for (const m of body.matchAll(PLACEHOLDER)) {
    texts.push(body.slice(last, m.index));
    vars.push(m[1]);
    last = m.index! + m[0].length;
  }
  texts.push(body.slice(last));
  return { texts, vars };
}

/** The distinct variable names of a body, in order of first use. */
export function templateVariables(body: string): string[] {
  return [...new Set(parseTemplate(body).vars)];
}

export type Variables = Record<string, string | number | boolean | null | undefined>;

/** A value counts as given when it is not null/undefined and not blank. */
function given(v: Variables[string]): v is string | number | boolean {
  return v !== null && v !== undefined && String(v).trim() !== "";
}

/**
 * The body with every variable replaced by its value (first source that has it wins), or the
 * first variable no source gives (`missing`).
 */
export function renderTemplate(body: string, ...sources: Array<Variables | null | undefined>): { text: string; missing: null } | { text: null; missing: string } {
  const { texts, vars } = parseTemplate(body);
  let out = texts[0];
  for (let i = 0; i < vars.length; i++) {
    const source = sources.find((s) => s && given(s[vars[i]]));
    if (!source) return { text: null, missing: vars[i] };
    out += String(source[vars[i]]) + texts[i + 1];
  }
  return { text: out, missing: null };
}

/** A CSV header as a variable name: accents dropped, lowercased, other characters as `_` ("Nome do Cliente" -> nome_do_cliente). */
export function columnVariable(header: string): string {
  return header
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40);
}
