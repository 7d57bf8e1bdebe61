/**
 * The RCS composer's form (/rcs/send) without React or the database: what its inputs are named,
 * how the posted fields become the spec's content (api/rcs/content.ts; empty card and suggestion
 * slots dropped), how the send's field errors (`content.images.2.title`, counted without the empty
 * slots) find their input again, and the price class the screen shows while one types. Bundled
 * into the browser (the live preview), so it imports nothing heavy: the content's rules stay the
 * send's (acceptRcs / quoteRcs check them on the server).
 *
 * Inputs are named like the content's paths: `content.type`, `content.messageText`,
 * `content.suggestions.3.text`, `content.images.4.title`, `content.images.4.suggestions.1.url`.
 * Without JavaScript every slot is posted (CARD_SLOTS cards of CARD_BUTTONS buttons,
 * SUGGESTION_SLOTS suggestions); more posted slots are read too (the send then refuses them).
 */
import type { PreviewContent, PreviewSuggestion } from "./preview";

export const RCS_TYPES = ["text", "link", "midia", "card", "card-carousel"] as const;
export const SUGGESTION_TYPES = ["reply", "url", "dial", "location", "calendar"] as const;
/** The composer's slots: RBM's limits (api/rcs/content.ts RCS_LIMITS: 10 cards, 4 buttons a card, 11 suggestions). */
export const CARD_SLOTS = 10;
export const CARD_BUTTONS = 4;
export const SUGGESTION_SLOTS = 11;
/** api/rcs/content.ts RCS_LIMITS.basicChars. */
const BASIC_CHARS = 160;

export type SlotSuggestion = { type: string; text: string; url: string; phoneNumber: string; title: string; startTime: string; endTime: string };
export type SlotCard = { title: string; description: string; uri: string; suggestions: SlotSuggestion[] };
/** Everything the form holds, slot by slot (empty ones included): what the page is re-rendered with. */
export type ComposerState = {
  agent_id: string;
  to: string;
  fallback_sms: boolean;
  type: string;
  messageText: string;
  messageDescription: string;
  imageUrl: string;
  fileUrl: string;
  suggestions: SlotSuggestion[];
  cards: SlotCard[];
};

export const emptySuggestion = (): SlotSuggestion => ({ type: "reply", text: "", url: "", phoneNumber: "", title: "", startTime: "", endTime: "" });
export const emptyCard = (): SlotCard => ({ title: "", description: "", uri: "", suggestions: [] });
export const emptyState = (over: Partial<ComposerState> = {}): ComposerState => ({
  agent_id: "",
  to: "",
  fallback_sms: false,
  type: "text",
  messageText: "",
  messageDescription: "",
  imageUrl: "",
  fileUrl: "",
  suggestions: [],
  cards: [],
  ...over,
});

/** An input's name for a path of the content. */
export const inputName = (...path: Array<string | number>) => ["content", ...path].join(".");

const SUGGESTION_FIELDS = ["type", "text", "url", "phoneNumber", "title", "startTime", "endTime"] as const;
const CARD_FIELDS = ["title", "description", "uri"] as const;

type Entries = Iterable<[string, FormDataEntryValue]>;

