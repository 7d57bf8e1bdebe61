/**
 * Files a WhatsApp send takes from the person's computer (issue 16): the send screen's file field
 * and POST /api/whatsapp/media (multipart), whose answer's `id` a send names as Graph does
 * (`image: {id}`). Checked by content, never by name or declared type, against Meta's rules for
 * the kind of message chosen (spec section 5 "Live uploads" for the sizes):
 *   image    JPEG, PNG                                        14,680,064 bytes
 *   video    MP4 or 3GPP with H.264 video                     16,777,216
 *   audio    AAC, MP4 (AAC), MPEG (MP3), AMR, OGG (Opus)     104,857,600
 *   document PDF, DOC(X), XLS(X), PPT(X), TXT                104,857,600
 *   sticker  WebP, 512x512 pixels                             100 KB
 * The size is enforced while the bytes arrive (the stream is dropped past the limit: nothing kept);
 * an image must decode (PNG: its chunks' CRCs and its pixel rows inflate to exactly the header's
 * size; JPEG: its segments, frame and scans up to the end marker), else 'Invalid image or corrupted'.
 *
 * Kept where live chat keeps its files (api/live/uploads.ts: the bytes once under their SHA-256,
 * a live_files row of the account without a room), and sent the way an agent's file is (ADR 034):
 * the message's Graph object carries a signed link of ours (24 h) that the provider fetches.
 */
import { createInflate } from "node:zlib";
import { open } from "node:fs/promises";
import { fileTypeFromFile } from "file-type";
import type { SignedInCtx } from "../lib/context";
import { crc32 } from "../lib/crc32";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { row } from "../lib/sql";
import { can } from "../policy/policy";
import { MultipartReader } from "../imports/multipart";
import {
  cleanName,
  dropSpooled,
  keepSpooled,
  recordFile,
  signedFileUrl,
  spoolFile,
  STICKER_MAX_BYTES,
  STICKER_MAX_SIDE,
  type Spooled,
  uploadLimit,
  webpSize,
} from "../live/uploads";

export const MEDIA_KINDS = ["image", "video", "audio", "document", "sticker"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];
export const isMediaKind = (v: unknown): v is MediaKind => typeof v === "string" && (MEDIA_KINDS as readonly string[]).includes(v);

/** What each kind accepts, by media type, and how the refusal names it. */
export const MEDIA_TYPES: Record<MediaKind, { types: string[]; names: string }> = {
  image: { types: ["image/jpeg", "image/png"], names: "JPEG, PNG" },
  video: { types: ["video/mp4", "video/3gpp"], names: "MP4, 3GPP (H.264)" },
  audio: { types: ["audio/aac", "audio/mp4", "audio/mpeg", "audio/amr", "audio/ogg"], names: "AAC, MP4, MP3, AMR, OGG (Opus)" },
  document: {
    types: [
      "application/pdf",
      "application/msword",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.ms-excel",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "application/vnd.ms-powerpoint",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
      "text/plain",
    ],
    names: "PDF, DOC, DOCX, XLS, XLSX, PPT, PPTX, TXT",
  },
  sticker: { types: ["image/webp"], names: "WebP" },
};

const EXT: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "video/3gpp": "3gp",
  "audio/aac": "aac",
  "audio/mp4": "m4a",
  "audio/mpeg": "mp3",
  "audio/amr": "amr",
  "audio/ogg": "ogg",
  "application/pdf": "pdf",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.ms-powerpoint": "ppt",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "text/plain": "txt",
};

/** The kind a file is sent as when the upload does not say (a WebP is a sticker). */
function kindOf(mediaType: string): MediaKind {
  if (mediaType === "image/webp") return "sticker";
  if (mediaType.startsWith("image/")) return "image";
  if (mediaType.startsWith("video/")) return "video";
  if (mediaType.startsWith("audio/")) return "audio";
  return "document";
}

/** The most bytes a kind takes (the spec's WhatsApp limits, as live chat's; a sticker 100 KB). */
export function mediaLimit(kind: MediaKind): number {
  return kind === "sticker" ? STICKER_MAX_BYTES : uploadLimit("whatsapp", kind);
}
const LARGEST = Math.max(...MEDIA_KINDS.map(mediaLimit));

