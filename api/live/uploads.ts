/**
 * Live chat files (ADR 017): what agents and visitors attach, and the media the channels bring
 * in. The type is decided by the file's first bytes (magic numbers), never by its name or the
 * type the client claims; each channel's byte limit (spec section 5, "Live uploads") is checked
 * before anything is stored. The bytes are kept once on disk under UPLOAD_DIR/live, named by
 * their SHA-256; a live_files row gives a file its account, room, type and name, and its URI is
 * `/api/live/files/{id}` — served to the account's attendants (bearer), the room's webchat visitor
 * (visitor id + token) or anyone holding a signed, expiring URL (`signedFileUrl`).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import type { Transaction } from "sequelize";
import { hmac, randomToken, safeEqual } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { CHANNEL_FILE_TYPES, FILE_MEDIA_TYPES, type FileExtension, fileTypesOf } from "./limits";
import type { Attachment, LiveChannel } from "./rooms/types";
import { exec, row, rows } from "../lib/sql";

export type FileKind = Attachment["type"];

/** Spec section 5, "Live uploads": bytes per channel (WhatsApp also per kind of file). */
export const DEFAULT_UPLOAD_LIMIT = 14_680_064;
export const CHANNEL_UPLOAD_LIMITS: Partial<Record<LiveChannel, number>> = {
  google_business: 5_000_000,
  rcs: 5_242_880,
  messenger: 23_068_672,
  instagram: 23_068_672,
};
const WHATSAPP_LIMITS: Record<FileKind, number> = { video: 16_777_216, image: 14_680_064, sticker: 14_680_064, audio: 104_857_600, document: 104_857_600 };
/** A WebP sticker: at most 100 KB and 512x512 (spec section 5 and 9). */
export const STICKER_MAX_BYTES = 100 * 1024;
export const STICKER_MAX_SIDE = 512;

/** The largest file a channel takes (of any kind: the first check, before the bytes are read). */
export function maxUploadBytes(channel: LiveChannel): number {
  if (channel === "whatsapp") return Math.max(...Object.values(WHATSAPP_LIMITS));
  return CHANNEL_UPLOAD_LIMITS[channel] ?? DEFAULT_UPLOAD_LIMIT;
}

/** The limit for one kind of file on a channel. */
export function uploadLimit(channel: LiveChannel, kind: FileKind): number {
  if (channel === "whatsapp") return WHATSAPP_LIMITS[kind];
  return CHANNEL_UPLOAD_LIMITS[channel] ?? DEFAULT_UPLOAD_LIMIT;
}

export function tooLarge(limit: number): AppError {
  return new AppError("LIVE_FILE_TOO_LARGE", { params: { limit } });
}

export type Detected = { type: FileKind; media_type: string; ext: FileExtension };

const startsWith = (b: Uint8Array, sig: number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, at: number, text: string) =>
  startsWith(
    b,
    [...text].map((c) => c.charCodeAt(0)),
    at,
  );

function includesAscii(b: Uint8Array, text: string): boolean {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).includes(text, 0, "latin1");
}

