/**
 * The older WhatsApp integration (issue 16, the spec's "jv" screens): a WhatsApp Business API
 * client in the On-Premises API shape, hosted for the customer by a Business Solution Provider
 * (BSP). The customer gives its client's base URL, a username and a password; every call goes to
 * that URL, which the TENANT chose, so through the one guarded HTTP client with trust "tenant"
 * (api/lib/outbound.ts, ADR 021: public addresses only, https, no redirect followed, bounded time
 * and size; tests reach the loopback peer because the test platform runs with
 * OUTBOUND_ALLOW_PRIVATE=true or because its origin is SIMULATOR_URL's, a platform origin).
 *
 *   POST   /v1/users/login            HTTP Basic (username:password) -> {users: [{token, expires_after}]}
 *   (every other call: Authorization: Bearer <token>; a 401 logs in again once)
 *   GET    /v1/health                 -> {health: {gateway_status}} or, multiconnect, {health: {<node>: {gateway_status, role}}}
 *   POST   /v1/contacts               {blocking: "wait", contacts: ["+55…"], force_check} -> {contacts: [{input, status: valid|invalid, wa_id}]}
 *   POST   /v1/messages               {to, type, recipient_type, text | template {namespace, name, language {policy: deterministic, code}, components}}
 *                                      -> {messages: [{id}]}
 *   PUT    /v1/messages/{id}          {status: "read"}: a contact's message marked read (blue ticks)
 *   GET    /v1/media/{id}             a contact's file, the bytes themselves (Content-Type its type)
 *   PATCH  /v1/settings/application   {webhooks: {url}}: where the client posts {contacts, messages, statuses, errors}
 *   GET    /v1/settings/application   -> {settings: {application: {webhooks: {url}}}}
 *   The BSP's template management (templates live at the BSP, not in the client; 360dialog's shape):
 *   GET    /v1/configs/templates      -> {waba_templates: [{id, name, language, category, namespace, status, rejected_reason}], count, total…}
 *   POST   /v1/configs/templates      {name, category, language, components} -> the template (status "submitted")
 *   DELETE /v1/configs/templates/{name}
 * Errors come as {errors: [{code, title, details}]} (the client) or {meta: {http_code,
 * developer_message}} (the BSP's configs API); both become an OnpremError with the status and code.
 *
 * The login token is kept per process, per base URL and credentials, until shortly before its
 * expires_after (or until a call answers 401: the token expired early or the client restarted).
 */
import { createHash } from "node:crypto";
import { isOutboundError, outboundFetch } from "../../lib/outbound";

const TIMEOUT_MS = 15_000;
const MAX_BYTES = 1_000_000;
/** A token is renewed this long before the expiry the client announced. */
const RENEW_BEFORE_MS = 60_000;
/** Without an expiry we can read, a token is used this long (the On-Premises API's are valid 7 days). */
const DEFAULT_TOKEN_MS = 24 * 3600_000;

/** Where and as whom to call one customer's client. */
export type OnpremConnection = { baseUrl: string; username: string; password: string };

/** A call that failed: the HTTP status (0: no answer) and the client's error code (1005 access denied, 1013 user not valid…). */
export class OnpremError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
    /** Why no answer came (the guard's reason: refused, unreachable, timeout, bad_url, redirect…), for status 0. */
    readonly network: string | null = null,
    /** The login itself failed (a 401 there is a wrong username or password, not a token to renew). */
    readonly login = false,
  ) {
    super(message);
    this.name = "OnpremError";
  }
  /** Retrying cannot help: a refused login, or a 4xx other than 401 (a token to renew), 408 and 429. */
  get permanent() {
    if (this.login && this.status === 401) return true;
    return this.status >= 400 && this.status < 500 && this.status !== 401 && this.status !== 408 && this.status !== 429;
  }
}

const tokens = new Map<string, { token: string; renewAt: number }>();
const keyOf = (c: OnpremConnection) => createHash("sha256").update(`${c.baseUrl}\0${c.username}\0${c.password}`).digest("base64url");

type Answer = { status: number; json: Record<string, unknown> | null };