const fileError = (code: "LIVE_FILE_TOO_LARGE" | "LIVE_FILE_TYPE" | "VALIDATION", key: string, params?: Record<string, number>) =>
  new AppError(code, { fields: { file: [key] }, params });

/** 'Invalid file size', naming the kind's limit in MB (a sticker's in KB). */
export function mediaTooLarge(kind: MediaKind | null): AppError {
  if (kind === "sticker") return fileError("LIVE_FILE_TOO_LARGE", "validation.waStickerSize", { limit: STICKER_MAX_BYTES });
  const limit = kind ? mediaLimit(kind) : LARGEST;
  return fileError("LIVE_FILE_TOO_LARGE", `validation.waMediaSize::${Math.round(limit / 1024 / 1024)}`, { limit });
}
const wrongType = (kind: MediaKind | null) =>
  fileError("LIVE_FILE_TYPE", kind ? `validation.waMediaType::${MEDIA_TYPES[kind].names}` : `validation.waMediaType::${MEDIA_KINDS.map((k) => MEDIA_TYPES[k].names).join(", ")}`);
const corrupted = () => fileError("VALIDATION", "validation.waMediaCorrupted");

/**
 * What the whole file says that its first bytes do not: the codec tags of an MP4 (its sample
 * descriptions may sit at the end, after the media data), the streams of an old Office file (a
 * compound file's directory names them in UTF-16), and whether it is all text (UTF-8, no control
 * characters but tabs, line and page breaks).
 */
class Scan {
  readonly seen = new Set<string>();
  textual = true;
  #tail = Buffer.alloc(0);
  #decoder = new TextDecoder("utf-8", { fatal: true });
  static readonly TAGS = ["avc1", "avc3", "mp4a", "WordDocument", "Workbook", "Book", "PowerPoint Document"].map((name) => ({
    name,
    bytes: name.length > 4 ? Buffer.from(name, "utf16le") : Buffer.from(name, "latin1"),
  }));
  static readonly KEEP = Math.max(...Scan.TAGS.map((t) => t.bytes.length)) - 1;

