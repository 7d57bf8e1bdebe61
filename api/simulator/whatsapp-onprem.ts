/**
 * A loopback peer of the older WhatsApp integration (issue 16, ADR 035): WhatsApp Business API
 * clients in the On-Premises API shape as a BSP hosts them, plus the BSP's template API, served by
 * the simulator process under /whatsapp-onprem, so the suite and `npm start` run the whole onprem
 * loop without a BSP. It speaks the On-Premises request, answer and error formats ({errors: [{code,
 * title, details}]}) and posts the client's webhooks; nothing here is used in production.
 *
 * Its rules (documented for whoever tries it by hand):
 * - Clients: every path segment of letters, digits, "_" or "-" is one client (one phone number, as
 *   BSPs host them): its base URL is `SIMULATOR_URL/whatsapp-onprem/{client}` and the API is under
 *   it (`…/v1/messages`). Tests use the number's digits as the client. State is in memory: a
 *   restart forgets tokens, webhook URLs, checked contacts and templates.
 * - Login: POST /v1/users/login with HTTP Basic, the demo credentials ONPREM_SIM_USERNAME /
 *   ONPREM_SIM_PASSWORD ("admin" / "Simulado#2024"), answers {users: [{token, expires_after}]}
 *   (valid 7 days); anything else is 401, code 1005 "Access denied". Every other /v1 call needs
 *   Authorization: Bearer <token> of that client (else 401, code 1005 "Invalid token").
 * - GET /v1/health: {health: {gateway_status: "connected"}}, or "unregistered" for a client whose
 *   name contains "unregistered".
 * - PATCH /v1/settings/application {webhooks: {url}} sets where the client posts its webhooks (""
 *   clears it; http is accepted, for loopback); GET answers {settings: {application: {webhooks}}}.
 * - POST /v1/contacts {blocking, contacts, force_check}: each number "valid" (wa_id = its digits)
 *   except one ending in 0001, "invalid". The client behaves like one older than v2.39: a message
 *   to a contact never checked (nor heard from) is 404, code 1006 "unknown contact"; to a contact
 *   checked invalid, 400, code 1013 "User is not valid".
 * - POST /v1/messages {to, type, text | template {namespace, name, language {policy, code},
 *   components} | image…}: policy must be "deterministic" (400, code 1009); answers 201
 *   {messages: [{id}]}. A template that is not approved at the BSP under the client's namespace
 *   (name and language) is accepted and then fails: status `failed`, code 2001 "Template missing".
 *   Otherwise statuses sent, delivered and read follow, SIMULATOR_DELAY_MS apart, posted to the
 *   webhook URL as {statuses: [{id, recipient_id, status, timestamp, errors?}]}.
 * - The BSP's templates (360dialog's shape, the same bearer token; errors as {meta: {success:
 *   false, http_code, developer_message}}): GET /v1/configs/templates -> {waba_templates: [{id,
 *   name, language, category, components, namespace, status, rejected_reason}], count, total…};
 *   POST /v1/configs/templates {name, category, language, components} -> 201, status "submitted"
 *   (a second one with the same name and language: 400); SIMULATOR_DELAY_MS later it is
 *   "rejected" (rejected_reason INVALID_FORMAT) when its name contains "reject", else "approved".
 *   The BSP posts no webhook about it: its list is where a client reads the review (polling).
 *   DELETE /v1/configs/templates/{name} deletes every language of the name (404 when none).
 *   The client's namespace is fixed per client (derived from its name).
 * - Webhook posts are retried (0.5 s doubling, 6 tries) while the endpoint does not answer 2xx,
 *   like the client's callback retries.
 * - Test control (Authorization: Bearer SIMULATOR_API_KEY, not the On-Premises API), under
 *   /whatsapp-onprem/_sim/{client}/: POST inbound {from, text, name?, timestamp?, media?: {type:
 *   image | video | audio | voice | document | sticker, data (base64), mime_type, filename?}}
 *   posts a contact's message (a text, or the file with `text` as its caption) as the client's
 *   `messages` webhook (answers its id); POST expire-tokens ends every token of the client (the
 *   next call is 401, as after a client restart); GET messages[?to=] lists what the client
 *   received to send; GET reads lists the contacts' messages marked read.
 * - GET /v1/media/{id}: a contact's file (its bytes, Content-Type its type; 404, code 1006 for an
 *   unknown id). PUT /v1/messages/{id} {status: "read"} marks a contact's message read.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { env } from "../lib/env";

const config = env();
const PREFIX = "/whatsapp-onprem/";
const CONTROL = "/whatsapp-onprem/_sim/";
/** The simulated clients' demo credentials (loopback only; any client takes them). */
export const ONPREM_SIM_USERNAME = "admin";
export const ONPREM_SIM_PASSWORD = "Simulado#2024";
const TOKEN_DAYS = 7;
const META = { api_status: "stable", version: "v2.51.1" };

