/**
 * The web server (entry: remix/server.ts): Remix SSR on Bun. People open this one URL; it also forwards /api/* to the
 * api process and /realtime/* to the realtime process (websocket upgrades included: the socket is
 * relayed frame by frame), serves the built assets, and gives every browser its CSRF cookie
 * before Remix sees the request.
 */
import { createRequire } from "node:module";
import { MEMO_MARK } from "./router-memo";
import { clientAddress } from "../api/lib/client-ip";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import type { Server } from "bun";
import { join } from "node:path";
import { assertBindable, env } from "../api/lib/env";
import { hasBody, isUpload, readLimitedBody } from "../api/lib/body-limit";
import { isAppError } from "../api/lib/errors";
import { isShortHost, shortRedirect } from "../api/shortener/redirect";
import { errorBody } from "../api/http/errors";
import { CSRF_COOKIE, newCsrfCookieValue, readCookie } from "./app/lib/csrf.server";
import { transportSecurityHeaders } from "./app/lib/security-headers.server";
import { compressResponse, isCompressible, MIN_BYTES, negotiate, StaticCompressionCache } from "../api/lib/compress";
import { webNamespaces } from "./app/lib/i18n";
import { pageNamespaces, serverErrorNamespaces } from "./page-namespaces";

const e = env();
// The router @remix-run/node uses is the memoized one; without it a /__manifest request costs ~30× the CPU (ADR 073).
if (createRequire(import.meta.url)("@remix-run/router")[MEMO_MARK] !== true)
  throw new Error("@remix-run/router was loaded without its route-matching memo (remix/router-memo-plugin.ts must be the first import)");
assertBindable(e.WEB_HOST, "WEB_HOST");
const root = import.meta.dir;
const clientDir = join(root, "build", "client");
const build = (await import(join(root, "build", "server", "index.js"))) as ServerBuild;
const handle = createRequestHandler(build, e.NODE_ENV === "production" ? "production" : "development");
const secure = e.NODE_ENV === "production";
const transport = Object.entries(transportSecurityHeaders(e.NODE_ENV));
// Each page's translation namespaces, read once from the built JavaScript of its routes (ADR 049).
const namespacesFor = pageNamespaces(build, clientDir, webNamespaces, serverErrorNamespaces(join(root, "..", "api"), webNamespaces));

// The enhancement script of the pages served without React (ADR 051), named with its content hash.
const enhanceFile = Bun.file(join(clientDir, "enhance.js"));
const enhanceScript = (await enhanceFile.exists())
  ? `/enhance.js?v=${new Bun.CryptoHasher("sha256")
      .update(await enhanceFile.arrayBuffer())
      .digest("hex")
      .slice(0, 12)}`
  : undefined;

const HOP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length"];

/**
 * The body to pass on (api/lib/body-limit.ts): an upload streams through (MAX_UPLOAD_MB, Bun's own
 * limit); any other body is read here up to JSON_BODY_LIMIT_KB, or answered 413 (translated).
 */
async function limitedBody(request: Request): Promise<{ body: BodyInit | null } | { refused: Response }> {
  if (!hasBody(request)) return { body: null };
  if (isUpload(request)) return { body: request.body };
  try {
    return { body: await readLimitedBody(request) };
  } catch (e) {
    if (!isAppError(e)) throw e;
    return { refused: Response.json(errorBody(e, request.headers.get("Accept-Language")), { status: e.status }) };
  }
}

async function forward(request: Request, target: string, ip: string | null): Promise<Response> {
  const body = await limitedBody(request);
  if ("refused" in body) return body.refused;
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  for (const h of HOP) headers.delete(h);
  if (ip) headers.set("X-Forwarded-For", [request.headers.get("X-Forwarded-For"), ip].filter(Boolean).join(", "));
  headers.set("X-Forwarded-Host", request.headers.get("Host") ?? "");
  headers.set("X-Forwarded-Proto", url.protocol.replace(":", ""));
  try {
    const res = await fetch(target + url.pathname + url.search, {
      method: request.method,
      headers,
      body: body.body,
      redirect: "manual",
      duplex: "half",
      decompress: false,
    });
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
  } catch {
    return Response.json({ error: { code: "INTERNAL", message: "upstream unavailable" } }, { status: 502 });
  }
}

