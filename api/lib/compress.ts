/**
 * Response compression shared by the web process (remix/web-server.ts: pages, static files and the
 * answers it forwards from api/realtime) and the api process (api/http/compression.ts) — ADR 049.
 *
 * - brotli or gzip, negotiated from Accept-Encoding with its q-values (`identity` or no header: none);
 * - only text-like types (HTML, JS, CSS, JSON, SVG, text, XML, CSV), never text/event-stream;
 * - never for HEAD, 1xx/204/304, an answer already encoded, `Cache-Control: no-transform`, or a
 *   body under MIN_BYTES;
 * - `Vary: Accept-Encoding` on every answer whose type could be compressed;
 * - a body of known length is compressed in one call (brotli quality 5: ~2 ms for 75 KB on this
 *   machine, quality 11 takes ~50 ms) and gets its new Content-Length; a stream is compressed as
 *   it flows, flushed after every chunk so streaming still streams.
 * node:zlib runs in Bun and in Node (the unit tests), so nothing here needs Bun.
 */
import { promisify } from "node:util";
import zlib from "node:zlib";

export type Encoding = "br" | "gzip";

/** Bodies below this are sent as they are: the headers cost more than the saving. */
export const MIN_BYTES = 1024;

/** Brotli quality for answers made per request; static built files use 11 (compressed once). */
export const DYNAMIC_BROTLI_QUALITY = 5;
export const STATIC_BROTLI_QUALITY = 11;

/** The encoding to use for this Accept-Encoding, or null for none. br wins a tie (smaller). */
export function negotiate(acceptEncoding: string | null | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q: Record<string, number> = {};
  for (const part of acceptEncoding.split(",")) {
    const [rawName, ...params] = part.trim().split(";");
    const name = rawName.trim().toLowerCase();
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const [k, v] = p.trim().split("=");
      if (k?.trim().toLowerCase() === "q") {
        const n = Number(v);
        weight = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0;
      }
    }
    q[name] = weight;
  }
  const weight = (name: Encoding) => q[name] ?? (name === "gzip" ? q["x-gzip"] : undefined) ?? q["*"] ?? 0;
  const br = weight("br");
  const gzip = weight("gzip");
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? "br" : "gzip";
}

/** Types worth compressing: text, JSON, JavaScript, XML and SVG; not event streams (they must flow). */
export function isCompressible(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type === "text/event-stream") return false;
  return (
    type.startsWith("text/") ||
    type === "application/json" ||
    type.endsWith("+json") ||
    type === "application/javascript" ||
    type === "application/x-javascript" ||
    type === "application/xml" ||
    type.endsWith("+xml") ||
    type === "application/wasm" ||
    type === "application/x-ndjson"
  );
}

/** Compress a whole body: dynamic answers at a moderate brotli quality, static files at the maximum. */
export function encodeSync(body: Uint8Array, encoding: Encoding, kind: "dynamic" | "static" = "dynamic"): Uint8Array<ArrayBuffer> {
  if (encoding === "gzip") return zlib.gzipSync(body, { level: kind === "static" ? 9 : 6 }) as Uint8Array<ArrayBuffer>;
  return zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: kind === "static" ? STATIC_BROTLI_QUALITY : DYNAMIC_BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  }) as Uint8Array<ArrayBuffer>;
}

/** Add Accept-Encoding to a Vary header value (kept once). */
export function withVary(vary: string | null | undefined): string {
  const parts = (vary ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.some((p) => p === "*" || p.toLowerCase() === "accept-encoding")) return parts.join(", ");
  return [...parts, "Accept-Encoding"].join(", ");
}

/** A strong ETag names the identity bytes: the encoded variant gets a weak one. */
function weakened(etag: string | null): string | null {
  if (!etag) return null;
  return etag.startsWith("W/") ? etag : `W/${etag}`;
}

function noTransform(headers: Headers) {
  return /(^|,)\s*no-transform\s*(,|$)/i.test(headers.get("Cache-Control") ?? "");
}

/**
 * What compression applies to this answer: `skip` (not compressible at all: leave it untouched),
 * `vary` (compressible type but not this time: only Vary), or the encoding.
 */
export function plan(request: Request, status: number, headers: Headers, hasBody: boolean): "skip" | "vary" | Encoding {
  if (!isCompressible(headers.get("Content-Type"))) return "skip";
  if (headers.has("Content-Encoding")) return "skip";
  if (request.method === "HEAD" || status < 200 || status === 204 || status === 304 || !hasBody) return "vary";
  if (noTransform(headers)) return "vary";
  const length = headers.get("Content-Length");
  if (length !== null && Number(length) < MIN_BYTES) return "vary";
  return negotiate(request.headers.get("Accept-Encoding")) ?? "vary";
}

function encodedHeaders(headers: Headers, encoding: Encoding, length: number | null) {
  const out = new Headers(headers);
  out.set("Content-Encoding", encoding);
  out.set("Vary", withVary(out.get("Vary")));
  out.delete("Accept-Ranges");
  const etag = weakened(out.get("ETag"));
  if (etag) out.set("ETag", etag);
  if (length === null) out.delete("Content-Length");
  else out.set("Content-Length", String(length));
  return out;
}

/** A zlib stream for one encoding at the dynamic quality. */
function encoder(encoding: Encoding) {
  return encoding === "br"
    ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } })
    : zlib.createGzip({ level: 6 });
}

