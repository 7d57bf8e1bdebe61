/**
 * RCS message content (spec section 3) and its rules (spec section 5, RBM's limits), without the
 * database: the one place that knows what an RCS message may hold, what it costs (basic or rich),
 * what it reads as (history, search, the SMS fallback) and how it goes to Google's RBM API
 * (`toRbm`: the bodies of phones/{msisdn}/agentMessages). Pure: also bundled into the composer's
 * live preview.
 *
 * Content (spec): { type: text | link | midia | card | card-carousel, messageText,
 * messageDescription, imageUrl, fileUrl, suggestions, images: [{ uri, title, description,
 * suggestions }] }.
 * - text: messageText (RBM: 3,072 characters at most).
 * - link: messageText with at least one "open URL" suggestion (the handset shows them as buttons).
 * - midia: a file by URL (fileUrl, or imageUrl), an optional messageText sent after it.
 * - card: a standalone rich card: title (messageText, 200), description (messageDescription,
 *   2,000), media (imageUrl or fileUrl); it needs a title or media.
 * - card-carousel: images, 2 to 10 cards, each a title or media (uri) and up to 4 suggestions.
 * Every type carries up to 11 suggestions (chips under the message): reply, open URL, dial, share
 * location, calendar event; each label 25 characters at most.
 */
import { z } from "../lib/zod";
import { publicMediaLink } from "../whatsapp/send";

export const RCS_TYPES = ["text", "link", "midia", "card", "card-carousel"] as const;
export type RcsType = (typeof RCS_TYPES)[number];

export const RCS_LIMITS = {
  /** Spec section 5: a text under 160 characters is priced basic. */
  basicChars: 160,
  /** RBM: a text message holds 3,072 characters. */
  text: 3072,
  cardTitle: 200,
  cardDescription: 2000,
  /** Spec section 5 and RBM: 10 cards in a carousel (RBM: at least 2). */
  carouselMin: 2,
  carouselMax: 10,
  /** Spec section 5 and RBM: 11 suggestions (chips) on a message; 4 on a card. */
  suggestions: 11,
  cardSuggestions: 4,
  /** RBM: a suggestion's label. */
  suggestionText: 25,
  postbackData: 2048,
  url: 2048,
} as const;

/**
 * The file types a media link may name (its path's extension): spec section 5's media links (jpg,
 * jpeg, png, mp3, mp4), the RCS upload types of the same section (webm, gif, webp, svg: an agent's
 * file in an RCS live room goes by its signed link, api/rcs/live.ts) and PDF, the file RBM
 * delivers as a document.
 */
export const RCS_MEDIA_EXTENSIONS = ["jpg", "jpeg", "png", "gif", "webp", "svg", "mp3", "mp4", "webm", "pdf"] as const;

/** A public https link the provider fetches, whose path ends in one of RCS_MEDIA_EXTENSIONS ('Invalid media URL'). */
export function rcsMediaLink(v: string): boolean {
  if (!publicMediaLink(v)) return false;
  const path = new URL(v).pathname.toLowerCase();
  return RCS_MEDIA_EXTENSIONS.some((ext) => path.endsWith(`.${ext}`));
}

/** The handset's kind of a media link: image, video, audio or file (by its extension). */
export function mediaKind(url: string): "image" | "video" | "audio" | "file" {
  let path = url.toLowerCase();
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {}
  if (/\.(jpe?g|png|gif|webp|svg)$/.test(path)) return "image";
  if (/\.(mp4|webm)$/.test(path)) return "video";
  if (/\.mp3$/.test(path)) return "audio";
  return "file";
}

const chars = (s: string) => Array.from(s).length;
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "validation.required")
    .refine((s) => chars(s) <= max, `validation.maxLength::${max}`);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .refine((s) => chars(s) <= max, `validation.maxLength::${max}`)
    .optional()
    .transform((s) => (s ? s : undefined));
const media = z.string().trim().max(RCS_LIMITS.url, `validation.maxLength::${RCS_LIMITS.url}`).refine(rcsMediaLink, "validation.rcsMediaUrl");
const optionalMedia = z
  .union([z.literal(""), media])
  .optional()
  .transform((s) => (s ? s : undefined));