type Template = { id: string; name: string; language: string; category: string; components: unknown; namespace: string; status: string; rejected_reason: string };
type Sent = { id: string; to: string; type: string; body: Record<string, unknown>; at: number };
type Client = {
  tokens: Map<string, number>;
  webhookUrl: string;
  contacts: Map<string, "valid" | "invalid">;
  templates: Template[];
  sent: Sent[];
  namespace: string;
  /** Contacts' files by media id, and the contacts' messages the business marked read. */
  media: Map<string, { bytes: Buffer; mime_type: string }>;
  reads: Array<{ id: string; at: number }>;
};
const clients = new Map<string, Client>();
let nextTemplateId = 700_000_000_000_000 + Math.floor(Math.random() * 1_000_000);

function clientOf(name: string): Client {
  let c = clients.get(name);
  if (!c) {
    const h = createHash("sha256").update(`onprem-namespace:${name}`).digest("hex");
    const namespace = `${h.slice(0, 8)}_${h.slice(8, 12)}_${h.slice(12, 16)}_${h.slice(16, 20)}_${h.slice(20, 32)}`;
    c = { tokens: new Map(), webhookUrl: "", contacts: new Map(), templates: [], sent: [], namespace, media: new Map(), reads: [] };
    clients.set(name, c);
  }
  return c;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
/** The On-Premises client's error answer. */
const apiError = (status: number, code: number, title: string, details?: string) => json({ errors: [{ code, title, ...(details ? { details } : {}) }], meta: META }, status);
/** The BSP's configs API error answer. */
const bspError = (status: number, message: string) => json({ meta: { success: false, http_code: status, developer_message: message } }, status);

async function body(req: Request): Promise<Record<string, unknown>> {
  try {
    const v = await req.json();
    return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const digitsOf = (v: unknown) => String(v ?? "").replace(/^\+/, "");
const now = () => String(Math.floor(Date.now() / 1000));
const messageId = () => `gBEG${randomBytes(18).toString("base64url")}`;
const expiresAfter = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "+00:00");

function login(req: Request, c: Client): Response {
  const [scheme, encoded] = (req.headers.get("Authorization") ?? "").split(" ");
  const [user, ...rest] = Buffer.from(encoded ?? "", "base64")
    .toString("utf8")
    .split(":");
  if (scheme?.toLowerCase() !== "basic" || !sameText(user ?? "", ONPREM_SIM_USERNAME) || !sameText(rest.join(":"), ONPREM_SIM_PASSWORD)) {
    return apiError(401, 1005, "Access denied", "Invalid credentials.");
  }
  const token = randomBytes(36).toString("base64url");
  const until = Date.now() + TOKEN_DAYS * 24 * 3600_000;
  c.tokens.set(token, until);
  return json({ users: [{ token, expires_after: expiresAfter(until) }], meta: META });
}

function authorized(req: Request, c: Client): boolean {
  const token = (req.headers.get("Authorization") ?? "").replace(/^Bearer\s+/i, "");
  const until = c.tokens.get(token);
  return until !== undefined && until > Date.now();
}

/** Posts one webhook to the client's URL; retried while it does not answer 2xx. */
function postWebhook(c: Client, payload: Record<string, unknown>) {
  const raw = JSON.stringify(payload);
  void (async () => {
    for (let attempt = 0; attempt < 6; attempt++) {
      const url = c.webhookUrl;
      if (!url) return;
      try {
        const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: raw, signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        if (res.ok) return;
      } catch {}
      await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
    }
    console.warn("whatsapp onprem peer: gave up posting a webhook");
  })();
}

function checkContacts(c: Client, b: Record<string, unknown>): Response {
  const list = Array.isArray(b.contacts) ? b.contacts : [];
  if (!list.length) return apiError(400, 1008, "Required parameter is missing", "contacts");
  const contacts = list.map((input) => {
    const digits = digitsOf(input).replace(/[^\d]/g, "");
    const valid = /^[1-9]\d{7,14}$/.test(digits) && !digits.endsWith("0001");
    c.contacts.set(digits, valid ? "valid" : "invalid");
    return valid ? { input, status: "valid", wa_id: digits } : { input, status: "invalid" };
  });
  return json({ contacts, meta: META });
}

const SEND_TYPES = ["text", "template", "image", "video", "document", "audio", "sticker", "location", "interactive", "contacts"];

function sendMessage(c: Client, b: Record<string, unknown>): Response {
  const to = digitsOf(b.to);
  const type = String(b.type ?? "text");
  if (!/^[1-9]\d{7,14}$/.test(to)) return apiError(400, 1009, "Parameter value is not valid", "to");
  if (!SEND_TYPES.includes(type)) return apiError(400, 1009, "Parameter value is not valid", "type");
  const known = c.contacts.get(to);
  if (!known) return apiError(404, 1006, "Resource not found", "unknown contact");
  if (known === "invalid") return apiError(400, 1013, "User is not valid");
  let templateFails = false;
  if (type === "text") {
    if (typeof (b.text as { body?: unknown } | undefined)?.body !== "string") return apiError(400, 1008, "Required parameter is missing", "text.body");
  } else if (type === "template") {
    const t = (b.template ?? {}) as { namespace?: unknown; name?: unknown; language?: { policy?: unknown; code?: unknown } };
    if (typeof t.namespace !== "string" || typeof t.name !== "string" || typeof t.language?.code !== "string") {
      return apiError(400, 1008, "Required parameter is missing", "template.namespace, template.name and template.language.code");
    }
    if (t.language.policy !== "deterministic") return apiError(400, 1009, "Parameter value is not valid", "template.language.policy must be deterministic");
    templateFails = !c.templates.some((x) => x.namespace === t.namespace && x.name === t.name && x.language === t.language?.code && x.status === "approved");
  } else if (!b[type] || typeof b[type] !== "object") return apiError(400, 1008, "Required parameter is missing", type);
  const id = messageId();
  const { to: _to, recipient_type: _r, ...rest } = b;
  c.sent.push({ id, to, type, body: rest, at: Date.now() });
  if (c.sent.length > 10_000) c.sent.splice(0, c.sent.length - 10_000);
  const status = (name: string, after: number, errors?: unknown[]) =>
    setTimeout(() => postWebhook(c, { statuses: [{ id, recipient_id: to, status: name, timestamp: now(), ...(errors ? { errors } : {}) }] }), after);
  const delay = Math.max(10, config.SIMULATOR_DELAY_MS);
  if (templateFails) status("failed", delay, [{ code: 2001, title: "Template missing" }]);
  else {
    status("sent", delay);
    status("delivered", delay * 2);
    status("read", delay * 3);
  }
  return json({ messages: [{ id }], meta: META }, 201);
}

function createTemplate(c: Client, b: Record<string, unknown>): Response {
  const name = String(b.name ?? "");
  const language = String(b.language ?? "");
  const category = String(b.category ?? "");
  if (!/^[a-z0-9_]{1,512}$/.test(name)) return bspError(400, "name: only lowercase letters, digits and underscores");
  if (!["UTILITY", "MARKETING", "AUTHENTICATION"].includes(category)) return bspError(400, "category: one of UTILITY, MARKETING, AUTHENTICATION");
  if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language)) return bspError(400, "language: a language code such as pt_BR");
  const components = Array.isArray(b.components) ? b.components : [];
  if (!components.some((x) => (x as { type?: unknown })?.type === "BODY")) return bspError(400, "components: a BODY is required");
  if (c.templates.some((x) => x.name === name && x.language === language)) return bspError(400, "Message template already exists in this language");
  const t: Template = { id: String(nextTemplateId++), name, language, category, components, namespace: c.namespace, status: "submitted", rejected_reason: "NONE" };
  c.templates.push(t);
  setTimeout(() => {
    if (!c.templates.includes(t)) return;
    const rejected = name.includes("reject");
    t.status = rejected ? "rejected" : "approved";
    t.rejected_reason = rejected ? "INVALID_FORMAT" : "NONE";
  }, config.SIMULATOR_DELAY_MS);
  return json(t, 201);
}