  chunk = (c: Uint8Array) => {
    const buf = Buffer.concat([this.#tail, c]);
    for (const t of Scan.TAGS) if (!this.seen.has(t.name) && buf.includes(t.bytes)) this.seen.add(t.name);
    this.#tail = buf.subarray(Math.max(0, buf.length - Scan.KEEP));
    if (this.textual) {
      try {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
        if (/[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f]/.test(this.#decoder.decode(c, { stream: true }))) this.textual = false;
      } catch {
        this.textual = false;
      }
    }
  };

  end() {
    if (!this.textual) return;
    try {
      this.#decoder.decode();
    } catch {
      this.textual = false;
    }
  }
}

/** The media type of a spooled file by its content (null: none WhatsApp takes for this kind). */
async function detect(file: Spooled, scan: Scan, kind: MediaKind | null): Promise<string | null> {
  const found = await fileTypeFromFile(file.path).catch(() => undefined);
  const mime = found?.mime ?? "";
  const video = scan.seen.has("avc1") || scan.seen.has("avc3");
  switch (mime) {
    case "video/mp4":
    case "video/3gpp":
    case "audio/x-m4a":
    case "audio/mp4":
      // One container for both: a video when it holds H.264 video, an audio when it holds only AAC.
      if (video && kind !== "audio") return mime === "video/3gpp" ? "video/3gpp" : "video/mp4";
      if (!video && scan.seen.has("mp4a") && kind !== "video") return "audio/mp4";
      return null;
    case "audio/ogg; codecs=opus":
      return "audio/ogg";
    case "application/x-cfb":
      if (scan.seen.has("WordDocument")) return "application/msword";
      if (scan.seen.has("Workbook") || scan.seen.has("Book")) return "application/vnd.ms-excel";
      if (scan.seen.has("PowerPoint Document")) return "application/vnd.ms-powerpoint";
      return null;
    case "":
      return scan.textual && file.size > 0 ? "text/plain" : null;
    default:
      return EXT[mime] ? mime : null;
  }
}

async function readAll(path: string, size: number): Promise<Buffer> {
  const fh = await open(path, "r");
  try {
    const buf = Buffer.alloc(size);
    await fh.read(buf, 0, size, 0);
    return buf;
  } finally {
    await fh.close();
  }
}

/** Channels per PNG colour type, and the bit depths each allows. */
const PNG_COLOUR: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/**
 * Does a PNG decode? Every chunk whole with its CRC, IHDR first with a valid geometry, a PLTE for
 * a palette, the IDAT data inflating to exactly one filter byte (0–4) and the pixels of each row
 * (each interlace pass), IEND last. The rows are counted as they inflate, never held.
 */
export async function pngDecodes(b: Buffer): Promise<boolean> {
  if (b.length < 8 + 25 + 12) return false;
  let at = 8;
  let header: { width: number; height: number; depth: number; colour: number; interlace: number } | null = null;
  let palette = false;
  const idat: Buffer[] = [];
  let ended = false;
  while (at + 12 <= b.length) {
    const length = b.readUInt32BE(at);
    const type = b.toString("latin1", at + 4, at + 8);
    if (length > 0x7fffffff || at + 12 + length > b.length) return false;
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== b.readUInt32BE(at + 8 + length)) return false;
    const data = b.subarray(at + 8, at + 8 + length);
    if (!header && type !== "IHDR") return false;
    if (type === "IHDR") {
      if (header || length !== 13) return false;
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), depth: data[8], colour: data[9], interlace: data[12] };
      const c = PNG_COLOUR[header.colour];
      if (!header.width || !header.height || header.width > 0x7fffffff || header.height > 0x7fffffff || !c?.depths.includes(header.depth)) return false;
      if (data[10] !== 0 || data[11] !== 0 || header.interlace > 1) return false;
    } else if (type === "PLTE") palette = length > 0 && length % 3 === 0;
    else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") {
      ended = true;
      break;
    }
    at += 12 + length;
  }
  if (!header || !ended || idat.length === 0 || (header.colour === 3 && !palette)) return false;
  const bits = header.depth * PNG_COLOUR[header.colour].channels;
  const { width, height } = header;
  const passes = header.interlace
    ? ADAM7.map(([x0, y0, dx, dy]) => ({ w: Math.ceil((width - x0) / dx), h: Math.ceil((height - y0) / dy) })).filter((p) => p.w > 0 && p.h > 0)
    : [{ w: width, h: height }];
  // Row lengths (filter byte included), pass by pass.
  const rows = passes.map((p) => ({ bytes: 1 + Math.ceil((p.w * bits) / 8), count: p.h }));
  return new Promise<boolean>((resolve) => {
    const inflate = createInflate();
    let pass = 0;
    let row = 0;
    let offset = 0; // within the current row
    let ok = true;
    const stop = () => {
      ok = false;
      inflate.destroy();
      resolve(false);
    };
    inflate.on("data", (chunk: Buffer) => {
      if (!ok) return;
      let i = 0;
      while (i < chunk.length) {
        if (pass >= rows.length) return stop(); // more data than the image has
        if (offset === 0 && chunk[i] > 4) return stop(); // not a filter type
        const take = Math.min(rows[pass].bytes - offset, chunk.length - i);
        i += take;
        offset += take;
        if (offset === rows[pass].bytes) {
          offset = 0;
          if (++row === rows[pass].count) {
            row = 0;
            pass++;
          }
        }
      }
    });
    inflate.on("error", () => ok && stop());
    inflate.on("end", () => ok && resolve(pass === rows.length && offset === 0));
    for (const d of idat) inflate.write(d);
    inflate.end();
  });
}

/**
 * Does a JPEG hold together? Start marker, well-formed segments, a frame (SOFn) with a size and
 * 1–4 components before the first scan, scan data with only stuffed bytes, restart markers or
 * further segments (progressive scans, tables) in it, and the end marker.
 */
export function jpegDecodes(b: Buffer): boolean {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return false;
  let i = 2;
  let frame = false;
  let scanned = false;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) {
      if (!scanned) return false;
      i = b.indexOf(0xff, i); // entropy-coded data, up to the next marker
      if (i < 0) return false;
      continue;
    }
    const m = b[i + 1];
    if (m === 0xff) {
      i++;
      continue; // fill byte
    }
    if (m === 0x00 || (m >= 0xd0 && m <= 0xd7)) {
      if (!scanned) return false;
      i += 2;
      continue;
    }
    if (m === 0xd9) return frame && scanned;
    if (m === 0xd8 || m === 0x01) return false;
    if (i + 4 > b.length) return false;
    const length = b.readUInt16BE(i + 2);
    if (length < 2 || i + 2 + length > b.length) return false;
    const isFrame = m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
    if (isFrame) {
      if (frame || length < 8) return false;
      const h = b.readUInt16BE(i + 5);
      const w = b.readUInt16BE(i + 7);
      const components = b[i + 9];
      if (!w || !h || components < 1 || components > 4 || length !== 8 + 3 * components) return false;
      frame = true;
    }
    if (m === 0xda) {
      if (!frame) return false;
      scanned = true;
    }
    i += 2 + length;
  }
  return false; // no end marker: cut short
}