/** The posted fields as the composer's state (every slot posted, in index order). */
export function stateFromForm(form: Entries): ComposerState {
  const s = emptyState();
  const str = (v: FormDataEntryValue) => (typeof v === "string" ? v : "");
  const suggestionAt = (list: SlotSuggestion[], i: number) => {
    while (list.length <= i) list.push(emptySuggestion());
    return list[i];
  };
  const cardAt = (i: number) => {
    while (s.cards.length <= i) s.cards.push(emptyCard());
    return s.cards[i];
  };
  const MAX_SLOT = 99;
  for (const [name, raw] of form) {
    const v = str(raw);
    if (name === "agent_id" || name === "to") s[name] = v.trim();
    else if (name === "fallback_sms") s.fallback_sms = v === "on" || v === "true";
    let m: RegExpExecArray | null;
    if ((m = /^content\.(type|messageText|messageDescription|imageUrl|fileUrl)$/.exec(name))) s[m[1] as "type"] = v;
    else if ((m = /^content\.suggestions\.(\d{1,2})\.(\w+)$/.exec(name)) && Number(m[1]) <= MAX_SLOT && (SUGGESTION_FIELDS as readonly string[]).includes(m[2]))
      suggestionAt(s.suggestions, Number(m[1]))[m[2] as keyof SlotSuggestion] = v;
    else if ((m = /^content\.images\.(\d{1,2})\.(\w+)$/.exec(name)) && Number(m[1]) <= MAX_SLOT && (CARD_FIELDS as readonly string[]).includes(m[2]))
      cardAt(Number(m[1]))[m[2] as "title"] = v;
    else if (
      (m = /^content\.images\.(\d{1,2})\.suggestions\.(\d{1,2})\.(\w+)$/.exec(name)) &&
      Number(m[1]) <= MAX_SLOT &&
      Number(m[2]) <= MAX_SLOT &&
      (SUGGESTION_FIELDS as readonly string[]).includes(m[3])
    )
      suggestionAt(cardAt(Number(m[1])).suggestions, Number(m[2]))[m[3] as keyof SlotSuggestion] = v;
  }
  return s;
}

/** The state of a saved content (a template): the composer loaded with it. */
export function stateFromContent(c: PreviewContent | null | undefined, over: Partial<ComposerState> = {}): ComposerState {
  const sug = (x: PreviewSuggestion & { startTime?: string; endTime?: string }): SlotSuggestion => ({
    ...emptySuggestion(),
    type: x.type ?? "reply",
    text: x.text ?? "",
    url: x.url ?? "",
    phoneNumber: x.phoneNumber ?? "",
    title: x.title ?? "",
    startTime: toLocalInput(x.startTime ?? ""),
    endTime: toLocalInput(x.endTime ?? ""),
  });
  return emptyState({
    type: (RCS_TYPES as readonly string[]).includes(c?.type ?? "") ? (c?.type as string) : "text",
    messageText: c?.messageText ?? "",
    messageDescription: c?.messageDescription ?? "",
    imageUrl: c?.imageUrl ?? "",
    fileUrl: c?.fileUrl ?? "",
    suggestions: (c?.suggestions ?? []).map(sug),
    cards: (c?.images ?? []).map((card) => ({ title: card.title ?? "", description: card.description ?? "", uri: card.uri ?? "", suggestions: (card.suggestions ?? []).map(sug) })),
    ...over,
  });
}

const filled = (s: SlotSuggestion) => Boolean(s.text.trim() || s.url.trim() || s.phoneNumber.trim() || s.title.trim() || s.startTime || s.endTime);
const cardFilled = (c: SlotCard) => Boolean(c.title.trim() || c.description.trim() || c.uri.trim() || c.suggestions.some(filled));

/** São Paulo's offset (no daylight saving since 2019): a datetime-local input's value as the ISO time the content takes. */
const SAO_PAULO_OFFSET = "-03:00";
function toIso(local: string): string {
  const v = local.trim();
  if (!v) return "";
  if (/[zZ]|[+-]\d{2}:\d{2}$/.test(v)) return v;
  return `${v.length === 16 ? `${v}:00` : v}${SAO_PAULO_OFFSET}`;
}
/** An ISO time as a datetime-local input's value in São Paulo. */
function toLocalInput(iso: string): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Date(d.getTime() - 3 * 3600_000).toISOString().slice(0, 16);
}

type OutSuggestion = Record<string, string>;
function suggestionOut(s: SlotSuggestion): OutSuggestion {
  const out: OutSuggestion = { type: s.type || "reply", text: s.text };
  if (s.type === "url") out.url = s.url;
  if (s.type === "dial") out.phoneNumber = s.phoneNumber;
  if (s.type === "calendar") Object.assign(out, { title: s.title, startTime: toIso(s.startTime), endTime: toIso(s.endTime) });
  return out;
}