/** A contact writes to the client's number: its `messages` webhook. */
async function simulateInbound(c: Client, req: Request): Promise<Response> {
  const b = await body(req);
  const from = digitsOf(b.from);
  if (!/^[1-9]\d{7,14}$/.test(from)) return json({ error: { code: "invalid_from" } }, 400);
  if (!c.webhookUrl) return json({ error: { code: "no_webhook", message: "The client has no webhook URL (PATCH /v1/settings/application)" } }, 409);
  // A contact who wrote is known to the client (no check needed to answer).
  c.contacts.set(from, "valid");
  const id = messageId();
  const timestamp = typeof b.timestamp === "number" ? String(b.timestamp) : now();
  const file = b.media as { type?: unknown; data?: unknown; mime_type?: unknown; filename?: unknown } | undefined;
  let message: Record<string, unknown> = { type: "text", text: { body: String(b.text ?? "") } };
  if (file) {
    const kind = String(file.type ?? "");
    if (!["image", "video", "audio", "document", "voice", "sticker"].includes(kind) || typeof file.data !== "string" || typeof file.mime_type !== "string")
      return json({ error: { code: "invalid_media" } }, 400);
    // The client's media ids are UUIDs.
    const mediaId = randomUUID();
    const bytes = Buffer.from(file.data, "base64");
    c.media.set(mediaId, { bytes, mime_type: file.mime_type });
    if (c.media.size > 200) c.media.delete(c.media.keys().next().value as string);
    const caption = typeof b.text === "string" && b.text && ["image", "video", "document"].includes(kind) ? { caption: b.text } : {};
    const filename = kind === "document" && typeof file.filename === "string" ? { filename: file.filename } : {};
    message = { type: kind, [kind]: { id: mediaId, mime_type: file.mime_type, sha256: createHash("sha256").update(bytes).digest("hex"), ...caption, ...filename } };
  }
  postWebhook(c, {
    contacts: [{ profile: { name: typeof b.name === "string" ? b.name : "Cliente Simulado" }, wa_id: from }],
    messages: [{ from, id, timestamp, ...message }],
  });
  return json({ id }, 202);
}