/**
 * Compress a stream as it flows: the chunks already read (`head`) then the rest of `reader`,
 * each flushed so what the source has produced reaches the client now (streamed HTML, CSV exports).
 */
function encodeStream(head: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>, encoding: Encoding): ReadableStream<Uint8Array> {
  const z = encoder(encoding);
  const flushKind = encoding === "br" ? zlib.constants.BROTLI_OPERATION_FLUSH : zlib.constants.Z_SYNC_FLUSH;
  let out: Uint8Array[] = [];
  z.on("data", (c: Buffer) => out.push(new Uint8Array(c.buffer, c.byteOffset, c.byteLength)));
  const write = (chunk: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      z.write(chunk, (err) => (err ? reject(err) : z.flush(flushKind, () => resolve())));
    });
  const end = () =>
    new Promise<void>((resolve, reject) => {
      z.once("error", reject);
      z.once("end", () => resolve());
      z.end();
    });
  // One chunk per flush (zlib hands a flush's output over in pieces).
  const drain = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (out.length === 1) controller.enqueue(out[0]);
    else if (out.length > 1)
      controller.enqueue(
        concat(
          out,
          out.reduce((n, c) => n + c.byteLength, 0),
        ),
      );
    out = [];
  };
  let pending = [...head];
  // zlib may deliver a flush's output just after its callback: let it arrive.
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // Every pull enqueues something or ends the stream, so a waiting reader is never left hanging.
        for (;;) {
          if (pending.length) {
            for (const c of pending) await write(c);
            pending = [];
          } else {
            const { done, value } = await reader.read();
            if (done) {
              await end();
              drain(controller);
              controller.close();
              return;
            }
            await write(value);
          }
          await settle();
          if (out.length) {
            drain(controller);
            return;
          }
        }
      } catch (err) {
        z.destroy();
        controller.error(err);
      }
    },
    cancel(reason) {
      z.destroy();
      return reader.cancel(reason);
    },
  });
}

function concat(chunks: Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/**
 * The answer to send for this request: compressed when the plan says so, else the same answer
 * (with Vary when its type could have been compressed). A body without a Content-Length is read
 * until MIN_BYTES: one that ends sooner goes out as it is, with its length; a longer one is
 * compressed as it streams.
 */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  const decided = plan(request, response.status, response.headers, response.body !== null);
  if (decided === "skip") return response;
  if (decided === "vary") {
    const vary = withVary(response.headers.get("Vary"));
    if (response.headers.get("Vary") !== vary) {
      try {
        response.headers.set("Vary", vary);
      } catch {
        // Immutable headers (a fetched answer): copy them.
        const headers = new Headers(response.headers);
        headers.set("Vary", vary);
        return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
      }
    }
    return response;
  }
  const body = response.body as ReadableStream<Uint8Array>;
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let total = 0;
  let done = false;
  const known = response.headers.get("Content-Length") !== null;
  while (known || total < MIN_BYTES) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    total += next.value.byteLength;
  }
  const init = { status: response.status, statusText: response.statusText };
  if (done) {
    const whole = concat(head, total);
    if (total < MIN_BYTES) {
      const headers = new Headers(response.headers);
      headers.set("Vary", withVary(headers.get("Vary")));
      headers.set("Content-Length", String(total));
      return new Response(whole, { ...init, headers });
    }
    const encoded = encodeSync(whole, decided);
    return new Response(encoded, { ...init, headers: encodedHeaders(response.headers, decided, encoded.byteLength) });
  }
  return new Response(encodeStream(head, reader, decided), { ...init, headers: encodedHeaders(response.headers, decided, null) });
}

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

/** Compress at the maximum quality off the event loop (zlib's thread pool, in Bun as in Node). */
export async function encodeStatic(body: Uint8Array, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  if (encoding === "gzip") return (await gzipAsync(body, { level: 9 })) as Uint8Array<ArrayBuffer>;
  return (await brotliAsync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: STATIC_BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  })) as Uint8Array<ArrayBuffer>;
}

/**
 * Static built files (remix/web-server.ts): each compressible file is compressed the first time an
 * encoding of it is asked for, at the maximum quality (brotli 11, gzip 9), off the event loop
 * (the 1.2 MB e-mail editor chunk takes 2.4 s at brotli 11 here: synchronously that would stall
 * every other request), and kept in memory keyed by path, size and modification time; requests
 * arriving meanwhile wait for the same result. Precomputing every file at build time instead
 * took 12 s per build on this machine for 330 files of which a page needs a few dozen; the cache
 * is bounded by the build (about 5 MB of text, 1.2 MB compressed).
 */
export class StaticCompressionCache {
  private entries = new Map<string, { key: string; br?: Promise<Uint8Array<ArrayBuffer>>; gzip?: Promise<Uint8Array<ArrayBuffer>> }>();

  get(path: string, size: number, mtimeMs: number, read: () => Promise<Uint8Array>, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
    const key = `${size}:${mtimeMs}`;
    let entry = this.entries.get(path);
    if (!entry || entry.key !== key) {
      entry = { key };
      this.entries.set(path, entry);
    }
    const cached = entry[encoding];
    if (cached) return cached;
    const current = entry;
    const encoded = read().then((bytes) => encodeStatic(bytes, encoding));
    // A failure is not kept: the next request tries again.
    encoded.catch(() => {
      if (current[encoding] === encoded) current[encoding] = undefined;
    });
    current[encoding] = encoded;
    return encoded;
  }
}