/** An image kind's content: a JPEG or PNG that decodes; a sticker a whole WebP of 512x512. */
async function checkPicture(file: Spooled, mediaType: string, kind: MediaKind) {
  if (kind !== "image" && kind !== "sticker") return;
  const bytes = await readAll(file.path, file.size);
  if (mediaType === "image/png" && !(await pngDecodes(bytes))) throw corrupted();
  if (mediaType === "image/jpeg" && !jpegDecodes(bytes)) throw corrupted();
  if (mediaType === "image/webp") {
    const size = webpSize(bytes);
    const whole = bytes.length >= 12 && bytes.readUInt32LE(4) + 8 === bytes.length;
    if (!whole || !size) throw corrupted();
    if (size.width !== STICKER_MAX_SIDE || size.height !== STICKER_MAX_SIDE) throw fileError("VALIDATION", "validation.waStickerImage");
  }
}

export type WhatsappMedia = { id: string; type: MediaKind; media_type: string; filename: string; size: number; sha256: string; link: string; link_expires_at: string };

/** How long a media link lives: the provider fetches it when the message is dispatched (retries included), as an agent's file (api/whatsapp/live.ts). */
export const MEDIA_LINK_TTL = 24 * 3600;

function view(r: { id: string; type: MediaKind; media_type: string; name: string; size: number; sha256: string }): WhatsappMedia {
  return {
    id: r.id,
    type: r.type,
    media_type: r.media_type,
    filename: r.name,
    size: Number(r.size),
    sha256: r.sha256,
    link: mediaLink(r.id),
    link_expires_at: new Date(Date.now() + MEDIA_LINK_TTL * 1000).toISOString(),
  };
}

/** The signed link the provider fetches a stored file by (APP_URL's /api/live/files/{id}?exp=&sig=). */
export const mediaLink = (id: string) => signedFileUrl(id, MEDIA_LINK_TTL, env().APP_URL.replace(/\/+$/, ""));

export type IncomingMedia = { kind: MediaKind | null; name: string; stream: ReadableStream<Uint8Array> };

/**
 * Stores one file for a WhatsApp send of `kind` (null: the kind its content says): streamed to
 * disk up to the kind's limit, then its type read from its content and an image decoded. Refused
 * files leave nothing behind.
 */
export async function storeWhatsappMedia(ctx: SignedInCtx, input: IncomingMedia): Promise<WhatsappMedia> {
  if (!can(ctx.actor, "/whatsapp/send")) throw new AppError("FORBIDDEN");
  const scan = new Scan();
  const spooled = await spoolFile(input.stream, input.kind ? mediaLimit(input.kind) : LARGEST, () => mediaTooLarge(input.kind), scan.chunk);
  try {
    scan.end();
    if (spooled.size === 0) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
    const mediaType = await detect(spooled, scan, input.kind);
    const kind = input.kind ?? (mediaType ? kindOf(mediaType) : null);
    if (!mediaType || !kind || !MEDIA_TYPES[kind].types.includes(mediaType)) throw wrongType(kind);
    if (spooled.size > mediaLimit(kind)) throw mediaTooLarge(kind);
    await checkPicture(spooled, mediaType, kind);
    const name = cleanName(input.name, { type: kind, media_type: mediaType, ext: EXT[mediaType] });
    await keepSpooled(spooled);
    const id = await recordFile({ accountId: ctx.actor.accountId, sha256: spooled.sha256, type: kind, media_type: mediaType, name, size: spooled.size });
    return view({ id, type: kind, media_type: mediaType, name, size: spooled.size, sha256: spooled.sha256 });
  } catch (e) {
    await dropSpooled(spooled);
    throw e;
  }
}

/**
 * POST /api/whatsapp/media: multipart with a `file` part and, before it (or in the query), the
 * `type` it will be sent as (image, video, audio, document, sticker; without one, the kind its
 * content says and the largest limit while it arrives). Streamed: nothing is held whole.
 */
