/**
 * THE guarded HTTP client (ADR 021): every request the server makes on a tenant's behalf (channel
 * APIs, media a webhook names, OAuth token endpoints, customer webhooks, HTTP SMS providers, later
 * e-mail/WhatsApp/RCS/flow nodes) goes through `outboundFetch`, so one place decides where the
 * server may connect.
 *
 *  - The URL is http(s) without credentials; a URL that is not the platform's own must be https
 *    while the guard is on (OUTBOUND_ALLOW_PRIVATE=false, always so in production).
 *  - The host is resolved once and every address it resolves to must be public unicast
 *    (`addressRisk`, every notation); the connection then goes to THAT address (no second lookup,
 *    so a name cannot answer public to the check and private to the connect), with TLS SNI,
 *    certificate check and Host header still naming the host.
 *  - Redirects: none by default (a 3xx is a failure); a caller may allow a few, each hop checked
 *    again as above.
 *  - Time and size capped: the whole exchange within `timeoutMs`, at most `maxBytes` read.
 *  - Connection reuse (`keepAlive`, customer webhooks): a pool of kept-alive sockets per (origin,
 *    pinned address), so a socket only ever carries requests to the host and address it was opened
 *    for. A host's resolution may be reused for DNS_CACHE_MS, but every request checks its
 *    addresses again: a cached address is used only while it is still a checked one.
 *
 * Trust: origins the operator configures in env (TELEGRAM_API_URL, GRAPH_API_URL, GBM_API_URL,
 * GBM_TOKEN_URL, the sign-in providers, SIMULATOR_URL) may be private (a loopback peer in tests, a
 * proxy in a data centre); a URL is trusted only when its origin is one of them, or when the caller
 * says its URL is operator-chosen (`trust: "platform"`: a staff-configured SMS provider). A URL
 * that arrives inside a webhook payload is never trusted for its own sake.
 *
 * Failures throw OutboundError. Its message is short and never contains a response body; a refused
 * address, a name that does not resolve and a refused connection all read "could not connect" so
 * what a tenant sees is no oracle of our network (the exact cause goes to our log).
 */
import { lookup } from "node:dns/promises";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { env } from "./env";

// ---- the address classifier ---------------------------------------------------------------------

/** An IPv4 address in the loose notations inet_aton accepts (1 to 4 parts, each decimal, 0x-hex or 0-octal) as a 32-bit number. */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length < 1 || parts.length > 4 || parts.some((p) => p === "")) return null;
  const nums: number[] = [];
  for (const p of parts) {
    const n = /^0x[0-9a-f]*$/i.test(p) ? parseInt(p.slice(2) || "0", 16) : /^0[0-7]*$/.test(p) ? parseInt(p, 8) : /^[1-9][0-9]*$/.test(p) ? parseInt(p, 10) : NaN;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 2 ** (8 * (4 - nums.length))) return null;
  return nums.reduce((acc, n, i) => acc + n * 2 ** (8 * (3 - i)), 0) + last;
}

/** An IPv6 address (with :: and an optional dotted IPv4 tail) as its eight 16-bit groups. */
export function parseIPv6(text: string): number[] | null {
  let s = text
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  if (isIP(s) !== 6) return null;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const v4 = parseIPv4(tail[1]);
    if (v4 === null) return null;
    s = s.slice(0, -tail[1].length) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = s.split("::");
  const a = head ? head.split(":") : [];
  const b = rest !== undefined && rest ? rest.split(":") : [];
  const fill = rest !== undefined ? 8 - a.length - b.length : 0;
  const groups = [...a, ...Array(fill).fill("0"), ...b].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

const V4_BLOCKS: Array<[base: string, bits: number, risk: string]> = [
  ["0.0.0.0", 8, "this network"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local (metadata)"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "6to4 relay"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved (incl. broadcast)"],
];

function v4Risk(n: number): string | null {
  for (const [base, bits, risk] of V4_BLOCKS) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === parseIPv4(base)) return risk;
  }
  return null;
}

