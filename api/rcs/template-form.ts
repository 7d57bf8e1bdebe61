/**
 * The RCS template editor's form (issue 21), server side (api/rcs/content.ts is not browser-safe): a plain form (no JavaScript
 * needed) with a type, the message's fields, MESSAGE_SLOTS suggestion slots and CARD_SLOTS card
 * slots of CARD_SUGGESTION_SLOTS suggestions each — or, for anything the slots do not offer
 * (location and calendar suggestions, more chips), the content as JSON in `json`, which then wins.
 * `formToContent` turns what was posted into the spec's content (empty slots dropped); the schema
 * then checks it with rcsContentSchema, so a refusal names the slot's field
 * (`images[1].title`, `suggestions[0].url`).
 */
import { z } from "../lib/zod";
import { CARD_SUGGESTION_SLOTS, MESSAGE_SLOTS, SLOT_SUGGESTION_TYPES, templateNameSchema } from "./agent-schema";
import { type RcsContent, rcsContentSchema } from "./content";

type Loose = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");
const list = (v: unknown): Loose[] => (Array.isArray(v) ? v.filter((x): x is Loose => x !== null && typeof x === "object") : []);

/** A slot's suggestion as the content's (its value goes to url or phoneNumber by type); an empty slot is null. */
function slotSuggestion(s: Loose): Loose | null {
  const type = str(s.type) || "reply";
  const text = str(s.text);
  const value = str(s.value ?? s.url ?? s.phoneNumber);
  if (!text && !value) return null;
  if (type === "url") return { type, text, url: value };
  if (type === "dial") return { type, text, phoneNumber: value };
  return { type, text };
}

/** What the form posted, as content (not yet checked): the JSON field when given, else the fields and filled slots. */
export function formToContent(v: unknown): unknown {
  const f = (v ?? {}) as Loose;
  const raw = str(f.json);
  if (raw) {
    try {
      return JSON.parse(raw);
    } catch {
      return { __json: false };
    }
  }
  const type = str(f.type);
  const suggestions = list(f.suggestions)
    .map(slotSuggestion)
    .filter((s) => s !== null);
  const images =
    type === "card-carousel"
      ? list(f.images)
          .map((c) => ({
            uri: str(c.uri) || undefined,
            title: str(c.title) || undefined,
            description: str(c.description) || undefined,
            suggestions: list(c.suggestions)
              .map(slotSuggestion)
              .filter((s) => s !== null),
          }))
          .filter((c) => c.uri || c.title || c.description || c.suggestions.length)
      : undefined;
  return {
    type,
    messageText: str(f.messageText) || undefined,
    messageDescription: str(f.messageDescription) || undefined,
    imageUrl: str(f.imageUrl) || undefined,
    fileUrl: str(f.fileUrl) || undefined,
    suggestions,
    images,
  };
}

/** The editor's fields: the name, and the content from the fields or the JSON (a JSON that does not parse: one message on it). */
export const templateFormSchema = z
  .object({ name: templateNameSchema, id: z.string().optional(), group_id: z.string().optional() })
  .passthrough()
  .transform((v, ctx) => {
    const raw = formToContent(v);
    if ((raw as Loose).__json === false) {
      ctx.addIssue({ code: "custom", path: ["json"], message: "rcs.templates.errors.json" });
      return z.NEVER;
    }
    const parsed = rcsContentSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      return z.NEVER;
    }
    return { id: v.id, group_id: v.group_id || null, name: v.name, content: parsed.data as RcsContent };
  });

/** A stored content as the form's fields (the editor's initial values): slots filled in order, the rest as JSON when the slots cannot hold it. */
export function contentToForm(c: RcsContent): Record<string, unknown> {
  const slotOf = (s: NonNullable<RcsContent["suggestions"]>[number]) => ({
    type: s.type,
    text: s.text,
    value: s.type === "url" ? s.url : s.type === "dial" ? s.phoneNumber : "",
  });
  const slotable = (s: RcsContent["suggestions"], max: number) => !s || (s.length <= max && s.every((x) => (SLOT_SUGGESTION_TYPES as readonly string[]).includes(x.type)));
  const fits = slotable(c.suggestions, MESSAGE_SLOTS) && (c.images ?? []).every((card) => slotable(card.suggestions, CARD_SUGGESTION_SLOTS));
  return {
    type: c.type,
    messageText: c.messageText ?? "",
    messageDescription: c.messageDescription ?? "",
    imageUrl: c.imageUrl ?? "",
    fileUrl: c.fileUrl ?? "",
    suggestions: (c.suggestions ?? []).slice(0, MESSAGE_SLOTS).map(slotOf),
    images: (c.images ?? []).map((card) => ({
      uri: card.uri ?? "",
      title: card.title ?? "",
      description: card.description ?? "",
      suggestions: (card.suggestions ?? []).map(slotOf),
    })),
    json: fits ? "" : JSON.stringify(c, null, 2),
  };
}
