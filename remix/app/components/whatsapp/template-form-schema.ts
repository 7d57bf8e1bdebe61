/**
 * The /whatsapp/templates/new form as posted (no JavaScript needed: a fixed set of fields) and its
 * translation into the use-case's input (api/whatsapp/schemas.ts createTemplateSchema, Meta's rules):
 * - the header as header_type (none, text, image, video, document) with header_text, header_example
 *   and header_url, one of which counts;
 * - the body's examples as one line each (body_examples);
 * - BUTTON_SLOTS button rows `buttons[i]` (type none, quick_reply, url or phone; text, url,
 *   example, phone), the rows left at "none" skipped.
 * The same rules run here (the browser, before posting) and in the action, and every error — a
 * rule's, or the use-case's own (a name already taken) — is reported on the field that shows it:
 * an error on the 2nd button given lands on the row where it was typed.
 */
import { z } from "~api/lib/zod";
import { createTemplateSchema, type CreateTemplateInput } from "~api/whatsapp/schemas";
import { BUTTON_SLOTS } from "./template-form-options";
export { BUTTON_SLOTS, HEADER_TYPES, BUTTON_TYPES, CATEGORIES, LANGUAGES } from "./template-form-options";

const text = z.string().optional();
const slot = z.object({ type: text, text, url: text, example: text, phone: text }).optional();

const formFields = z.object({
  number_id: text,
  name: text,
  category: text,
  language: text,
  header_type: text,
  header_text: text,
  header_example: text,
  header_url: text,
  body: text,
  body_examples: text,
  footer: text,
  buttons: z.array(slot).optional(),
});
export type TemplateForm = z.infer<typeof formFields>;

/** The use-case's input from the form, and for each button given the form row it came from. */
export function templateInput(form: TemplateForm): { input: Record<string, unknown>; slots: number[] } {
  const headerType = form.header_type || "none";
  const header =
    headerType === "none"
      ? null
      : headerType === "text"
        ? { type: "text", text: form.header_text ?? "", ...(form.header_example ? { example: form.header_example } : {}) }
        : { type: headerType, url: form.header_url ?? "" };
  const slots: number[] = [];
  const buttons: Array<Record<string, string>> = [];
  (form.buttons ?? []).slice(0, BUTTON_SLOTS).forEach((b, i) => {
    const type = b?.type || "none";
    if (type === "none") return;
    slots.push(i);
    if (type === "quick_reply") buttons.push({ type, text: b?.text ?? "" });
    else if (type === "phone") buttons.push({ type, text: b?.text ?? "", phone: b?.phone ?? "" });
    else buttons.push({ type, text: b?.text ?? "", url: b?.url ?? "", ...(b?.example ? { example: b.example } : {}) });
  });
  const examples = (form.body_examples ?? "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return {
    input: {
      number_id: form.number_id ?? "",
      name: form.name ?? "",
      category: form.category ?? "",
      language: form.language ?? "",
      header,
      body: form.body ?? "",
      body_examples: examples,
      footer: form.footer || null,
      buttons,
    },
    slots,
  };
}

const HEADER_FIELD: Record<string, string> = { text: "header_text", example: "header_example", url: "header_url", type: "header_type" };

/** A use-case error path ("buttons.1.url", "header.url", "body_examples.0") as the form field that shows it ("buttons[2].url", "header_url", "body_examples"); "" for the form. */
export function formFieldOf(path: ReadonlyArray<string | number>, slots: number[]): string {
  const [head, second, third] = path;
  if (head === undefined || head === "form") return "";
  if (head === "header") return HEADER_FIELD[String(second ?? "type")] ?? "header_type";
  if (head === "body_examples") return "body_examples";
  if (head === "buttons") {
    if (second === undefined) return "buttons";
    const row = slots[Number(second)] ?? Number(second);
    return `buttons[${row}].${third === undefined ? "type" : String(third)}`;
  }
  return String(head);
}

/** The use-case's field errors ({"buttons.1.url": [...]}) keyed by the form's field names. */
export function formFieldErrors(fields: Record<string, string[]>, slots: number[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(fields)) {
    const name = formFieldOf(
      k.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      slots,
    );
    (out[name] ??= []).push(...v);
  }
  return out;
}

const LOCALE_KEY = /^[a-z][A-Za-z]*\.[\w.]+(::\S*)?$/;

/** The form's schema: the fields as posted, then Meta's rules (createTemplateSchema) on the translated input, each error on its field. */
export const templateFormSchema = formFields.superRefine((form, ctx) => {
  const { input, slots } = templateInput(form);
  const result = createTemplateSchema.safeParse(input);
  if (result.success) return;
  for (const issue of result.error.issues) {
    const name = formFieldOf(issue.path as Array<string | number>, slots);
    const path = name
      ? name
          .split(/[.[\]]+/)
          .filter(Boolean)
          .map((p) => (/^\d+$/.test(p) ? Number(p) : p))
      : [];
    ctx.addIssue({ code: "custom", path, message: LOCALE_KEY.test(issue.message) ? issue.message : "validation.invalid" });
  }
});

export type { CreateTemplateInput };