function v6Risk(g: number[]): string | null {
  const v4At = (i: number) => g[i] * 65536 + g[i + 1];
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return "unspecified";
  if (zeros(0, 7) && g[7] === 1) return "loopback";
  // IPv4-mapped ::ffff:a.b.c.d (also written ::ffff:7f00:1) and IPv4-translated ::ffff:0:a.b.c.d: the IPv4 address decides.
  if (zeros(0, 5) && g[5] === 0xffff) return v4Risk(v4At(6));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4Risk(v4At(6));
  // IPv4-compatible ::a.b.c.d (deprecated) and NAT64 64:ff9b::/96: the IPv4 address decides.
  if (zeros(0, 6)) return v4Risk(v4At(6)) ?? "IPv4-compatible";
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4Risk(v4At(6));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "local NAT64";
  // 6to4 2002:AABB:CCDD::/48 embeds the IPv4 address AA.BB.CC.DD.
  if (g[0] === 0x2002) return v4Risk(v4At(1));
  // Only global unicast 2000::/3 is public; within it, Teredo, benchmarking, ORCHID (2001::/23) and documentation.
  if ((g[0] & 0xe000) !== 0x2000) {
    if ((g[0] & 0xfe00) === 0xfc00) return "unique local";
    if ((g[0] & 0xffc0) === 0xfe80) return "link-local";
    if ((g[0] & 0xff00) === 0xff00) return "multicast";
    return "not global unicast";
  }
  if (g[0] === 0x2001 && g[1] < 0x0200) return g[1] === 0 ? "Teredo" : "protocol assignments";
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "documentation";
  if (g[0] === 0x3fff && g[1] < 0x1000) return "documentation";
  return null;
}

/**
 * Why an address is not a public unicast address ("loopback", "private", ...), or null when it is.
 * Takes any notation: IPv4 dotted or as integers (decimal, octal, hex, shortened), IPv6 with or
 * without brackets, IPv4 inside IPv6 (mapped in dotted or hex form, compatible, NAT64, 6to4).
 * Something that is no address at all is "not an address".
 */
export function addressRisk(address: string): string | null {
  const text = address.trim().replace(/^\[|\]$/g, "");
  const v4 = text.includes(":") ? null : parseIPv4(text);
  if (v4 !== null) return v4Risk(v4);
  const v6 = parseIPv6(text);
  if (v6) return v6Risk(v6);
  return "not an address";
}

export const isPublicAddress = (address: string) => addressRisk(address) === null;

// ---- the guard's setting and the platform's origins ---------------------------------------------

/** May requests reach private addresses? Never in production (env refuses it); the default elsewhere. */
export function privateAllowed(): boolean {
  const e = env();
  if (e.NODE_ENV === "production") return false;
  return (e.OUTBOUND_ALLOW_PRIVATE ?? e.WEBHOOK_ALLOW_PRIVATE_URLS) !== "false";
}

/** The origins of the upstreams the operator configures (env): these may be private. */
export function platformOrigins(): Set<string> {
  const e = env();
  const urls = [
    e.TELEGRAM_API_URL,
    e.GRAPH_API_URL,
    e.GBM_API_URL,
    e.GBM_TOKEN_URL,
    e.SIMULATOR_URL,
    e.GOOGLE_TOKEN_URL,
    e.GOOGLE_USERINFO_URL,
    e.FACEBOOK_TOKEN_URL,
    e.FACEBOOK_USERINFO_URL,
  ];
  return new Set(urls.map((u) => new URL(u).origin));
}

// ---- errors --------------------------------------------------------------------------------------

export type OutboundReason = "bad_url" | "refused" | "unreachable" | "timeout" | "too_large" | "redirect";

/** What a tenant may read of each reason: a refused address looks like any failed connection. */
const TENANT_TEXT: Record<OutboundReason, string> = {
  bad_url: "not a public https URL",
  refused: "could not connect",
  unreachable: "could not connect",
  timeout: "timed out",
  too_large: "answer too large",
  redirect: "redirect not followed",
};

export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundReason,
    /** Our log's detail (address, system error); never shown to a tenant. */
    readonly detail: string,
    readonly status?: number,
  ) {
    super(status ? `${TENANT_TEXT[reason]} (HTTP ${status})` : TENANT_TEXT[reason]);
    this.name = "OutboundError";
  }
}

export const isOutboundError = (e: unknown): e is OutboundError => e instanceof OutboundError;

// ---- URL checks ------------------------------------------------------------------------------------

type Trust = "tenant" | "platform";

/**
 * The checks that need no DNS: http(s), no credentials, https when the guard is on and the URL is
 * not trusted, and an address written in the URL must be public. Answers whether the URL is
 * trusted (private addresses allowed). Also used to validate a tenant's URL when it is saved.
 */
export function checkUrl(raw: string | URL, trust: Trust = "tenant"): { url: URL; trusted: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError("bad_url", "not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundError("bad_url", `protocol ${url.protocol}`);
  if (url.username || url.password) throw new OutboundError("bad_url", "credentials in the URL");
  const trusted = privateAllowed() || trust === "platform" || platformOrigins().has(url.origin);
  if (trusted) return { url, trusted };
  if (url.protocol !== "https:") throw new OutboundError("bad_url", "http where https is required");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const risk = addressRisk(host);
    if (risk) throw new OutboundError("refused", `${host} is ${risk}`);
  }
  return { url, trusted };
}

