import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressResponse, isCompressible, MIN_BYTES, negotiate, StaticCompressionCache, withVary } from "./compress";

describe("negotiate", () => {
  it.each([
    [null, null],
    ["", null],
    ["identity", null],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["br", "br"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0.1", "gzip"],
    ["br;q=0, gzip;q=0", null],
    ["*", "br"],
    ["*;q=0, gzip", "gzip"],
    ["deflate", null],
    ["GZIP;Q=0.8, BR;Q=0.9", "br"],
  ])("%s → %s", (header, expected) => {
    expect(negotiate(header)).toBe(expected);
  });
});

describe("what is compressible", () => {
  it("text-like types, never event streams", () => {
    for (const t of ["text/html; charset=utf-8", "application/json", "application/problem+json", "text/javascript", "text/css", "image/svg+xml", "text/csv"])
      expect(isCompressible(t), t).toBe(true);
    for (const t of ["text/event-stream", "image/png", "application/pdf", "font/woff2", null]) expect(isCompressible(t), String(t)).toBe(false);
  });

  it("Vary gets Accept-Encoding once", () => {
    expect(withVary(null)).toBe("Accept-Encoding");
    expect(withVary("Origin")).toBe("Origin, Accept-Encoding");
    expect(withVary("origin, accept-encoding")).toBe("origin, accept-encoding");
  });
});

const big = "<p>olá mundo, mensagens para o Brasil</p>".repeat(200);
const req = (ae: string | null, method = "GET") => new Request("http://localhost/x", { method, headers: ae ? { "Accept-Encoding": ae } : {} });

describe("compressResponse", () => {
  it("encodes a body of known length and fixes Content-Length", async () => {
    const res = await compressResponse(req("br"), new Response(big, { headers: { "Content-Type": "text/html", "Content-Length": String(Buffer.byteLength(big)), ETag: '"abc"' } }));
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get("Content-Encoding")).toBe("br");
    expect(res.headers.get("Content-Length")).toBe(String(bytes.byteLength));
    expect(res.headers.get("Vary")).toBe("Accept-Encoding");
    expect(res.headers.get("ETag")).toBe('W/"abc"');
    expect(zlib.brotliDecompressSync(bytes).toString()).toBe(big);
  });

  it("compresses a stream as it flows: the first chunk arrives before the source ends", async () => {
    let release!: () => void;
    const later = new Promise<void>((r) => (release = r));
    const source = new ReadableStream<Uint8Array>({
      async start(c) {
        c.enqueue(new TextEncoder().encode(big));
        await later;
        c.enqueue(new TextEncoder().encode("<p>fim</p>"));
        c.close();
      },
    });
    const res = await compressResponse(req("gzip"), new Response(source, { headers: { "Content-Type": "text/html" } }));
    expect(res.headers.get("Content-Encoding")).toBe("gzip");
    expect(res.headers.get("Content-Length")).toBeNull();
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    // The first compressed chunk is readable while the source still waits (flushed, not buffered).
    const first = await reader.read();
    expect(first.done).toBe(false);
    chunks.push(first.value!);
    const partial = zlib.gunzipSync(Buffer.concat(chunks), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString();
    expect(partial).toBe(big);
    release();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(zlib.gunzipSync(Buffer.concat(chunks)).toString()).toBe(`${big}<p>fim</p>`);
  });

  it("leaves alone: identity, HEAD, small bodies, event streams, encoded answers, 204/304", async () => {
    const html = { "Content-Type": "text/html" };
    const cases: Array<[Request, Response]> = [
      [req("identity"), new Response(big, { headers: html })],
      [req(null), new Response(big, { headers: html })],
      [req("br", "HEAD"), new Response(null, { headers: html })],
      [req("br"), new Response("x".repeat(MIN_BYTES - 1), { headers: html })],
      [req("br"), new Response(big, { headers: { "Content-Type": "text/event-stream" } })],
      [req("br"), new Response(big, { headers: { ...html, "Content-Encoding": "gzip" } })],
      [req("br"), new Response(null, { status: 204, headers: html })],
      [req("br"), new Response(null, { status: 304, headers: html })],
      [req("br"), new Response(big, { headers: { ...html, "Cache-Control": "no-transform" } })],
      [req("br"), new Response(big, { headers: { "Content-Type": "image/png" } })],
    ];
    for (const [request, response] of cases) {
      const res = await compressResponse(request, response);
      expect(res.headers.get("Content-Encoding") ?? "none").not.toBe("br");
    }
    const small = await compressResponse(
      req("br"),
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode("tiny"));
            c.close();
          },
        }),
        { headers: html },
      ),
    );
    expect(small.headers.get("Content-Length")).toBe("4");
    expect(small.headers.get("Vary")).toBe("Accept-Encoding");
    expect(await small.text()).toBe("tiny");
  });
});

describe("StaticCompressionCache", () => {
  it("compresses once per file and encoding, at the maximum quality, and again when the file changes", async () => {
    const cache = new StaticCompressionCache();
    let reads = 0;
    const read = async () => {
      reads++;
      return new TextEncoder().encode(big);
    };
    const [a, b] = await Promise.all([cache.get("/a.js", 1, 1, read, "br"), cache.get("/a.js", 1, 1, read, "br")]);
    expect(a).toBe(b);
    expect(reads).toBe(1);
    expect(zlib.brotliDecompressSync(a).toString()).toBe(big);
    const gz = await cache.get("/a.js", 1, 1, read, "gzip");
    expect(zlib.gunzipSync(gz).toString()).toBe(big);
    await cache.get("/a.js", 1, 2, read, "br");
    expect(reads).toBe(3);
  });
});
