/**
 * Live chat limits shared by the API and the screens (spec sections 3 and 9). No imports: the web
 * bundle may include this file.
 */

/** Suggestion buttons under one agent message, and the characters of each. */
export const SUGGESTIONS_MAX = 11;
export const SUGGESTION_MAX_LENGTH = 25;

/** "Typing…" (api/live/typing.ts): at most one signal per side and room this often; shown this long. */
export const TYPING_EVERY_MS = 2500;
export const TYPING_SHOW_MS = 6000;

/**
 * The widget re-reads its public config (greeting or offline message, opening hours, departments)
 * this often while its panel is open and shown, and no agent attends the visitor's conversation;
 * and on opening the panel when the last read is older (public-src/widget/index.ts, ADR 018).
 */
export const WIDGET_CONFIG_EVERY_MS = 15_000;

/**
 * The kinds of file a live room takes, by the extension its first bytes prove (api/live/uploads.ts
 * detectFile), and the media type a file picker offers for each. Spec section 5: live files are
 * jpeg, png, ogg, mp4 (H.264), webp sticker, doc, pdf, zip; an RCS room only mp4, webm, jpeg, gif,
 * png, webp and svg (RBM fetches the file, a handset shows it; RCS has no stickers: its webp is an image).
 */
export const FILE_MEDIA_TYPES = {
  jpg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pdf: "application/pdf",
  zip: "application/zip",
} as const;
export type FileExtension = keyof typeof FILE_MEDIA_TYPES;

export const LIVE_FILE_TYPES: readonly FileExtension[] = ["jpg", "png", "ogg", "mp4", "webp", "doc", "docx", "pdf", "zip"];
/** A channel's own list, where it is not LIVE_FILE_TYPES: its files and the names its refusal lists (LIVE_FILE_TYPE_CHANNEL). */
export const CHANNEL_FILE_TYPES: Readonly<Record<string, { types: readonly FileExtension[]; names: string }>> = {
  rcs: { types: ["mp4", "webm", "jpg", "gif", "png", "webp", "svg"], names: "MP4, WebM, JPEG, GIF, PNG, WebP, SVG" },
};

/** The file types of a channel's rooms. */
export const fileTypesOf = (channel: string): readonly FileExtension[] => CHANNEL_FILE_TYPES[channel]?.types ?? LIVE_FILE_TYPES;

/** The `accept` of a room's file picker: the media types of its channel's files. */
export const fileAccept = (channel: string) => [...new Set(fileTypesOf(channel).map((ext) => FILE_MEDIA_TYPES[ext]))].join(",");
