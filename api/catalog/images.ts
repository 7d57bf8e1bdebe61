/**
 * Catalogue images (issue 22, ADR 059): spec section 5's product image — JPG or PNG, exactly
 * 500x500 px, at most 8 MB — checked by decoding it with sharp (libvips), never by its name or the
 * type the client claims. The size is refused before decoding (a declared Content-Length above
 * the limit before a byte is read; a body that passes it while streaming, as soon as it does).
 * Each image gets a 160x160 WebP thumbnail. Bytes live where the project keeps uploaded files:
 * on disk under UPLOAD_DIR/catalog, named by their SHA-256 (the same bytes twice are one file).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import sharp from "sharp";
import { hmac, randomToken, safeEqual } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { IMAGE_MAX_BYTES, IMAGE_SIDE, THUMB_SIDE } from "./constants";

/** Decoding work stays small and predictable on a shared box: no libvips operation cache, no decode of a huge canvas. */
sharp.cache(false);

/** A refused image: 422 on the form's `file` field with a translated message (catalog.errors.*). */
export const refuseFile = (key: string) => new AppError("VALIDATION", { fields: { file: [key] } });
export const invalidSize = () => refuseFile(`catalog.errors.fileSize::${IMAGE_MAX_BYTES / (1024 * 1024)}`);
export const invalidImage = () => refuseFile("catalog.errors.imageInvalid");

/** What a multipart upload may carry besides the file itself (boundaries, part headers, the CSRF token). */
const MULTIPART_SLACK = 64 * 1024;

/** Refuses by the declared length, before a byte is read: a body that cannot hold an image of at most 8 MB. */
export function assertDeclaredLength(request: Request) {
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > IMAGE_MAX_BYTES + MULTIPART_SLACK) throw invalidSize();
}

/** Reads a stream up to `limit` bytes: past it the stream is cancelled and `invalidSize` thrown. */
export async function readLimited(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!value?.byteLength) continue;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw invalidSize();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The `file` part of a multipart API request, read within the limit (declared length first, then while streaming). */
export async function multipartFile(request: Request, field = "file"): Promise<{ bytes: Uint8Array; name: string }> {
  assertDeclaredLength(request);
  const body = await readLimited(request.body, IMAGE_MAX_BYTES + MULTIPART_SLACK);
  const form = await new Response(body, { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData().catch(() => {
    throw refuseFile("validation.required");
  });
  const file = form.get(field);
  if (!file || typeof file === "string" || file.size === 0) throw refuseFile("validation.required");
  if (file.size > IMAGE_MAX_BYTES) throw invalidSize();
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
}

export type CheckedImage = { bytes: Uint8Array; contentType: "image/jpeg" | "image/png"; width: number; height: number; thumb: Uint8Array };

/**
 * Decodes an image and answers it with its thumbnail, or refuses it: over 8 MB ("Invalid file
 * size"); not an image, a format other than JPG/PNG, or bytes that do not decode to the end
 * ("Invalid image or corrupted"); any size but exactly 500x500 (naming the size it has). The header
 * is read first, so a canvas of the wrong size is refused before its pixels are decoded.
 */
export async function checkImage(bytes: Uint8Array): Promise<CheckedImage> {
  if (bytes.byteLength === 0) throw refuseFile("validation.required");
  if (bytes.byteLength > IMAGE_MAX_BYTES) throw invalidSize();
  let meta: { format?: string; width?: number; height?: number };
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw invalidImage();
  }
  if (meta.format !== "jpeg" && meta.format !== "png") throw refuseFile("catalog.errors.imageType");
  if (meta.width !== IMAGE_SIDE || meta.height !== IMAGE_SIDE) throw refuseFile(`catalog.errors.imageDimensions::${meta.width ?? 0}x${meta.height ?? 0}`);
  let thumb: Buffer;
  try {
    // failOn "warning": a truncated or damaged stream fails here instead of giving a grey half image.
    thumb = await sharp(bytes, { failOn: "warning", limitInputPixels: IMAGE_SIDE * IMAGE_SIDE })
      .rotate()
      .resize(THUMB_SIDE, THUMB_SIDE, { fit: "cover" })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw invalidImage();
  }
  return { bytes, contentType: meta.format === "jpeg" ? "image/jpeg" : "image/png", width: IMAGE_SIDE, height: IMAGE_SIDE, thumb };
}

export const catalogFilesDir = () => resolve(env().UPLOAD_DIR, "catalog");
export const catalogFilePath = (sha: string) => join(catalogFilesDir(), sha.slice(0, 2), sha);

/** Writes bytes under their SHA-256 (once: the same bytes twice are one file), atomically (a temporary name, then rename). */
export async function putBytes(bytes: Uint8Array): Promise<string> {
  const sha = createHash("sha256").update(bytes).digest("hex");
  const path = catalogFilePath(sha);
  if (!existsSync(path)) {
    await mkdir(join(catalogFilesDir(), sha.slice(0, 2)), { recursive: true });
    const tmp = `${path}.${randomToken(6)}.part`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  }
  return sha;
}

export const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The public file name of an image: `{id}.jpg` / `{id}.png`, or `{id}.webp` for its thumbnail. */
export const extOf = (contentType: string) => (contentType === "image/png" ? "png" : contentType === "image/webp" ? "webp" : "jpg");

const signature = (file: string, exp: number) => hmac(`catalog-image:${file}:${exp}`);
/** Links made within the same day share their expiry, so the browser's cache keeps one URL a day. */
const BUCKET = 86_400;

/**
 * A link anyone may open until it expires (default at least 30 days, for an RCS card's media the
 * provider fetches later; the screens use 1 day): `/api/catalog/images/{id}.{ext}?exp=&sig=`,
 * its path ending in the type's extension (RCS takes media by it). `base`: an origin for a provider.
 */
export function signedImageUrl(imageId: string, ext: "jpg" | "png" | "webp", ttlSeconds = 30 * BUCKET, base = "", now = Date.now()): string {
  const exp = (Math.floor((now / 1000 + ttlSeconds) / BUCKET) + 1) * BUCKET;
  const file = `${imageId}.${ext}`;
  return `${base}/api/catalog/images/${file}?exp=${exp}&sig=${signature(file, exp)}`;
}

export function validImageSignature(file: string, exp: unknown, sig: unknown): boolean {
  const n = Number(exp);
  if (!Number.isInteger(n) || n < Date.now() / 1000 || typeof sig !== "string") return false;
  return safeEqual(sig, signature(file, n));
}