/** Width and height of a WebP image (lossy VP8, lossless VP8L or extended VP8X), or null when unreadable. */
export function webpSize(b: Uint8Array): { width: number; height: number } | null {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (buf.length < 30) return null;
  const chunk = buf.toString("latin1", 12, 16);
  if (chunk === "VP8 ") {
    if (!(buf[23] === 0x9d && buf[24] === 0x01 && buf[25] === 0x2a)) return null;
    return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    if (buf[20] !== 0x2f) return null;
    const bits = buf.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { width: buf.readUIntLE(24, 3) + 1, height: buf.readUIntLE(27, 3) + 1 };
  return null;
}

/** An SVG document: its root element `<svg`, after an optional BOM, XML declaration, comments and doctype. */
const SVG_START = /^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE\s+svg[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>/]/i;

const detected = (type: FileKind, ext: FileExtension): Detected => ({ type, media_type: FILE_MEDIA_TYPES[ext], ext });

/**
 * What a file is, from its first bytes: the spec's live files (jpeg, png, ogg, mp4 (H.264), webp
 * sticker, doc, pdf, zip; a Word .docx is a zip with a .docx name) and RCS's (gif, webm, svg).
 * Which of them a room takes is its channel's (checkFile). Anything else: LIVE_FILE_TYPE.
 */
export function detectFile(b: Uint8Array, name = ""): Detected {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return detected("image", "jpg");
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return detected("image", "png");
  if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) return detected("image", "gif");
  if (ascii(b, 0, "OggS")) return detected("audio", "ogg");
  if (ascii(b, 4, "ftyp")) {
    // MP4 with H.264 video: its sample description names the codec (avc1/avc3).
    if (includesAscii(b, "avc1") || includesAscii(b, "avc3")) return detected("video", "mp4");
    throw new AppError("LIVE_FILE_TYPE");
  }
  // WebM: an EBML header whose DocType is "webm" (Matroska's other files say "matroska").
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]) && includesAscii(b.subarray(0, 64), "webm")) return detected("video", "webm");
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return detected("sticker", "webp");
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return detected("document", "doc");
  if (ascii(b, 0, "%PDF-")) return detected("document", "pdf");
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])) {
    if (/\.docx$/i.test(name) && includesAscii(b, "word/")) return detected("document", "docx");
    return detected("document", "zip");
  }
  if (SVG_START.test(Buffer.from(b.subarray(0, 4096)).toString("utf8"))) return detected("image", "svg");
  throw new AppError("LIVE_FILE_TYPE");
}

/** A file of a type the channel does not take: the spec's live files' refusal, or the channel's own naming its types. */
function typeRefused(channel: LiveChannel): AppError {
  const own = CHANNEL_FILE_TYPES[channel];
  return own ? new AppError("LIVE_FILE_TYPE_CHANNEL", { params: { types: own.names } }) : new AppError("LIVE_FILE_TYPE");
}

