/**
 * MJML to e-mail HTML (issue 17, ADR 037), on the server at save: mjml (the MJML project's own
 * compiler) turns the source into table-based responsive HTML with inlined styles that real mail
 * clients render. Strict validation: an unknown tag or attribute is an error, answered on the
 * `mjml` field with the compiler's first message (translated frame, MJML's own text). Includes
 * (`<mj-include>`) are ignored: a tenant's source never reads the server's files. The compiled
 * HTML is at most MAX_HTML_BYTES, like a message's HTML part.
 */
import mjml2html from "mjml";
import { AppError } from "../lib/errors";
import { MAX_HTML_BYTES } from "./schemas";

const mjmlError = (message: string) =>
  new AppError("VALIDATION", { fields: { mjml: [`validation.emailMjml::${message.replace(/::/g, ":").replace(/\s+/g, " ").trim().slice(0, 300)}`] } });

/** The HTML of an MJML source, or a 422 on `mjml` (a compile error, or HTML past the limit). */
export async function compileMjml(source: string): Promise<string> {
  let html: string;
  try {
    const out = await mjml2html(source, { validationLevel: "strict", ignoreIncludes: true, keepComments: false });
    if (out.errors?.length) throw Object.assign(new Error("MJML"), { errors: out.errors });
    html = out.html;
  } catch (e) {
    const first = (e as { errors?: Array<{ line?: number; message?: string }> }).errors?.[0];
    throw mjmlError(first?.message ? (first.line ? `line ${first.line}: ${first.message}` : first.message) : (e as Error).message || "invalid");
  }
  if (new TextEncoder().encode(html).length > MAX_HTML_BYTES) throw new AppError("VALIDATION", { fields: { mjml: [`validation.emailHtmlSize::${MAX_HTML_BYTES / 1024}`] } });
  return html;
}