const staticEncodings = new StaticCompressionCache();

/**
 * A built file (remix/build/client: hashed /assets/*, then public/ as copied by Vite). Hashed
 * assets are cached for a year; the others (widget.js, locales, favicon) for five minutes. A
 * compressible file is sent in the negotiated encoding, compressed once at the maximum quality
 * (api/lib/compress.ts, ADR 049).
 */
async function staticFile(request: Request, pathname: string): Promise<Response | null> {
  if (pathname.includes("..") || pathname.endsWith("/")) return null;
  for (const dir of [clientDir]) {
    const path = join(dir, pathname);
    const file = Bun.file(path);
    if (await file.exists()) {
      // /enhance.js is asked for with its content hash (?v=…, ADR 051): a new build is a new URL.
      const immutable = pathname.startsWith("/assets/") || (pathname === "/enhance.js" && new URL(request.url).searchParams.has("v"));
      const headers = new Headers({ "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=300" });
      if (file.type) headers.set("Content-Type", file.type);
      if (!isCompressible(file.type)) return new Response(file, { headers });
      headers.set("Vary", "Accept-Encoding");
      const encoding = request.method === "GET" && file.size >= MIN_BYTES ? negotiate(request.headers.get("Accept-Encoding")) : null;
      if (!encoding) return new Response(file, { headers });
      const bytes = await staticEncodings.get(path, file.size, file.lastModified, async () => new Uint8Array(await file.arrayBuffer()), encoding);
      headers.set("Content-Encoding", encoding);
      return new Response(bytes, { headers });
    }
  }
  return null;
}

/** A browser's websocket to /realtime/* relayed to the realtime process (frames and close codes as they are). */
/** `forwardedFor`: the X-Forwarded-For the realtime process gets (the chain so far, then the address web saw). */
type Relay = { target: string; forwardedFor: string | null; upstream?: WebSocket; pending: Array<string | Uint8Array> };

function relayClose(code: number) {
  // 1005/1006 (no code, abnormal) cannot be sent in a close frame: "going away" instead.
  return code === 1000 || (code >= 1001 && code <= 1014 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999) ? code : 1001;
}

/** Everything but the websocket relay: /health, the proxied API and realtime, assets, Remix. */
async function answer(request: Request, srv: Server<Relay>): Promise<Response | undefined> {
  const url = new URL(request.url);
  const { pathname } = url;
  if (pathname === "/health") return new Response("OK", { headers: { "Content-Type": "text/plain" } });
  const host = (request.headers.get("Host") ?? "").split(":")[0].toLowerCase();
  // The short links' host answers only its redirects, before anything else (ADR 057).
  if (isShortHost(host)) return shortRedirect(request, host);
  const ip = srv.requestIP(request)?.address ?? null;
  if (pathname === "/api" || pathname.startsWith("/api/")) return forward(request, e.API_URL, ip);
  // E-mail open pixels and click redirects (ADR 039): answered by the api process under /api/track.
  if (pathname.startsWith("/e/o/") || pathname.startsWith("/e/c/")) return forward(request, `${e.API_URL}/api/track`, ip);
  if (pathname.startsWith("/realtime/")) {
    if (request.headers.get("Upgrade")?.toLowerCase() === "websocket") {
      const target = e.REALTIME_URL.replace(/^http/, "ws") + pathname + url.search;
      const forwardedFor = [request.headers.get("X-Forwarded-For"), ip].filter(Boolean).join(", ") || null;
      if (srv.upgrade(request, { data: { target, forwardedFor, pending: [] } })) return undefined;
      return new Response("Upgrade failed", { status: 400 });
    }
    return forward(request, e.REALTIME_URL, ip);
  }

  const unsubscribeHost = host === e.UNSUBSCRIBE_HOST.toLowerCase();
  if (request.method === "GET" || request.method === "HEAD") {
    const file = await staticFile(request, pathname);
    if (file) return file;
  }
  // The unsubscribe host serves only its page at /.
  if (unsubscribeHost) {
    if (pathname !== "/") return new Response("Not Found", { status: 404 });
    url.pathname = "/unsubscribe";
  }

  // Every browser gets a CSRF cookie; Remix reads it from the request like any other cookie.
  let setCsrf: string | null = null;
  let headers = request.headers;
  if (!readCookie(request, CSRF_COOKIE)) {
    setCsrf = newCsrfCookieValue();
    headers = new Headers(request.headers);
    headers.set("Cookie", [request.headers.get("Cookie"), `${CSRF_COOKIE}=${setCsrf}`].filter(Boolean).join("; "));
  }
  // The client's address for the Remix app (sign-in limits, audit): through the trusted proxies
  // (TRUSTED_PROXIES), never a header the client sent itself.
  const client = clientAddress(request.headers.get("X-Forwarded-For"), ip);
  if (headers === request.headers) headers = new Headers(request.headers);
  headers.delete("X-Real-IP");
  if (client) headers.set("X-Real-IP", client);
  const body = await limitedBody(request);
  if ("refused" in body) return body.refused;
  const remixRequest = new Request(url, { method: request.method, headers, body: body.body, signal: request.signal, redirect: request.redirect });
  const response = await handle(remixRequest, { pageNamespaces: namespacesFor, enhanceScript });
  if (setCsrf) {
    response.headers.append("Set-Cookie", `${CSRF_COOKIE}=${setCsrf}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`);
  }
  return response;
}