/** A host's resolution is reused this long (many webhooks to one endpoint); the checks still run on every request. */
export const DNS_CACHE_MS = 30_000;
const DNS_CACHE_MAX = 1000;
const resolved = new Map<string, { addresses: string[]; until: number }>();

/** The host's addresses, IPv4 first: from the brief cache, else from the resolver. */
async function addressesOf(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  const hit = resolved.get(host);
  if (hit && hit.until > Date.now()) return hit.addresses;
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true })).sort((a, b) => a.family - b.family).map((a) => a.address);
  } catch (e) {
    throw new OutboundError("unreachable", `${host} does not resolve: ${(e as Error).message}`);
  }
  if (resolved.size >= DNS_CACHE_MAX) resolved.delete(resolved.keys().next().value!);
  resolved.set(host, { addresses, until: Date.now() + DNS_CACHE_MS });
  return addresses;
}

/** The address to connect to: every address of the host must be public unless trusted (checked on every request, cached or not); IPv4 first. */
async function resolveChecked(url: URL, trusted: boolean): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = await addressesOf(host);
  if (addresses.length === 0) throw new OutboundError("unreachable", `${host} does not resolve`);
  if (!trusted) {
    for (const a of addresses) {
      const risk = addressRisk(a);
      if (risk) throw new OutboundError("refused", `${host} resolves to ${a} (${risk})`);
    }
  }
  return addresses[0];
}

// ---- connection reuse ----------------------------------------------------------------------------

const AGENTS_MAX = 500;
/** Free sockets are closed after this idle time: under common servers' keep-alive timeouts (Node's 5 s), so we rarely write to a socket the server is closing. */
const IDLE_SOCKET_MS = 4_000;
const agents = new Map<string, HttpAgent>();

/**
 * The kept-alive pool of one (origin, pinned address): its sockets were opened to that address
 * for that host (and, over TLS, verified for that host), so reusing one can never reach another
 * host or address. Least recently used pools beyond AGENTS_MAX are closed.
 */
function agentFor(url: URL, address: string): HttpAgent {
  const id = `${url.origin} ${address}`;
  let agent = agents.get(id);
  if (agent) agents.delete(id);
  else agent = new (url.protocol === "https:" ? HttpsAgent : HttpAgent)({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: IDLE_SOCKET_MS });
  agents.set(id, agent);
  if (agents.size > AGENTS_MAX) {
    const [oldest, pool] = agents.entries().next().value!;
    agents.delete(oldest);
    pool.destroy();
  }
  return agent;
}

// ---- the client ----------------------------------------------------------------------------------

export type OutboundInit = {
  method?: string;
  headers?: Record<string, string>;
  /** A string, bytes, URLSearchParams or FormData (multipart), as fetch takes. */
  body?: BodyInit | null;
  timeoutMs: number;
  maxBytes: number;
  /** Keep the first maxBytes of a longer answer instead of failing with too_large (an excerpt). */
  truncate?: boolean;
  /** How many redirects to follow, each hop checked again (default 0: a 3xx is a failure). */
  redirects?: number;
  /** "platform": the URL itself is operator-chosen (may be private); default "tenant". */
  trust?: Trust;
  /** Reuse connections to the same (origin, pinned address) (many requests to one endpoint). */
  keepAlive?: boolean;
};

// biome-ignore lint/suspicious/noExplicitAny: the JSON of a foreign API; each caller checks the fields it reads
export type OutboundResponse = { status: number; headers: Headers; body: Uint8Array; url: string; text(): string; json(): any };

/** Serialises a fetch-style body once (FormData gets its multipart boundary) so it can be written to a socket. */
async function encodeBody(body: BodyInit | null | undefined): Promise<{ bytes?: Uint8Array; type?: string }> {
  if (body === undefined || body === null) return {};
  const req = new Request("http://body.invalid/", { method: "POST", body });
  const type = req.headers.get("content-type") ?? undefined;
  return { bytes: new Uint8Array(await req.arrayBuffer()), type };
}

type Hop = { status: number; headers: Headers; body: Uint8Array };

