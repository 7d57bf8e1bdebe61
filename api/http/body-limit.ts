/**
 * The API's request body limit (the rule: api/lib/body-limit.ts). Before routing and parsing,
 * every body that is not an upload is read whole, up to JSON_BODY_LIMIT_KB (413 past it), and the
 * request then serves those bytes to whoever reads it (Elysia's parsers, the webhooks' raw
 * readers). The bytes are put back on the same Request object rather than a copy: Bun answers
 * `server.requestIP(request)` only for the request it received, and the IP rules need it.
 */
import { Elysia } from "elysia";
import { hasBody, isUpload, readLimitedBody } from "../lib/body-limit";

function serveBytes(request: Request, bytes: Uint8Array) {
  const copy = () => new Response(bytes.slice());
  let stream: ReadableStream<Uint8Array> | null = null;
  const define = (name: string, value: unknown) => Object.defineProperty(request, name, { value, configurable: true });
  define("json", () => copy().json());
  define("text", () => copy().text());
  define("arrayBuffer", () => copy().arrayBuffer());
  define("bytes", () => copy().bytes());
  define("blob", () => copy().blob());
  // Parsed against the request's own Content-Type (multipart boundary, urlencoded).
  define("formData", () => new Response(bytes.slice(), { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData());
  Object.defineProperty(request, "body", { configurable: true, get: () => (stream ??= copy().body) });
}

export const bodyLimit = new Elysia({ name: "body-limit" }).onRequest(async ({ request }) => {
  if (!hasBody(request) || isUpload(request)) return;
  serveBytes(request, await readLimitedBody(request));
});
