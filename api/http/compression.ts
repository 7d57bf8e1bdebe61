/**
 * The api process compresses its own answers (ADR 049): integrators calling it directly get
 * brotli/gzip as they accept it, the same rules as the web process (api/lib/compress.ts). Answers
 * the web process forwards arrive there already encoded and go out as they are (it fetches with
 * `decompress: false`). A global mapResponse: it runs after the handlers, the response check and
 * the error mapper (./errors), so error bodies are compressed too.
 */
import { Elysia, StatusMap } from "elysia";
import { compressResponse, isCompressible, MIN_BYTES, withVary } from "../lib/compress";

const encoder = new TextEncoder();

function isPlainJson(value: unknown): value is object {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export const compression = new Elysia({ name: "compression" }).mapResponse({ as: "global" }, async ({ request, responseValue, set }) => {
  const status = typeof set.status === "number" ? set.status : ((StatusMap as Record<string, number>)[set.status ?? "OK"] ?? 200);
  const headers = new Headers();
  for (const [name, value] of Object.entries(set.headers)) if (typeof value === "string") headers.set(name, value);
  if (responseValue instanceof Response) {
    const type = responseValue.headers.get("Content-Type") ?? headers.get("Content-Type");
    if (!isCompressible(type)) return;
    // Vary is also written into set.headers: Elysia merges those into whatever is returned.
    set.headers.vary = withVary(responseValue.headers.get("Vary") ?? headers.get("Vary"));
    return compressResponse(request, responseValue);
  }
  let body: Uint8Array<ArrayBuffer>;
  if (typeof responseValue === "string") {
    if (!headers.has("Content-Type")) headers.set("Content-Type", "text/plain; charset=utf-8");
    body = encoder.encode(responseValue);
  } else if (isPlainJson(responseValue)) {
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json;charset=utf-8");
    body = encoder.encode(JSON.stringify(responseValue));
  } else return; // files, streams, numbers, nothing: Elysia's own mapping
  if (!isCompressible(headers.get("Content-Type"))) return;
  set.headers.vary = withVary(headers.get("Vary"));
  headers.set("Vary", set.headers.vary);
  headers.set("Content-Length", String(body.byteLength));
  // Always a Response here: after the error mapper, a mapResponse that returns nothing loses the body.
  const response = new Response(body, { status, headers });
  return body.byteLength < MIN_BYTES ? response : compressResponse(request, response);
});