/** A name safe to show and to put in Content-Disposition: no path, no control characters. */
export function cleanName(name: string | null | undefined, detected: Pick<Detected, "type" | "media_type"> & { ext: string }): string {
  // eslint-disable-next-line no-control-regex
  const base = basename(String(name ?? "").replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f"]/g, "")
    .trim()
    .slice(-200);
  return base && base !== "." && base !== ".." ? base : `file.${detected.ext}`;
}

/**
 * Checks a file for a channel: type by magic bytes among the channel's (api/live/limits.ts
 * fileTypesOf), the channel's limit, a sticker's size and dimensions. A WebP is a sticker where the
 * channel takes stickers (the spec's live files), an image where it has its own list (RCS).
 */
export function checkFile(channel: LiveChannel, bytes: Uint8Array, name?: string | null): Detected {
  if (bytes.byteLength === 0) throw typeRefused(channel);
  if (bytes.byteLength > maxUploadBytes(channel)) throw tooLarge(maxUploadBytes(channel));
  let found: Detected;
  try {
    found = detectFile(bytes, name ?? "");
  } catch (e) {
    if (e instanceof AppError && e.code === "LIVE_FILE_TYPE") throw typeRefused(channel);
    throw e;
  }
  if (!fileTypesOf(channel).includes(found.ext)) throw typeRefused(channel);
  if (found.type === "sticker" && CHANNEL_FILE_TYPES[channel]) found = { ...found, type: "image" };
  const limit = uploadLimit(channel, found.type);
  if (bytes.byteLength > limit) throw tooLarge(limit);
  if (found.type === "sticker") {
    const size = webpSize(bytes);
    if (!size || bytes.byteLength > STICKER_MAX_BYTES || size.width > STICKER_MAX_SIDE || size.height > STICKER_MAX_SIDE || size.width < 1 || size.height < 1) {
      throw new AppError("LIVE_FILE_STICKER");
    }
  }
  return found;
}

export const liveFilesDir = () => resolve(env().UPLOAD_DIR, "live");
const pathOf = (sha: string) => join(liveFilesDir(), sha.slice(0, 2), sha);

/** Writes the bytes under their SHA-256 (once: the same bytes twice are one file on disk). */
async function putBytes(bytes: Uint8Array): Promise<string> {
  const sha = createHash("sha256").update(bytes).digest("hex");
  const path = pathOf(sha);
  if (!existsSync(path)) {
    await mkdir(join(liveFilesDir(), sha.slice(0, 2)), { recursive: true });
    const tmp = `${path}.${randomToken(6)}.part`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  }
  return sha;
}

/** A file streamed to disk (./incoming) and not yet kept: its bytes were counted and hashed on the way. */
export type Spooled = { path: string; sha256: string; size: number };

/**
 * Streams a file to a temporary place beside the store, counting and hashing it as it comes:
 * past `limit` bytes it stops reading (the stream is cancelled), removes what it wrote and throws
 * `refuse()` (the caller's translated "Invalid file size"). Nothing is held in memory beyond one
 * chunk; `inspect` sees every chunk (content checks that need the whole file, e.g. a codec's tag).
 */
export async function spoolFile(stream: ReadableStream<Uint8Array>, limit: number, refuse: () => Error, inspect?: (chunk: Uint8Array) => void): Promise<Spooled> {
  const dir = join(liveFilesDir(), "incoming");
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomToken(12)}.part`);
  const out = createWriteStream(path);
  const hash = createHash("sha256");
  const reader = stream.getReader();
  let size = 0;
  const write = (chunk: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      out.write(chunk, (e) => (e ? reject(e) : resolve()));
    });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!value?.byteLength) continue;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw refuse();
      }
      hash.update(value);
      inspect?.(value);
      await write(value);
    }
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  } catch (e) {
    out.destroy();
    await rm(path, { force: true });
    throw e;
  }
  return { path, sha256: hash.digest("hex"), size };
}

/** Forgets a spooled file that was refused. */
export const dropSpooled = (s: Spooled) => rm(s.path, { force: true });

/** Moves a spooled file into the store under its SHA-256 (the same bytes already there: the copy goes). */
export async function keepSpooled(s: Spooled): Promise<string> {
  const path = pathOf(s.sha256);
  if (existsSync(path)) await dropSpooled(s);
  else {
    await mkdir(join(liveFilesDir(), s.sha256.slice(0, 2)), { recursive: true });
    await rename(s.path, path);
  }
  return path;
}

/** The row that gives stored bytes their account (and room, when it has one), type and name. */
export async function recordFile(
  f: { accountId: string; roomId?: string | null; sha256: string; type: FileKind; media_type: string; name: string; size: number },
  opts: { transaction?: Transaction } = {},
): Promise<string> {
  const [inserted] = await rows<{ id: string }>(
    `INSERT INTO live_files (account_id, room_id, sha256, type, media_type, name, size) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [f.accountId, f.roomId ?? null, f.sha256, f.type, f.media_type, f.name, f.size],
    { transaction: opts.transaction },
  );
  return inserted.id;
}

export type StoreInput = { accountId: string; channel: LiveChannel; roomId?: string | null; bytes: Uint8Array; name?: string | null };

/** Checks and stores a file; answers the attachment of a live message. */
export async function storeFile(input: StoreInput, opts: { transaction?: Transaction } = {}): Promise<Attachment & { id: string }> {
  const detected = checkFile(input.channel, input.bytes, input.name);
  const name = cleanName(input.name, detected);
  const sha = await putBytes(input.bytes);
  const id = await recordFile(
    { accountId: input.accountId, roomId: input.roomId, sha256: sha, type: detected.type, media_type: detected.media_type, name, size: input.bytes.byteLength },
    opts,
  );
  return { id, type: detected.type, uri: fileUri(id), media_type: detected.media_type, name, size: input.bytes.byteLength };
}

export const fileUri = (id: string) => `/api/live/files/${id}`;

