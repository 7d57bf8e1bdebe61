/**
 * How large a request body may be: one rule for both processes that read bodies, the web server
 * (remix/web-server.ts: its /api proxy and the Remix form posts) and the api (api/http/body-limit.ts).
 * A file goes only to an upload route, as multipart/form-data, up to MAX_UPLOAD_MB (Bun's own
 * maxRequestBodySize enforces that one). Every other body (JSON, urlencoded forms, text, and
 * multipart sent anywhere else) is at most JSON_BODY_LIMIT_KB: refused from its Content-Length
 * before a byte is read, and, when it declares none (chunked), read only up to the limit.
 * Over the limit: 413 BODY_TOO_LARGE (translated, with the limit in KB).
 */
import { env } from "./env";
import { AppError } from "./errors";

/** The routes that take files: the API's and the web forms' (POST, multipart/form-data). */
const UPLOAD_ROUTES = [
  /^\/api\/contacts\/imports\/?$/,
  /^\/api\/sms\/messages\/?$/,
  /^\/api\/rcs\/campaigns\/?$/,
  /^\/api\/lookup\/lists\/?$/,
  /^\/api\/webchat\/upload\/?$/,
  /^\/api\/whatsapp\/media\/?$/,
  /^\/api\/widget\/[^/]+\/upload\/?$/,
  /^\/contacts\/import\/?$/,
  /^\/sms\/send\/?$/,
  /^\/rcs\/campaigns\/new\/?$/,
  /^\/lookup\/list\/?$/,
  /^\/whatsapp(?:\/jv)?\/send\/?$/,
  /^\/live\/?$/,
  // Catalogue images (issue 22): the API's and the product screen's form.
  /^\/api\/catalog\/products\/[^/]+\/images\/?$/,
  /^\/catalog\/list\/[0-9a-f-]{36}\/?$/,
];

const isMultipart = (contentType: string | null) => /^multipart\/form-data\b/i.test(contentType ?? "");

/** Is this request an upload (a file to an upload route), which Bun's MAX_UPLOAD_MB alone bounds? */
export function isUpload(request: Request): boolean {
  if (request.method !== "POST" || !isMultipart(request.headers.get("Content-Type"))) return false;
  const path = new URL(request.url).pathname;
  return UPLOAD_ROUTES.some((r) => r.test(path));
}

/** The small limit in bytes. */
export const jsonBodyLimit = () => env().JSON_BODY_LIMIT_KB * 1024;

export const bodyTooLarge = () => new AppError("BODY_TOO_LARGE", { params: { limit: env().JSON_BODY_LIMIT_KB } });

/** Does the request carry a body at all (a declared length above 0, or a chunked one)? */
export function hasBody(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") return false;
  const length = request.headers.get("Content-Length");
  if (length !== null) return Number(length) > 0;
  return request.headers.get("Transfer-Encoding") !== null || request.body !== null;
}

/**
 * The whole body of a request that is not an upload, read up to the small limit: BODY_TOO_LARGE
 * from a declared Content-Length above it (nothing read), or as soon as a chunked body passes it.
 */
export async function readLimitedBody(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const limit = jsonBodyLimit();
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw bodyTooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge();
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