/** One request to the checked address; reads at most maxBytes of the answer (a 3xx is answered unread). */
function exchange(
  url: URL,
  address: string,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
  limit: { maxBytes: number; truncate?: boolean; keepAlive?: boolean },
  signal: AbortSignal,
): Promise<Hop> {
  const { maxBytes, truncate } = limit;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const options: RequestOptions & { servername?: string } = {
    host: address,
    port: url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80,
    path: `${url.pathname}${url.search}`,
    method,
    headers: { ...headers, Host: url.host, ...(body ? { "Content-Length": String(body.byteLength) } : {}) },
    // TLS: the certificate is checked against the host name, and SNI names it (an IP literal sends no SNI).
    ...(url.protocol === "https:" && !isIP(host) ? { servername: host } : {}),
    ...(limit.keepAlive ? { agent: agentFor(url, address) } : {}),
  };
  return new Promise<Hop>((resolveOnce, rejectOnce) => {
    // Settle first, then destroy: Bun emits "aborted" synchronously from destroy().
    let settled = false;
    const resolve = (hop: Hop) => void (settled || ((settled = true), resolveOnce(hop)));
    const reject = (e: OutboundError) => void (settled || ((settled = true), rejectOnce(e)));
    if (signal.aborted) return reject(new OutboundError("timeout", "timed out before connecting"));
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(options, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const answer = new Headers();
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) answer.set(k, Array.isArray(v) ? v.join(", ") : v);
      if (status >= 300 && status < 400) {
        resolve({ status, headers: answer, body: new Uint8Array() });
        return res.destroy();
      }
      const declared = Number(answer.get("content-length") ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes && !truncate) {
        reject(new OutboundError("too_large", `declared ${declared} bytes`, status));
        return res.destroy();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        if (settled) return;
        size += c.byteLength;
        if (size > maxBytes) {
          if (truncate) {
            chunks.push(c.subarray(0, c.byteLength - (size - maxBytes)));
            resolve({ status, headers: answer, body: new Uint8Array(Buffer.concat(chunks)) });
          } else reject(new OutboundError("too_large", `more than ${maxBytes} bytes`, status));
          res.destroy();
          return;
        }
        chunks.push(c);
      });
      res.on("end", () => resolve({ status, headers: answer, body: new Uint8Array(Buffer.concat(chunks)) }));
      res.on("error", (e) => reject(new OutboundError("unreachable", `reading: ${e.message}`, status)));
      res.on("aborted", () => reject(new OutboundError("unreachable", "answer cut short", status)));
    });
    const onAbort = () => {
      reject(new OutboundError("timeout", "timed out"));
      req.destroy();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("close", () => signal.removeEventListener("abort", onAbort));
    req.on("error", (e: Error & { code?: string }) => reject(new OutboundError("unreachable", `${address}: ${e.code ?? e.message}`)));
    req.end(body ? Buffer.from(body) : undefined);
  });
}

/**
 * One guarded request: answers the final status, headers and (bounded) body — a 4xx/5xx is an
 * answer, not an error; the caller decides, and must not show its body to a tenant. Throws
 * OutboundError for a bad or refused URL, a failed connection, a timeout, an answer over maxBytes
 * and a redirect not followed.
 */
export async function outboundFetch(raw: string | URL, init: OutboundInit): Promise<OutboundResponse> {
  const signal = AbortSignal.timeout(init.timeoutMs);
  const { bytes, type } = await encodeBody(init.body);
  let method = (init.method ?? "GET").toUpperCase();
  let body = bytes;
  const headers: Record<string, string> = { "User-Agent": "Mensageria/1.0", ...(type ? { "Content-Type": type } : {}), ...init.headers };
  let target: string | URL = raw;
  for (let hop = 0; ; hop++) {
    // Only the first hop may be vouched for by the caller; a hop elsewhere is judged on its own.
    const { url, trusted } = checkUrl(target, hop === 0 ? init.trust : "tenant");
    const address = await resolveChecked(url, trusted);
    const got = await exchange(url, address, method, headers, body, init, signal);
    if (got.status < 300 || got.status >= 400) {
      const answer = { ...got, url: url.href };
      return { ...answer, text: () => Buffer.from(answer.body).toString("utf8"), json: () => JSON.parse(Buffer.from(answer.body).toString("utf8")) };
    }
    const location = got.headers.get("location");
    if (hop >= (init.redirects ?? 0) || !location) throw new OutboundError("redirect", `${got.status} to ${location ?? "nowhere"}`, got.status);
    target = new URL(location, url);
    // As fetch does: 303 (and 301/302 after a POST) continue as a GET without the body.
    if (got.status === 303 || ((got.status === 301 || got.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
      delete headers["Content-Type"];
    }
    // Credentials never follow a redirect to another origin.
    if ((target as URL).origin !== url.origin) delete headers.Authorization;
  }
}