/** The file id of one of our attachment URIs (null for anything else). */
export function fileIdOf(uri: string): string | null {
  const m = /^\/api\/live\/files\/([0-9a-f-]{36})(?:[?#].*)?$/i.exec(uri);
  return m && UUID.test(m[1]) ? m[1] : null;
}

/** Files stored before their room existed (a visitor's first message) are tied to it afterwards. */
export async function attachFilesToRoom(accountId: string, fileIds: string[], roomId: string) {
  if (fileIds.length === 0) return;
  await exec(`UPDATE live_files SET room_id = $3 WHERE account_id = $1 AND id = ANY($2::uuid[]) AND room_id IS NULL`, [accountId, fileIds, roomId]);
}

/** Forgets a file row (its message was refused); the bytes may be shared and stay. */
export async function dropFile(id: string) {
  await exec(`DELETE FROM live_files WHERE id = $1`, [id]);
}

export type LiveFile = { id: string; account_id: string; room_id: string | null; sha256: string; type: FileKind; media_type: string; name: string; size: number };

export async function findFile(id: string): Promise<(LiveFile & { path: string }) | null> {
  if (!UUID.test(id)) return null;
  const found = await row<LiveFile>(`SELECT * FROM live_files WHERE id = $1`, [id]);
  return found ? { ...found, path: pathOf(found.sha256) } : null;
}

/** The bytes of a stored file (the outbound adapters upload them to the channel). */
export async function fileBytes(id: string): Promise<{ file: LiveFile; bytes: Uint8Array } | null> {
  const file = await findFile(id);
  if (!file) return null;
  return { file, bytes: new Uint8Array(await readFile(file.path)) };
}

const signature = (id: string, exp: number) => hmac(`live-file:${id}:${exp}`);

/**
 * A URL anyone may open until it expires (default one hour): for <img> tags and channel fetches.
 * With `ext`, its path ends in the file's extension (`/api/live/files/{id}.png?…`): a provider
 * that takes a file by the extension of its link (RCS's media links) sees what it is.
 */
export function signedFileUrl(id: string, ttlSeconds = 3600, base = "", ext?: string): string {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  return `${base}${fileUri(id)}${ext ? `.${ext}` : ""}?exp=${exp}&sig=${signature(id, exp)}`;
}

/** The extension of a stored file's type (its link's, signedFileUrl), or null for a type not listed. */
export function extensionOf(mediaType: string): FileExtension | null {
  const found = Object.entries(FILE_MEDIA_TYPES).find(([, type]) => type === mediaType);
  return found ? (found[0] as FileExtension) : null;
}

/** A files route's id with the extension a signed link may carry (`{id}.png`): the id, and that extension if any. */
export function fileIdParam(param: string): { id: string; ext: string | null } {
  const m = /^([0-9a-f-]{36})(?:\.([a-z0-9]{1,5}))?$/i.exec(param);
  return m ? { id: m[1], ext: m[2]?.toLowerCase() ?? null } : { id: param, ext: null };
}

/**
 * The link a provider fetches an attachment by (a channel whose messages name files by URL:
 * WhatsApp's media objects, RCS's media): our own file's signed link on APP_URL, valid `ttlSeconds`
 * (its path ending in the file's extension with `withExt`); else the attachment's own URI when
 * `accepts` takes it (a flow's public media URL); else null.
 */
export function providerFileLink(a: Pick<Attachment, "uri" | "media_type">, ttlSeconds: number, accepts: (url: string) => boolean, withExt = false): string | null {
  const id = fileIdOf(a.uri);
  if (id) return signedFileUrl(id, ttlSeconds, env().APP_URL.replace(/\/+$/, ""), withExt ? (extensionOf(a.media_type) ?? undefined) : undefined);
  return accepts(a.uri) ? a.uri : null;
}

export function validSignature(id: string, exp: unknown, sig: unknown): boolean {
  const n = Number(exp);
  if (!Number.isInteger(n) || n < Date.now() / 1000 || typeof sig !== "string") return false;
  return safeEqual(sig, signature(id, n));
}