export async function uploadWhatsappMedia(ctx: SignedInCtx, body: ReadableStream<Uint8Array>, boundary: string, queryType: string | null): Promise<{ data: WhatsappMedia }> {
  if (!can(ctx.actor, "/whatsapp/send")) throw new AppError("FORBIDDEN");
  const reader = new MultipartReader(body, boundary);
  let type = queryType ?? "";
  let stored: WhatsappMedia | null = null;
  try {
    for await (const part of reader.parts()) {
      if (part.kind === "field") {
        if (part.field === "type" && !stored) type = part.value.trim();
        continue;
      }
      if (part.field !== "file" || stored) continue; // other file parts are skipped unread
      if (type && !isMediaKind(type)) throw new AppError("VALIDATION", { fields: { type: ["validation.option"] } });
      stored = await storeWhatsappMedia(ctx, { kind: isMediaKind(type) ? type : null, name: part.name, stream: part.stream });
    }
    if (!stored) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
    return { data: stored };
  } catch (e) {
    await reader.drain().catch(() => undefined);
    throw e;
  }
}

type MediaRow = { id: string; type: MediaKind; media_type: string; name: string; size: number; sha256: string };

/**
 * A stored send file of the account (the live_files rows without a room: a live message's file
 * belongs to its room, and is not a send's to take), or null.
 */
async function mediaRow(accountId: string, id: string): Promise<MediaRow | null> {
  if (!UUID.test(id)) return null;
  return row<MediaRow>(`SELECT id, type, media_type, name, size, sha256 FROM live_files WHERE id = $1 AND account_id = $2 AND room_id IS NULL`, [id, accountId]);
}

/** The SHA-256 of a stored send file of the account (null: none). */
export async function mediaSha256(accountId: string, id: string): Promise<string | null> {
  return (await mediaRow(accountId, id))?.sha256 ?? null;
}

/**
 * Forgets an uploaded file that the accepted message does not carry (a form posted again under
 * its Idempotency-Key answers the first post's message, whose link is of the first copy).
 */
export async function dropMediaUnlessSent(accountId: string, fileId: string, messageId: string) {
  await row(
    `DELETE FROM live_files f WHERE f.id = $1 AND f.account_id = $2 AND f.room_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = $3 AND m.account_id = $2 AND strpos(m.content::text, $1::text) > 0)
      RETURNING f.id`,
    [fileId, accountId, messageId],
  );
}

/** GET /api/whatsapp/media/{id}: the file's facts and a fresh signed link (another account's: not found). */
export async function getWhatsappMedia(ctx: SignedInCtx, id: string): Promise<{ data: WhatsappMedia }> {
  if (!can(ctx.actor, "/whatsapp/send")) throw new AppError("FORBIDDEN");
  const found = await mediaRow(ctx.actor.accountId, id);
  if (!found) throw new AppError("NOT_FOUND");
  return { data: view(found) };
}

/**
 * A send's media named by id (Graph's `{id}`), as the link the provider fetches: the account's
 * stored file of that kind, its signed link, and a document's file name unless one was given.
 * 422 on `{kind}.id` otherwise.
 */
export async function mediaByIdAsLink(
  accountId: string,
  kind: MediaKind,
  media: { id?: string; link?: string; caption?: string; filename?: string },
): Promise<{ link: string; caption?: string; filename?: string }> {
  const { id, ...rest } = media;
  if (!id) return rest as { link: string };
  const found = await mediaRow(accountId, id);
  if (!found) throw new AppError("VALIDATION", { fields: { [`${kind}.id`]: ["validation.waMediaId"] } });
  if (found.type !== kind) throw new AppError("VALIDATION", { fields: { [`${kind}.id`]: [`validation.waMediaType::${MEDIA_TYPES[kind].names}`] } });
  return { ...rest, link: mediaLink(found.id), ...(kind === "document" && !rest.filename ? { filename: found.name.slice(0, 240) } : {}) };
}

/** Forgets a stored send file (its send was refused); the bytes may be shared and stay. */
export async function dropWhatsappMedia(accountId: string, id: string) {
  await row(`DELETE FROM live_files WHERE id = $1 AND account_id = $2 AND room_id IS NULL RETURNING id`, [id, accountId]);
}