async function request(c: OnpremConnection, path: string, init: { method?: string; body?: unknown; authorization: string }): Promise<Answer> {
  const url = `${c.baseUrl.replace(/\/+$/, "")}${path}`;
  let res: Awaited<ReturnType<typeof outboundFetch>>;
  try {
    res = await outboundFetch(url, {
      method: init.method ?? "GET",
      headers: { Authorization: init.authorization, Accept: "application/json", ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      trust: "tenant",
    });
  } catch (e) {
    if (isOutboundError(e)) {
      console.warn(`whatsapp onprem ${new URL(url).host}: ${e.reason} (${e.detail})`);
      throw new OnpremError(`On-Premises API: ${e.message}`, 0, null, e.reason);
    }
    throw new OnpremError(`On-Premises API: ${(e as Error).message}`, 0, null, "unreachable");
  }
  let json: Record<string, unknown> | null = null;
  try {
    const parsed = res.json();
    json = parsed && typeof parsed === "object" ? parsed : null;
  } catch {}
  return { status: res.status, json };
}

/** The error of an answer, in either shape (the client's `errors`, the BSP's `meta`), or null for a success. */
function failure(a: Answer, what: string): OnpremError | null {
  const errors = Array.isArray(a.json?.errors) ? (a.json.errors as Array<{ code?: unknown; title?: unknown; details?: unknown }>) : [];
  const meta = a.json?.meta as { success?: unknown; developer_message?: unknown } | undefined;
  if (a.status < 400 && !errors.length && meta?.success !== false) return null;
  const first = errors[0];
  const code = Number(first?.code);
  const text =
    [first?.title, first?.details].filter((x) => typeof x === "string" && x).join(": ") ||
    (typeof meta?.developer_message === "string" ? meta.developer_message : "") ||
    "no answer";
  return new OnpremError(`${what} ${a.status}: ${text}`.slice(0, 300), a.status >= 400 ? a.status : 502, Number.isFinite(code) ? code : null);
}

/** POST /v1/users/login with HTTP Basic: a bearer token and when it expires. A 401 means the username or password is wrong. */
export async function loginOnprem(c: OnpremConnection): Promise<{ token: string; expiresAt: Date | null }> {
  const basic = Buffer.from(`${c.username}:${c.password}`).toString("base64");
  const a = await request(c, "/v1/users/login", { method: "POST", body: {}, authorization: `Basic ${basic}` });
  const error = failure(a, "login");
  if (error) throw new OnpremError(error.message, error.status, error.code, null, true);
  const user = (a.json?.users as Array<{ token?: unknown; expires_after?: unknown }> | undefined)?.[0];
  if (typeof user?.token !== "string" || !user.token) throw new OnpremError("login: no token in the answer", 502, null);
  // "2018-03-01 15:29:26+00:00" (a space, not a T)
  const expires = typeof user.expires_after === "string" ? Date.parse(user.expires_after.replace(" ", "T")) : NaN;
  return { token: user.token, expiresAt: Number.isFinite(expires) ? new Date(expires) : null };
}

async function token(c: OnpremConnection, fresh = false): Promise<string> {
  const key = keyOf(c);
  const hit = tokens.get(key);
  if (!fresh && hit && hit.renewAt > Date.now()) return hit.token;
  const { token: value, expiresAt } = await loginOnprem(c);
  const renewAt = expiresAt ? expiresAt.getTime() - RENEW_BEFORE_MS : Date.now() + DEFAULT_TOKEN_MS;
  if (tokens.size > 10_000) tokens.clear();
  tokens.set(key, { token: value, renewAt });
  return value;
}

/** A call with the bearer token; a 401 (token expired, revoked, the client restarted) logs in again and retries once. */
async function call(c: OnpremConnection, path: string, what: string, init: { method?: string; body?: unknown } = {}): Promise<Record<string, unknown> | null> {
  let a = await request(c, path, { ...init, authorization: `Bearer ${await token(c)}` });
  if (a.status === 401) a = await request(c, path, { ...init, authorization: `Bearer ${await token(c, true)}` });
  const error = failure(a, what);
  if (error) throw error;
  return a.json;
}

/**
 * GET /v1/health: "connected" when the client (or, multiconnect, one of its nodes) is connected
 * to WhatsApp, else the state it reports (connecting, disconnected, unregistered, uninitialized…).
 */
export async function onpremHealth(c: OnpremConnection): Promise<string> {
  const json = await call(c, "/v1/health", "health");
  const health = (json?.health ?? {}) as Record<string, unknown>;
  if (typeof health.gateway_status === "string") return health.gateway_status;
  const nodes = Object.values(health).map((n) => (n as { gateway_status?: unknown })?.gateway_status);
  if (nodes.includes("connected")) return "connected";
  return String(nodes.find((s) => typeof s === "string") ?? "unknown");
}

export type OnpremContact = { input: string; status: "valid" | "invalid" | string; wa_id: string | null };

/** POST /v1/contacts {blocking: "wait", force_check}: whether each number is on WhatsApp (and its wa_id). */
export async function checkOnpremContacts(c: OnpremConnection, numbers: string[], forceCheck = false): Promise<OnpremContact[]> {
  const json = await call(c, "/v1/contacts", "contacts", { method: "POST", body: { blocking: "wait", contacts: numbers, force_check: forceCheck } });
  const list = Array.isArray(json?.contacts) ? (json.contacts as Array<{ input?: unknown; status?: unknown; wa_id?: unknown }>) : [];
  return list.map((x) => ({ input: String(x.input ?? ""), status: String(x.status ?? ""), wa_id: typeof x.wa_id === "string" ? x.wa_id : null }));
}

/** POST /v1/messages: one message in the On-Premises shape (onpremMessageBody) to `to` (E.164). Answers the client's message id. */
export async function sendOnpremMessage(c: OnpremConnection, to: string, body: Record<string, unknown>): Promise<string> {
  const json = await call(c, "/v1/messages", "messages", { method: "POST", body: { recipient_type: "individual", ...body, to: to.replace(/^\+/, "") } });
  const id = (json?.messages as Array<{ id?: unknown }> | undefined)?.[0]?.id;
  if (typeof id !== "string" || !id) throw new OnpremError("messages: no message id in the answer", 502, null);
  return id;
}

/** The client's error meaning "this contact was never checked" (clients before v2.39 need POST /v1/contacts first). */
export const UNKNOWN_CONTACT = 1006;

/**
 * Graph's message object (what api/whatsapp/send.ts stores) as the On-Premises API takes it: the
 * same `type` and part, except a template, which needs the WABA's template `namespace` and the
 * language policy (only "deterministic" is accepted since 2020). Null when a template has no
 * namespace to send it with.
 */
export function onpremMessageBody(content: Record<string, unknown>, namespace: string | null): Record<string, unknown> | null {
  const { messaging_product: _p, recipient_type: _r, to: _t, ...rest } = content;
  if (rest.type !== "template") return rest;
  if (!namespace) return null;
  const t = (rest.template ?? {}) as { name?: unknown; language?: { code?: unknown }; components?: unknown };
  return {
    type: "template",
    template: { namespace, name: t.name, language: { policy: "deterministic", code: t.language?.code }, ...(t.components ? { components: t.components } : {}) },
  };
}

/** PATCH /v1/settings/application {webhooks: {url}}: where the client posts messages and statuses ("" stops them). */
export async function setOnpremWebhook(c: OnpremConnection, url: string): Promise<void> {
  await call(c, "/v1/settings/application", "settings", { method: "PATCH", body: { webhooks: { url } } });
}

export type OnpremTemplate = { id: string | null; name: string; language: string; namespace: string | null; status: string; rejected_reason: string | null };

function templateOf(x: Record<string, unknown>): OnpremTemplate {
  const text = (v: unknown) => (typeof v === "string" && v ? v : null);
  return {
    id: text(x.id) ?? (typeof x.id === "number" ? String(x.id) : null),
    name: String(x.name ?? ""),
    language: String(x.language ?? ""),
    namespace: text(x.namespace),
    status: String(x.status ?? ""),
    rejected_reason: text(x.rejected_reason),
  };
}

/** GET /v1/configs/templates: the WABA's templates at the BSP with their review status (the BSP's answer to "what became of it"). */
export async function listOnpremTemplates(c: OnpremConnection): Promise<OnpremTemplate[]> {
  const json = await call(c, "/v1/configs/templates?limit=1000", "templates");
  const list = Array.isArray(json?.waba_templates) ? (json.waba_templates as Array<Record<string, unknown>>) : [];
  return list.map(templateOf);
}

/** POST /v1/configs/templates: submits a template for review (Meta's components, as for Graph). Answers the BSP's template. */
export async function submitOnpremTemplate(c: OnpremConnection, t: { name: string; language: string; category: string; components: unknown }): Promise<OnpremTemplate> {
  const json = await call(c, "/v1/configs/templates", "templates", {
    method: "POST",
    body: { name: t.name, language: t.language, category: t.category.toUpperCase(), components: t.components, allow_category_change: false },
  });
  if (!json || typeof json.name !== "string") throw new OnpremError("templates: no template in the answer", 502, null);
  return templateOf(json);
}

/** DELETE /v1/configs/templates/{name}: every language of the name. */
export async function deleteOnpremTemplate(c: OnpremConnection, name: string): Promise<void> {
  await call(c, `/v1/configs/templates/${encodeURIComponent(name)}`, "templates", { method: "DELETE" });
}

/** PUT /v1/messages/{id} {status: "read"}: the contact's message (and those before it) shown read to them. */
export async function markOnpremRead(c: OnpremConnection, messageId: string): Promise<void> {
  await call(c, `/v1/messages/${encodeURIComponent(messageId)}`, "read", { method: "PUT", body: { status: "read" } });
}

/**
 * GET /v1/media/{id}: a contact's file, answered as the bytes themselves, at most `maxBytes`
 * (a 401 logs in again once, as every call). Any other failure answers `unavailable`: the
 * message is kept without the file, as with the Cloud API.
 */
export async function onpremMedia(c: OnpremConnection, mediaId: string, maxBytes: number): Promise<{ bytes: Uint8Array; tooLarge: boolean; unavailable?: boolean }> {
  const none = { bytes: new Uint8Array(), tooLarge: false, unavailable: true };
  const url = `${c.baseUrl.replace(/\/+$/, "")}/v1/media/${encodeURIComponent(mediaId)}`;
  const get = async (fresh: boolean) => outboundFetch(url, { headers: { Authorization: `Bearer ${await token(c, fresh)}` }, timeoutMs: TIMEOUT_MS * 2, maxBytes, trust: "tenant" });
  try {
    let res = await get(false);
    if (res.status === 401) res = await get(true);
    return res.status >= 200 && res.status < 300 ? { bytes: res.body, tooLarge: false } : none;
  } catch (e) {
    if (isOutboundError(e) && e.reason === "too_large") return { bytes: new Uint8Array(), tooLarge: true };
    console.warn(`whatsapp onprem media ${mediaId}: ${(e as Error).message}`);
    return none;
  }
}