const httpUrl = z
  .string()
  .trim()
  .max(RCS_LIMITS.url, `validation.maxLength::${RCS_LIMITS.url}`)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "https:" || u.protocol === "http:";
    } catch {
      return false;
    }
  }, "validation.httpUrl");
const label = text(RCS_LIMITS.suggestionText);
const postback = optionalText(RCS_LIMITS.postbackData);

export const SUGGESTION_TYPES = ["reply", "url", "dial", "location", "calendar"] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

export const suggestionSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("reply"), text: label, postbackData: postback }),
    z.object({ type: z.literal("url"), text: label, url: httpUrl, postbackData: postback }),
    z.object({
      type: z.literal("dial"),
      text: label,
      phoneNumber: z
        .string()
        .trim()
        .regex(/^\+[1-9]\d{7,14}$/, "validation.phone"),
      postbackData: postback,
    }),
    z.object({ type: z.literal("location"), text: label, postbackData: postback }),
    z.object({
      type: z.literal("calendar"),
      text: label,
      title: text(100),
      description: optionalText(500),
      startTime: z.iso.datetime({ offset: true, message: "validation.date" }),
      endTime: z.iso.datetime({ offset: true, message: "validation.date" }),
      postbackData: postback,
    }),
  ],
  "validation.option",
);
export type Suggestion = z.infer<typeof suggestionSchema>;

const suggestions = (max: number) =>
  z
    .array(suggestionSchema)
    .max(max, `validation.rcsSuggestionsMax::${max}`)
    .optional()
    .transform((s) => (s?.length ? s : undefined));

export const cardSchema = z
  .object({
    uri: optionalMedia,
    title: optionalText(RCS_LIMITS.cardTitle),
    description: optionalText(RCS_LIMITS.cardDescription),
    suggestions: suggestions(RCS_LIMITS.cardSuggestions),
  })
  .superRefine((c, ctx) => {
    if (!c.title && !c.uri) ctx.addIssue({ code: "custom", path: ["title"], message: "validation.rcsCardTitleOrMedia" });
  });
export type Card = z.infer<typeof cardSchema>;

export const rcsContentSchema = z
  .object({
    type: z.enum(RCS_TYPES, "validation.option"),
    messageText: optionalText(RCS_LIMITS.text),
    messageDescription: optionalText(RCS_LIMITS.cardDescription),
    imageUrl: optionalMedia,
    fileUrl: optionalMedia,
    suggestions: suggestions(RCS_LIMITS.suggestions),
    images: z
      .array(cardSchema)
      .max(RCS_LIMITS.carouselMax, `validation.rcsCardsMax::${RCS_LIMITS.carouselMax}`)
      .optional()
      .transform((s) => (s?.length ? s : undefined)),
  })
  .superRefine((c, ctx) => {
    const need = (path: string, message = "validation.required") => ctx.addIssue({ code: "custom", path: [path], message });
    switch (c.type) {
      case "text":
        if (!c.messageText) need("messageText");
        break;
      case "link":
        if (!c.messageText) need("messageText");
        if (!c.suggestions?.some((s) => s.type === "url")) need("suggestions", "validation.rcsLinkNeedsUrl");
        break;
      case "midia":
        if (!c.fileUrl && !c.imageUrl) need("fileUrl");
        break;
      case "card":
        if (chars(c.messageText ?? "") > RCS_LIMITS.cardTitle) need("messageText", `validation.maxLength::${RCS_LIMITS.cardTitle}`);
        if (!c.messageText && !c.imageUrl && !c.fileUrl) need("messageText", "validation.rcsCardTitleOrMedia");
        break;
      case "card-carousel":
        if ((c.images?.length ?? 0) < RCS_LIMITS.carouselMin) need("images", `validation.rcsCardsMin::${RCS_LIMITS.carouselMin}`);
        break;
    }
  });
export type RcsContent = z.infer<typeof rcsContentSchema>;

/** Spec section 5: a plain text under 160 characters (no suggestions) is basic; anything else rich. */
export type RcsPriceClass = "basic" | "rich";
export function priceClass(c: RcsContent): RcsPriceClass {
  return c.type === "text" && !c.suggestions && chars(c.messageText ?? "") < RCS_LIMITS.basicChars ? "basic" : "rich";
}