const server = Bun.serve<Relay>({
  port: e.WEB_PORT,
  hostname: e.WEB_HOST,
  idleTimeout: 120,
  maxRequestBodySize: e.MAX_UPLOAD_MB * 1024 * 1024,
  async fetch(request, srv) {
    const answered = await answer(request, srv);
    if (!answered) return answered;
    // brotli/gzip as the client accepts (ADR 049): pages, realtime answers; an answer the api
    // process already encoded and the static files encoded above go out as they are.
    const response = await compressResponse(request, answered);
    // HSTS (production only) on everything we answer: pages, assets, the proxied API.
    for (const [name, value] of transport) response.headers.set(name, value);
    return response;
  },
  websocket: {
    maxPayloadLength: 256 * 1024,
    idleTimeout: 120,
    open(ws) {
      const d = ws.data;
      // Bun's WebSocket client takes headers (the DOM typing does not know them).
      const up = new WebSocket(d.target, { headers: d.forwardedFor ? { "X-Forwarded-For": d.forwardedFor } : {} } as unknown as string[]);
      up.binaryType = "arraybuffer";
      d.upstream = up;
      up.onopen = () => {
        for (const m of d.pending) up.send(m);
        d.pending = [];
      };
      up.onmessage = (ev) => {
        ws.send(typeof ev.data === "string" ? ev.data : new Uint8Array(ev.data as ArrayBuffer));
      };
      up.onclose = (ev) => ws.close(relayClose(ev.code), ev.reason);
      up.onerror = () => ws.close(1011, "upstream unavailable");
    },
    message(ws, message) {
      const up = ws.data.upstream;
      if (up && up.readyState === WebSocket.OPEN) up.send(message);
      else ws.data.pending.push(message);
    },
    close(ws, code, reason) {
      const up = ws.data.upstream;
      // A client may only close with 1000 or 3000-4999.
      if (up && (up.readyState === WebSocket.OPEN || up.readyState === WebSocket.CONNECTING)) up.close(code === 1000 || (code >= 3000 && code <= 4999) ? code : 1000, reason);
    },
  },
  error(err) {
    console.error(err);
    return new Response("Internal error", { status: 500 });
  },
});

console.log(`web listening on http://${server.hostname}:${server.port} (api -> ${e.API_URL}, realtime -> ${e.REALTIME_URL})`);

// A graceful stop (Procfile managers and the benches send SIGTERM): no new connections, then exit,
// so Bun's exit hooks (e.g. --cpu-prof output, bench/web-pages.mjs with BENCH_BUN_FLAGS) run.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    void server.stop().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
