/**
 * Issue 19 "Light and fast for low bandwidth": every text answer is compressed as the client
 * accepts it (ADR 049), by the web process (pages, static files, forwarded realtime answers) and
 * by the api process for integrators calling it directly. Read with node:http so the bytes on
 * the wire are seen as they are (fetch would decode them).
 */
import http from "node:http";
import zlib from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { signedInCustomer } from "../support/web";

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One request; `headOnly` resolves at the headers and closes the connection (event streams never end). */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; headOnly?: boolean } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers: opts.headers ?? {}, agent: false }, (res) => {
      if (opts.headOnly) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout ${url}`)));
    req.on("error", reject);
    req.end();
  });
}

function decode(r: Raw): Buffer {
  const enc = r.headers["content-encoding"];
  if (enc === "br") return zlib.brotliDecompressSync(r.body);
  if (enc === "gzip") return zlib.gunzipSync(r.body);
  expect(enc, "unknown encoding").toBeUndefined();
  return r.body;
}

const vary = (r: Raw) =>
  String(r.headers.vary ?? "")
    .toLowerCase()
    .split(",")
    .map((s) => s.trim());

const web = (path: string) => new URL(path, inject("webUrl")).toString();
const api = (path: string) => new URL(path, inject("apiUrl")).toString();

/** The same bytes in br, gzip and identity, each with the right headers. */
async function expectNegotiated(url: string) {
  const plain = await raw(url, { headers: { "Accept-Encoding": "identity" } });
  expect(plain.status).toBe(200);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(vary(plain)).toContain("accept-encoding");
  expect(plain.body.byteLength).toBeGreaterThan(1024);
  for (const encoding of ["br", "gzip"]) {
    const r = await raw(url, { headers: { "Accept-Encoding": encoding } });
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"], `${url} ${encoding}`).toBe(encoding);
    expect(vary(r)).toContain("accept-encoding");
    if (r.headers["content-length"] !== undefined) expect(Number(r.headers["content-length"])).toBe(r.body.byteLength);
    expect(r.body.byteLength).toBeLessThan(plain.body.byteLength / 2);
    expect(decode(r).equals(plain.body), `${url} ${encoding} decodes to the identity bytes`).toBe(true);
  }
  return plain;
}

describe("compression (issue 19, ADR 049)", () => {
  it("the api process answers its JSON in br or gzip, decodable to the same bytes", async () => {
    const plain = await expectNegotiated(api("/api/docs/json"));
    expect(JSON.parse(plain.body.toString()).paths).toBeTruthy();
    expect(Number(plain.headers["content-length"])).toBe(plain.body.byteLength);
  });

  it("the web process forwards the api's encoded answer once (not encoded twice)", async () => {
    const direct = await raw(api("/api/docs/json"), { headers: { "Accept-Encoding": "identity" } });
    await expectNegotiated(web("/api/docs/json"));
    const br = await raw(web("/api/docs/json"), { headers: { "Accept-Encoding": "br" } });
    expect(decode(br).equals(direct.body)).toBe(true);
  });

  it("api error bodies are compressed too (the error mapper's answer)", async () => {
    // A 404 body is small: sent as it is, with Vary.
    const r = await raw(api("/api/no-such-route"), { headers: { "Accept-Encoding": "br" } });
    expect(r.status).toBe(404);
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(vary(r)).toContain("accept-encoding");
    expect(JSON.parse(r.body.toString()).error.code).toBe("NOT_FOUND");
  });

  it("pages are compressed: br preferred, gzip when asked, valid HTML after decoding", async () => {
    for (const [accept, expected] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["br;q=0.5, gzip;q=1", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["*", "br"],
    ] as const) {
      const r = await raw(web("/login"), { headers: { "Accept-Encoding": accept } });
      expect(r.status).toBe(200);
      expect(r.headers["content-encoding"], accept).toBe(expected);
      expect(vary(r)).toContain("accept-encoding");
      const html = decode(r).toString();
      expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
      expect(html.trimEnd().endsWith("</html>")).toBe(true);
    }
  });

  it("nothing is encoded for identity, no Accept-Encoding, or a refused one", async () => {
    for (const headers of [{ "Accept-Encoding": "identity" }, {}, { "Accept-Encoding": "br;q=0, gzip;q=0" }] as Array<Record<string, string>>) {
      const r = await raw(web("/login"), { headers });
      expect(r.status).toBe(200);
      expect(r.headers["content-encoding"]).toBeUndefined();
      expect(r.body.toString().startsWith("<!DOCTYPE html>")).toBe(true);
    }
  });

  it("HEAD, tiny bodies and event streams are not encoded", async () => {
    const head = await raw(web("/login"), { method: "HEAD", headers: { "Accept-Encoding": "br" } });
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBeUndefined();

    const small = await raw(web("/realtime/health"), { headers: { "Accept-Encoding": "br" } });
    expect(small.body.toString()).toBe("OK");
    expect(small.headers["content-encoding"]).toBeUndefined();
    const smallApi = await raw(api("/api/health"), { headers: { "Accept-Encoding": "br, gzip" } });
    expect(smallApi.body.toString()).toBe("OK");
    expect(smallApi.headers["content-encoding"]).toBeUndefined();

    const me = await signedInCustomer("compress-sse");
    const ticket = (await me.client.page("/notifications")).html.match(/data-stream-ticket="([^"]+)"/)![1];
    const sse = await raw(web(`/realtime/notifications?ticket=${encodeURIComponent(ticket)}`), {
      headers: { Accept: "text/event-stream", "Accept-Encoding": "br, gzip" },
      headOnly: true,
    });
    expect(sse.status).toBe(200);
    expect(sse.headers["content-type"]).toContain("text/event-stream");
    expect(sse.headers["content-encoding"]).toBeUndefined();
  });

  it("hashed assets are immutable and compressed once at the maximum quality; other static files get a short cache", async () => {
    const html = (await raw(web("/login"), { headers: { "Accept-Encoding": "identity" } })).body.toString();
    const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const path of scripts.slice(0, 4)) {
      const identity = await raw(web(path), { headers: { "Accept-Encoding": "identity" } });
      expect(identity.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      if (identity.body.byteLength < 1024) continue;
      const br = await raw(web(path), { headers: { "Accept-Encoding": "br" } });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(vary(br)).toContain("accept-encoding");
      expect(Number(br.headers["content-length"])).toBe(br.body.byteLength);
      expect(decode(br).equals(identity.body)).toBe(true);
      // Compressed once, then the same bytes from the cache.
      const again = await raw(web(path), { headers: { "Accept-Encoding": "br" } });
      expect(again.body.equals(br.body)).toBe(true);
      const gz = await raw(web(path), { headers: { "Accept-Encoding": "gzip" } });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(decode(gz).equals(identity.body)).toBe(true);
    }
    const locale = await expectNegotiated(web("/locales/pt-BR/common.json"));
    expect(locale.headers["cache-control"]).toBe("public, max-age=300");
    expect(JSON.parse(locale.body.toString())).toBeTruthy();
  });
});