const urlsOf = (s: Suggestion[] | undefined) => (s ?? []).flatMap((x) => (x.type === "url" ? [x.url] : []));

/**
 * What the message reads as in plain text: the history's body and search, and the SMS a handset
 * that is not RCS-capable gets instead (its text and the links of its buttons and media).
 */
export function plainText(c: RcsContent): string {
  const lines: string[] = [];
  const push = (...v: Array<string | undefined>) => {
    for (const x of v) if (x) lines.push(x);
  };
  switch (c.type) {
    case "text":
    case "link":
      push(c.messageText, ...urlsOf(c.suggestions));
      break;
    case "midia":
      push(c.messageText, c.fileUrl ?? c.imageUrl, ...urlsOf(c.suggestions));
      break;
    case "card":
      push(c.messageText, c.messageDescription, c.imageUrl ?? c.fileUrl, ...urlsOf(c.suggestions));
      break;
    case "card-carousel":
      for (const card of c.images ?? []) push([card.title, card.description].filter(Boolean).join(" — ") || undefined, ...urlsOf(card.suggestions), card.uri);
      push(...urlsOf(c.suggestions));
      break;
  }
  return [...new Set(lines)].join("\n");
}

/** RBM's suggestion object (reply or action) of one of ours; `postback` defaults to the label. */
function rbmSuggestion(s: Suggestion): Record<string, unknown> {
  const postbackData = s.postbackData ?? s.text;
  switch (s.type) {
    case "reply":
      return { reply: { text: s.text, postbackData } };
    case "url":
      return { action: { text: s.text, postbackData, openUrlAction: { url: s.url } } };
    case "dial":
      return { action: { text: s.text, postbackData, dialAction: { phoneNumber: s.phoneNumber } } };
    case "location":
      return { action: { text: s.text, postbackData, shareLocationAction: {} } };
    case "calendar":
      return {
        action: {
          text: s.text,
          postbackData,
          createCalendarEventAction: { startTime: s.startTime, endTime: s.endTime, title: s.title, ...(s.description ? { description: s.description } : {}) },
        },
      };
  }
}

const rbmSuggestions = (s: Suggestion[] | undefined) => (s?.length ? { suggestions: s.map(rbmSuggestion) } : {});

function cardContent(card: { title?: string; description?: string; media?: string; suggestions?: Suggestion[] }, height: "MEDIUM" | "TALL") {
  return {
    ...(card.title ? { title: card.title } : {}),
    ...(card.description ? { description: card.description } : {}),
    ...(card.media ? { media: { height, contentInfo: { fileUrl: card.media, forceRefresh: false } } } : {}),
    ...rbmSuggestions(card.suggestions),
  };
}

/**
 * The RBM `contentMessage`s of one message, in order (RBM takes one kind of content per agent
 * message: a media with a caption is two). The message's suggestions ride on the last one.
 */
export function toRbm(c: RcsContent): Array<Record<string, unknown>> {
  const parts: Array<Record<string, unknown>> = [];
  switch (c.type) {
    case "text":
    case "link":
      parts.push({ text: c.messageText });
      break;
    case "midia":
      parts.push({ contentInfo: { fileUrl: c.fileUrl ?? c.imageUrl, forceRefresh: false } });
      if (c.messageText) parts.push({ text: c.messageText });
      break;
    case "card":
      parts.push({
        richCard: {
          standaloneCard: {
            cardOrientation: "VERTICAL",
            cardContent: cardContent({ title: c.messageText, description: c.messageDescription, media: c.imageUrl ?? c.fileUrl }, "TALL"),
          },
        },
      });
      break;
    case "card-carousel":
      parts.push({
        richCard: {
          carouselCard: {
            cardWidth: "MEDIUM",
            cardContents: (c.images ?? []).map((card) =>
              cardContent({ title: card.title, description: card.description, media: card.uri, suggestions: card.suggestions }, "MEDIUM"),
            ),
          },
        },
      });
      break;
  }
  const last = parts.length - 1;
  return parts.map((p, i) => (i === last ? { ...p, ...rbmSuggestions(c.suggestions) } : p));
}