async function control(req: Request, pathname: string): Promise<Response> {
  if (req.headers.get("Authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
  const [name, action] = pathname.slice(CONTROL.length).split("/").map(decodeURIComponent);
  if (!/^[\w-]{1,64}$/.test(name ?? "")) return json({ error: { code: "not_found" } }, 404);
  const c = clientOf(name);
  if (action === "inbound" && req.method === "POST") return simulateInbound(c, req);
  if (action === "expire-tokens" && req.method === "POST") {
    c.tokens.clear();
    return json({ ok: true }, 202);
  }
  if (action === "reads" && req.method === "GET") return json({ data: c.reads });
  if (action === "messages" && req.method === "GET") {
    const to = new URL(req.url).searchParams.get("to");
    return json({ data: c.sent.filter((m) => !to || m.to === digitsOf(to)) });
  }
  return json({ error: { code: "not_found" } }, 404);
}

/** The clients (`/whatsapp-onprem/{client}/v1/…`) and the test control (`/whatsapp-onprem/_sim/…`); null for any other path. */
export async function whatsappOnpremPeer(req: Request, pathname: string): Promise<Response | null> {
  if (pathname.startsWith(CONTROL)) return control(req, pathname);
  if (!pathname.startsWith(PREFIX)) return null;
  const [name, version, ...rest] = pathname.slice(PREFIX.length).split("/").map(decodeURIComponent);
  if (!/^[\w-]{1,64}$/.test(name ?? "") || version !== "v1") return apiError(404, 1006, "Resource not found", "unknown path");
  const c = clientOf(name);
  const path = rest.join("/");
  if (path === "users/login" && req.method === "POST") return login(req, c);
  if (!authorized(req, c)) return apiError(401, 1005, "Access denied", "Invalid token");
  if (path === "health" && req.method === "GET") return json({ health: { gateway_status: name.includes("unregistered") ? "unregistered" : "connected" }, meta: META });
  if (path === "settings/application" && req.method === "GET") return json({ settings: { application: { webhooks: { url: c.webhookUrl }, callback_persist: true } }, meta: META });
  if (path === "settings/application" && req.method === "PATCH") {
    const url = ((await body(req)).webhooks as { url?: unknown } | undefined)?.url;
    if (typeof url !== "string" || (url && !/^https?:\/\/[^\s]+$/.test(url))) return apiError(400, 1009, "Parameter value is not valid", "webhooks.url");
    c.webhookUrl = url;
    return json({ meta: META });
  }
  if (path === "contacts" && req.method === "POST") return checkContacts(c, await body(req));
  if (path === "messages" && req.method === "POST") return sendMessage(c, await body(req));
  if (path.startsWith("messages/") && req.method === "PUT") {
    if ((await body(req)).status !== "read") return apiError(400, 1009, "Parameter value is not valid", "status");
    c.reads.push({ id: path.slice("messages/".length), at: Date.now() });
    if (c.reads.length > 1000) c.reads.splice(0, c.reads.length - 1000);
    return json({ meta: META });
  }
  if (path.startsWith("media/") && req.method === "GET") {
    const found = c.media.get(path.slice("media/".length));
    if (!found) return apiError(404, 1006, "Resource not found", "unknown media id");
    return new Response(new Uint8Array(found.bytes), { headers: { "Content-Type": found.mime_type, "Content-Length": String(found.bytes.length) } });
  }
  if (path === "configs/templates" && req.method === "GET") {
    return json({ count: c.templates.length, filters: {}, limit: 1000, offset: 0, sort: ["id"], total: c.templates.length, waba_templates: c.templates });
  }
  if (path === "configs/templates" && req.method === "POST") return createTemplate(c, await body(req));
  if (path.startsWith("configs/templates/") && req.method === "DELETE") {
    const templateName = path.slice("configs/templates/".length);
    const before = c.templates.length;
    c.templates = c.templates.filter((t) => t.name !== templateName);
    return before === c.templates.length ? bspError(404, "Template not found") : json({ meta: { success: true } });
  }
  return apiError(404, 1006, "Resource not found", "unknown path");
}