/** Which slot each kept item came from, to put the send's errors back at their inputs. */
export type SlotMap = { suggestions: number[]; cards: number[]; cardButtons: number[][] };

/**
 * The content to send (the fields of its type, empty slots dropped) and where each kept item came
 * from. Card slots count only for a carousel.
 */
export function contentOf(s: ComposerState): { content: Record<string, unknown>; slots: SlotMap } {
  const slots: SlotMap = { suggestions: [], cards: [], cardButtons: [] };
  const content: Record<string, unknown> = { type: s.type };
  if (s.type !== "card-carousel" && s.messageText.trim()) content.messageText = s.messageText;
  if (s.type === "card" && s.messageDescription.trim()) content.messageDescription = s.messageDescription;
  if (s.type === "midia" || s.type === "card") {
    if (s.imageUrl.trim()) content.imageUrl = s.imageUrl.trim();
    if (s.fileUrl.trim()) content.fileUrl = s.fileUrl.trim();
  }
  const suggestions: OutSuggestion[] = [];
  s.suggestions.forEach((x, i) => {
    if (!filled(x)) return;
    slots.suggestions.push(i);
    suggestions.push(suggestionOut(x));
  });
  if (suggestions.length) content.suggestions = suggestions;
  if (s.type === "card-carousel") {
    const images: Record<string, unknown>[] = [];
    s.cards.forEach((c, i) => {
      if (!cardFilled(c)) return;
      const buttons: number[] = [];
      const out: Record<string, unknown> = {};
      if (c.uri.trim()) out.uri = c.uri.trim();
      if (c.title.trim()) out.title = c.title;
      if (c.description.trim()) out.description = c.description;
      const cardSuggestions: OutSuggestion[] = [];
      c.suggestions.forEach((x, j) => {
        if (!filled(x)) return;
        buttons.push(j);
        cardSuggestions.push(suggestionOut(x));
      });
      if (cardSuggestions.length) out.suggestions = cardSuggestions;
      slots.cards.push(i);
      slots.cardButtons.push(buttons);
      images.push(out);
    });
    if (images.length) content.images = images;
  }
  return { content, slots };
}

/**
 * The send's error field names (`content.images.2.suggestions.0.text`, counted over the kept
 * items) as the form's input names (the slots they came from). Other names pass unchanged.
 */
export function errorFieldsToInputs(fields: Record<string, string[]>, slots: SlotMap): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(fields)) {
    let name = k;
    let m: RegExpExecArray | null;
    if ((m = /^content\.images\.(\d+)\.suggestions\.(\d+)(\..*)?$/.exec(k))) {
      const card = slots.cards[Number(m[1])] ?? Number(m[1]);
      name = `content.images.${card}.suggestions.${slots.cardButtons[Number(m[1])]?.[Number(m[2])] ?? m[2]}${m[3] ?? ""}`;
    } else if ((m = /^content\.images\.(\d+)(\..*)?$/.exec(k))) name = `content.images.${slots.cards[Number(m[1])] ?? m[1]}${m[2] ?? ""}`;
    else if ((m = /^content\.suggestions\.(\d+)(\..*)?$/.exec(k))) name = `content.suggestions.${slots.suggestions[Number(m[1])] ?? m[1]}${m[2] ?? ""}`;
    (out[name] ??= []).push(...v);
  }
  return out;
}

/**
 * The price class of what is typed (api/rcs/content.ts priceClass, the rule the send charges by:
 * a plain text under 160 characters without suggestions is basic, anything else rich). Kept equal
 * to it by composer.test.ts.
 */
export function previewPriceClass(content: { type?: unknown; messageText?: unknown; suggestions?: unknown[] }): "basic" | "rich" {
  const text = typeof content.messageText === "string" ? content.messageText.trim() : "";
  return content.type === "text" && !content.suggestions?.length && Array.from(text).length < BASIC_CHARS ? "basic" : "rich";
}

/** The preview's content of the state: what the handset would show now (half-typed slots too). */
export function previewOf(s: ComposerState): PreviewContent {
  const { content } = contentOf(s);
  return content as PreviewContent;
}
