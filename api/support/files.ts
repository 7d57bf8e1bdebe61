/**
 * A support message's attachments (issue 23, ADR 061): at most one file a message, at most
 * FILE_MAX_BYTES, of a type proven by its first bytes (api/live/uploads.ts detectFile): images
 * (JPG, PNG, GIF, WebP), PDF, Word and ZIP — never SVG or HTML, which a browser would run. The
 * bytes are kept once under UPLOAD_DIR/support, named by their SHA-256; a support_files row gives
 * them their account, ticket, message and name. They are opened through a signed, expiring link
 * (`/api/support/files/{id}?exp=&sig=`) that the screens make for whoever may read the ticket.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { hmac, randomToken, safeEqual } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { row } from "../lib/sql";
import { cleanName, detectFile } from "../live/uploads";
import type { FileExtension } from "../live/limits";
import { FILE_MAX_BYTES } from "./constants";

export const FILE_TYPES: readonly FileExtension[] = ["jpg", "png", "gif", "webp", "pdf", "doc", "docx", "zip"];

export type IncomingAttachment = { name: string; bytes: Uint8Array };
export type CheckedAttachment = { name: string; bytes: Uint8Array; media_type: string; size: number };

export const fileTooLarge = () => new AppError("VALIDATION", { fields: { file: [`support.errors.fileSize::${FILE_MAX_BYTES / (1024 * 1024)}`] } });
const fileType = () => new AppError("VALIDATION", { fields: { file: ["support.errors.fileType"] } });

/** The file's type by its bytes, among FILE_TYPES, within the size: or a 422 on `file` naming what is wrong. */
export function checkAttachment(file: IncomingAttachment): CheckedAttachment {
  if (file.bytes.byteLength > FILE_MAX_BYTES) throw fileTooLarge();
  if (file.bytes.byteLength === 0) throw fileType();
  let found: ReturnType<typeof detectFile>;
  try {
    found = detectFile(file.bytes, file.name);
  } catch {
    throw fileType();
  }
  if (!FILE_TYPES.includes(found.ext)) throw fileType();
  return { name: cleanName(file.name, found), bytes: file.bytes, media_type: found.media_type, size: file.bytes.byteLength };
}

const filesDir = () => resolve(env().UPLOAD_DIR, "support");
const pathOf = (sha: string) => join(filesDir(), sha.slice(0, 2), sha);

/** Writes the bytes under their SHA-256, once (a temporary name, then rename), and answers the hash. */
export async function putAttachment(bytes: Uint8Array): Promise<string> {
  const sha = createHash("sha256").update(bytes).digest("hex");
  const path = pathOf(sha);
  if (!existsSync(path)) {
    await mkdir(join(filesDir(), sha.slice(0, 2)), { recursive: true });
    const tmp = `${path}.${randomToken(6)}.part`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  }
  return sha;
}

const signature = (id: string, exp: number) => hmac(`support-file:${id}:${exp}`);

/** A link to a file that works until it expires (a day by default): the screens' download links. */
export function signedFileUrl(id: string, ttlSeconds = 86_400, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  return `/api/support/files/${id}?${new URLSearchParams({ exp: String(exp), sig: signature(id, exp) })}`;
}

/** The file a signed link names, if the link is genuine and not expired; else NOT_FOUND (nothing told). */
export async function signedFile(id: string, exp: unknown, sig: unknown, now = Date.now()) {
  const expiry = Number(exp);
  if (!UUID.test(id) || typeof sig !== "string" || !Number.isInteger(expiry) || expiry * 1000 < now || !safeEqual(sig, signature(id, expiry))) {
    throw new AppError("NOT_FOUND");
  }
  const f = await row<{ name: string; media_type: string; size: number; sha256: string }>(`SELECT name, media_type, size, sha256 FROM support_files WHERE id = $1`, [id]);
  if (!f) throw new AppError("NOT_FOUND");
  return { ...f, path: pathOf(f.sha256) };
}
