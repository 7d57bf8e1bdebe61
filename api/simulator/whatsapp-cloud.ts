/**
 * A loopback peer of Meta's WhatsApp Business Cloud API (Graph), served by the simulator process
 * under /whatsapp/v19.0 (WHATSAPP_API_URL's default outside production), so `npm start` and the
 * tests run the whole WhatsApp loop without Meta. It speaks Graph's request and error formats and
 * posts Graph's webhooks, signed X-Hub-Signature-256 with the simulated Meta app's secret.
 *
 * Its rules (documented for whoever tries it by hand):
 * - Tokens: any bearer token starting with "EAA" (as Meta's do) is valid; any other, or one
 *   containing "expired", answers 401 OAuthException code 190.
 * - Numbers: every phone number id of digits exists, except one ending in 404404 (400,
 *   code 100 "Object with ID … does not exist"; six digits, so a test's random id is not unknown
 *   by chance). Its display number is +55 11 9 and its last 8 digits;
 *   verified name "Simulated Business <last 4>", quality GREEN, messaging limit TIER_1K.
 * - The app: one simulated Meta app whose secret is simulatedAppSecret(SIMULATOR_API_KEY) (an HMAC
 *   of the simulator's key, so nobody writes it down); its webhooks are signed with it.
 * - POST /{waba}/subscribed_apps {override_callback_uri, verify_token}: first Meta's handshake, a GET
 *   of the URI with hub.mode=subscribe, hub.verify_token and hub.challenge, which must answer 200
 *   with the challenge (else 400 code 2200, as Meta); then the WABA's webhooks go there.
 *   DELETE /{waba}/subscribed_apps stops them.
 * - POST /{waba}/message_templates: Meta's checks that matter here (name, category, language, a
 *   BODY component; the same name and language twice: 400 code 100 subcode 2388024) -> {id,
 *   status: PENDING, category}. SIMULATOR_DELAY_MS later it decides: a name containing "reject"
 *   is REJECTED with reason INVALID_FORMAT, any other APPROVED; the decision is posted as a
 *   `message_template_status_update` webhook. GET lists the WABA's templates, DELETE ?name=
 *   deletes every language of a name.
 * - Test control (Authorization: Bearer SIMULATOR_API_KEY, not Graph): POST
 *   /whatsapp/_sim/templates/{id} {event: PAUSED | DISABLED | REINSTATED | APPROVED | REJECTED,
 *   reason?, notify?} posts that template status webhook now (Meta pauses templates of low quality;
 *   notify: false changes it at the peer only, a webhook not yet delivered);
 *   POST /whatsapp/_sim/inbound {waba_id, phone_number_id, from, text, name?, timestamp?, media?:
 *   {type: image | video | audio | document | sticker, data (base64), mime_type, filename?}} posts a
 *   contact's message to the number as Meta's `messages` webhook (a text, or the file with `text`
 *   as its caption; answers its wamid); GET /whatsapp/_sim/messages[?to=] lists the messages sent
 *   through the peer, as it received them; GET /whatsapp/_sim/reads lists the contacts' messages
 *   the business marked read.
 * - Media: a contact's file gets a media id; GET /{media-id} answers {url, mime_type, file_size,
 *   sha256} as Graph does, and the URL (on this peer) answers the bytes to a valid bearer token.
 * - POST /{phone-number-id}/messages {status: "read", message_id} marks a contact's message read
 *   (Graph's blue ticks): {success: true}.
 * - POST /{phone-number-id}/messages: see sendMessage (a number belongs to the WABA subscribed
 *   with the same token).
 * Webhook posts are retried (0.5 s doubling, 6 tries) while the endpoint fails, as Meta does.
 * Statuses of one number that fall due together (within 25 ms) go in one post, up to 100, as
 * Meta batches them under volume.
 * State is in memory: a restart forgets templates and subscriptions.
 */
import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { env } from "../lib/env";

const config = env();
const PREFIX = "/whatsapp/v19.0/";
const CONTROL = "/whatsapp/_sim/templates/";
/** Where a contact's file is downloaded from (Meta's CDN, here). */
const MEDIA_DOWNLOAD = "/whatsapp/_media/";

/** The simulated Meta app's secret (its webhooks' signing key), from the simulator's key. */
export const simulatedAppSecret = (simulatorApiKey: string) => createHmac("sha256", simulatorApiKey).update("whatsapp-cloud-app-secret").digest("base64url");

type Template = { id: string; waba: string; name: string; language: string; category: string; components: unknown; status: string };
const templates = new Map<string, Template>();
const subscriptions = new Map<string, string>(); // waba -> callback URI
/** The WABA subscribed with a token: a number sending with that token belongs to it (the peer's rule). */
const tokenWaba = new Map<string, string>();
type Sent = { id: string; from: string; to: string; type: string; content: Record<string, unknown>; at: number };
const sent: Sent[] = [];
/** Contacts' files by media id (numeric, as Graph's), and the messages the business marked read. */
const media = new Map<string, { bytes: Buffer; mime_type: string }>();
let nextMediaId = 2_000_000_000_000_000 + Math.floor(Math.random() * 1_000_000);
const reads: Array<{ phone_number_id: string; message_id: string; at: number }> = [];
const MEDIA_KINDS = ["image", "video", "audio", "document", "sticker"];
const MEDIA_MAX_KEPT = 1000;
let nextTemplateId = 1_000_000_000_000_000 + Math.floor(Math.random() * 1_000_000);

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const graphError = (status: number, code: number, message: string, type = "OAuthException", subcode?: number) =>
  json({ error: { message, type, code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: randomBytes(8).toString("base64url") } }, status);

const bearerOf = (req: Request) => (req.headers.get("Authorization") ?? "").replace(/^Bearer\s+/i, "");

function tokenError(req: Request): Response | null {
  const token = (req.headers.get("Authorization") ?? "").replace(/^Bearer\s+/i, "");
  if (!token.startsWith("EAA") || token.includes("expired")) return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
  return null;
}

async function body(req: Request): Promise<Record<string, unknown>> {
  try {
    const v = await req.json();
    return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Posts one webhook to the WABA's callback, signed; retried while it fails. */
function postWebhook(waba: string, field: string, value: Record<string, unknown>) {
  const uri = subscriptions.get(waba);
  if (!uri) return;
  const raw = JSON.stringify({ object: "whatsapp_business_account", entry: [{ id: waba, time: Math.floor(Date.now() / 1000), changes: [{ field, value }] }] });
  const signature = `sha256=${createHmac("sha256", simulatedAppSecret(config.SIMULATOR_API_KEY)).update(raw).digest("hex")}`;
  void (async () => {
    let last = "";
    for (let attempt = 0; attempt < 6; attempt++) {
      try {
        const res = await fetch(uri, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signature },
          body: raw,
          signal: AbortSignal.timeout(10_000),
        });
        last = `HTTP ${res.status} ${(await res.text()).slice(0, 120)}`;
        if (res.ok) return;
      } catch (e) {
        last = (e as Error).message;
      }
      await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
    }
    console.warn(`whatsapp peer: gave up posting ${field} to ${uri} (last: ${last})`);
  })();
}

/**
 * Statuses of one number due at the same moment go in one `messages` webhook (Meta puts several
 * statuses in one post under volume): queued, and posted STATUS_FLUSH_MS later, at most
 * STATUS_BATCH per post.
 */
const STATUS_FLUSH_MS = 25;
const STATUS_BATCH = 100;
const pendingStatuses = new Map<string, { waba: string; phoneNumberId: string; list: Array<Record<string, unknown>> }>();
function queueStatus(waba: string, phoneNumberId: string, status: Record<string, unknown>) {
  const key = `${waba}:${phoneNumberId}`;
  let pending = pendingStatuses.get(key);
  if (!pending) {
    pending = { waba, phoneNumberId, list: [] };
    pendingStatuses.set(key, pending);
    setTimeout(() => {
      pendingStatuses.delete(key);
      for (let i = 0; i < pending!.list.length; i += STATUS_BATCH) {
        postWebhook(waba, "messages", {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: phoneNumberId.slice(-8), phone_number_id: phoneNumberId },
          statuses: pending!.list.slice(i, i + STATUS_BATCH),
        });
      }
    }, STATUS_FLUSH_MS);
  }
  pending.list.push(status);
}

function templateEvent(t: Template, event: string, reason = "NONE") {
  postWebhook(t.waba, "message_template_status_update", {
    event,
    message_template_id: Number(t.id),
    message_template_name: t.name,
    message_template_language: t.language,
    reason,
  });
}

async function subscribe(req: Request, waba: string): Promise<Response> {
  const b = await body(req);
  const uri = typeof b.override_callback_uri === "string" ? b.override_callback_uri : "";
  const verifyToken = typeof b.verify_token === "string" ? b.verify_token : "";
  if (!uri || !verifyToken) return graphError(400, 100, "(#100) override_callback_uri and verify_token are required", "OAuthException");
  const challenge = randomUUID();
  const url = new URL(uri);
  url.searchParams.set("hub.mode", "subscribe");
  url.searchParams.set("hub.verify_token", verifyToken);
  url.searchParams.set("hub.challenge", challenge);
  let echoed = "";
  let status = 0;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    status = res.status;
    echoed = await res.text();
  } catch (e) {
    echoed = (e as Error).message;
  }
  if (status !== 200 || echoed.trim() !== challenge) {
    return graphError(400, 2200, `(#2200) Callback verification failed with the following errors: HTTP Status Code = ${status}; HTTP Message = ${echoed.slice(0, 80)}`);
  }
  subscriptions.set(waba, uri);
  tokenWaba.set(bearerOf(req), waba);
  return json({ success: true });
}

async function createTemplate(req: Request, waba: string): Promise<Response> {
  const b = await body(req);
  const name = String(b.name ?? "");
  const language = String(b.language ?? "");
  const category = String(b.category ?? "");
  if (!/^[a-z0-9_]{1,512}$/.test(name)) return graphError(400, 100, "(#100) Invalid parameter: name", "OAuthException", 2388042);
  if (!["UTILITY", "MARKETING", "AUTHENTICATION"].includes(category)) return graphError(400, 100, "(#100) Invalid parameter: category");
  if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language)) return graphError(400, 100, "(#100) Invalid parameter: language");
  const components = Array.isArray(b.components) ? b.components : [];
  if (!components.some((c) => (c as { type?: unknown })?.type === "BODY")) return graphError(400, 100, "(#100) Invalid parameter: components needs a BODY");
  if ([...templates.values()].some((t) => t.waba === waba && t.name === name && t.language === language)) {
    return graphError(400, 100, "Message template already exists in this language", "OAuthException", 2388024);
  }
  const t: Template = { id: String(nextTemplateId++), waba, name, language, category, components, status: "PENDING" };
  templates.set(t.id, t);
  setTimeout(() => {
    if (!templates.has(t.id)) return;
    const rejected = name.includes("reject");
    t.status = rejected ? "REJECTED" : "APPROVED";
    templateEvent(t, t.status, rejected ? "INVALID_FORMAT" : "NONE");
  }, config.SIMULATOR_DELAY_MS);
  return json({ id: t.id, status: t.status, category });
}

/**
 * POST /{phone-number-id}/messages: Graph's checks that matter here (messaging_product, an E.164
 * `to` of digits, a known type; a template must exist APPROVED in the number's WABA: 132001 /
 * 132015 as Meta), then statuses sent, delivered and read, SIMULATOR_DELAY_MS apart, posted to the
 * WABA's callback; a recipient ending in 0001 fails (131026 Message undeliverable).
 */
async function sendMessage(req: Request, phoneNumberId: string): Promise<Response> {
  const b = await body(req);
  const to = String(b.to ?? "");
  const type = String(b.type ?? "text");
  if (b.messaging_product !== "whatsapp") return graphError(400, 100, "(#100) The parameter messaging_product is required.");
  if (b.status === "read") {
    if (typeof b.message_id !== "string" || !b.message_id.startsWith("wamid.")) return graphError(400, 100, "(#100) Invalid parameter: message_id");
    reads.push({ phone_number_id: phoneNumberId, message_id: b.message_id, at: Date.now() });
    if (reads.length > 10_000) reads.splice(0, reads.length - 10_000);
    return json({ success: true });
  }
  if (!/^[1-9]\d{7,14}$/.test(to)) return graphError(400, 100, "(#100) Invalid parameter: to");
  if (!["text", "template", "image", "video", "document", "audio", "sticker", "location", "interactive"].includes(type))
    return graphError(400, 100, "(#100) Invalid parameter: type");
  const waba = tokenWaba.get(bearerOf(req)) ?? "";
  if (type === "template") {
    const t = b.template as { name?: unknown; language?: { code?: unknown } } | undefined;
    const found = [...templates.values()].find((x) => x.waba === waba && x.name === t?.name && x.language === t?.language?.code);
    if (!found) return graphError(404, 132001, "(#132001) Template name does not exist in the translation");
    if (found.status === "PAUSED") return graphError(400, 132015, "(#132015) Template is paused");
    if (found.status !== "APPROVED") return graphError(400, 132001, "(#132001) Template name does not exist in the translation");
    // As Meta: the body's parameters must be as many as its variables (132000), and a media header needs its file (132012).
    const parts = (found.components ?? []) as Array<{ type?: string; format?: string; text?: string }>;
    const given = ((t as { components?: Array<{ type?: string; parameters?: Array<Record<string, unknown>> }> }).components ?? []) as Array<{
      type?: string;
      parameters?: Array<Record<string, unknown>>;
    }>;
    const expected = new Set((parts.find((c) => c.type === "BODY")?.text ?? "").match(/\{\{\s*\d+\s*\}\}/g) ?? []).size;
    if ((given.find((c) => c.type === "body")?.parameters?.length ?? 0) !== expected)
      return graphError(400, 132000, "(#132000) Number of parameters does not match the expected number of params");
    const format = parts.find((c) => c.type === "HEADER")?.format?.toLowerCase();
    if (format === "image" || format === "video" || format === "document") {
      const p = given.find((c) => c.type === "header")?.parameters?.[0] as Record<string, { link?: unknown; id?: unknown } | undefined> | undefined;
      if (p?.type !== format || !(p?.[format]?.link || p?.[format]?.id)) return graphError(400, 132012, "(#132012) Parameter format does not match format in the created template");
    }
  } else if (type === "text" && typeof (b.text as { body?: unknown } | undefined)?.body !== "string") return graphError(400, 100, "(#100) Invalid parameter: text.body");
  const id = wamid();
  const { messaging_product: _p, recipient_type: _r, to: _t, ...content } = b;
  sent.push({ id, from: phoneNumberId, to, type, content, at: Date.now() });
  if (sent.length > 100_000) sent.splice(0, sent.length - 100_000);
  const statusAt = (status: string, after: number, errors?: unknown[]) =>
    setTimeout(() => queueStatus(waba, phoneNumberId, { id, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: to, ...(errors ? { errors } : {}) }), after);
  const delay = Math.max(10, config.SIMULATOR_DELAY_MS);
  if (to.endsWith("0001")) statusAt("failed", delay, [{ code: 131026, title: "Message undeliverable" }]);
  else {
    statusAt("sent", delay);
    statusAt("delivered", delay * 2);
    statusAt("read", delay * 3);
  }
  return json({ messaging_product: "whatsapp", contacts: [{ input: to, wa_id: to }], messages: [{ id }] });
}

const wamid = () => `wamid.${Buffer.from(randomBytes(24)).toString("base64url")}`;

/** A contact writes to a number: Meta's `messages` webhook. */
async function simulateInbound(req: Request): Promise<Response> {
  const b = await body(req);
  const waba = String(b.waba_id ?? "");
  const phoneNumberId = String(b.phone_number_id ?? "");
  const from = String(b.from ?? "").replace(/^\+/, "");
  if (!subscriptions.has(waba) || !/^\d+$/.test(phoneNumberId) || !/^[1-9]\d{7,14}$/.test(from)) return json({ error: { code: "invalid" } }, 400);
  const id = wamid();
  const timestamp = String(typeof b.timestamp === "number" ? b.timestamp : Math.floor(Date.now() / 1000));
  const file = b.media as { type?: unknown; data?: unknown; mime_type?: unknown; filename?: unknown } | undefined;
  let message: Record<string, unknown> = { type: "text", text: { body: String(b.text ?? "") } };
  if (file) {
    const kind = String(file.type ?? "");
    if (!MEDIA_KINDS.includes(kind) || typeof file.data !== "string" || typeof file.mime_type !== "string") return json({ error: { code: "invalid_media" } }, 400);
    const mediaId = String(nextMediaId++);
    media.set(mediaId, { bytes: Buffer.from(file.data, "base64"), mime_type: file.mime_type });
    if (media.size > MEDIA_MAX_KEPT) media.delete(media.keys().next().value as string);
    const caption = typeof b.text === "string" && b.text && ["image", "video", "document"].includes(kind) ? { caption: b.text } : {};
    const filename = kind === "document" && typeof file.filename === "string" ? { filename: file.filename } : {};
    message = {
      type: kind,
      [kind]: { id: mediaId, mime_type: file.mime_type, sha256: createHash("sha256").update(media.get(mediaId)!.bytes).digest("base64"), ...caption, ...filename },
    };
  }
  postWebhook(waba, "messages", {
    messaging_product: "whatsapp",
    metadata: { display_phone_number: phoneNumberId.slice(-8), phone_number_id: phoneNumberId },
    contacts: [{ profile: { name: typeof b.name === "string" ? b.name : "Cliente Simulado" }, wa_id: from }],
    messages: [{ from, id, timestamp, ...message }],
  });
  return json({ id }, 202);
}

/** Graph (`/whatsapp/v19.0/…`) and the test control (`/whatsapp/_sim/…`); null for any other path. */
export async function whatsappCloudPeer(req: Request, pathname: string): Promise<Response | null> {
  if (pathname === "/whatsapp/_sim/messages" && req.method === "GET") {
    if (req.headers.get("Authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
    const to = new URL(req.url).searchParams.get("to");
    return json({ data: sent.filter((m) => !to || m.to === to.replace(/^\+/, "")) });
  }
  if (pathname === "/whatsapp/_sim/reads" && req.method === "GET") {
    if (req.headers.get("Authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
    return json({ data: reads });
  }
  if (pathname.startsWith(MEDIA_DOWNLOAD) && req.method === "GET") {
    const denied = tokenError(req);
    if (denied) return denied;
    const found = media.get(pathname.slice(MEDIA_DOWNLOAD.length));
    if (!found) return graphError(404, 100, "(#100) Media not found");
    return new Response(new Uint8Array(found.bytes), { headers: { "Content-Type": found.mime_type, "Content-Length": String(found.bytes.length) } });
  }
  if (pathname === "/whatsapp/_sim/inbound" && req.method === "POST") {
    if (req.headers.get("Authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
    return simulateInbound(req);
  }
  if (pathname.startsWith(CONTROL) && req.method === "POST") {
    if (req.headers.get("Authorization") !== `Bearer ${config.SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
    const t = templates.get(decodeURIComponent(pathname.slice(CONTROL.length)));
    if (!t) return json({ error: { code: "not_found" } }, 404);
    const b = await body(req);
    const event = String(b.event ?? "").toUpperCase();
    if (!["PAUSED", "DISABLED", "REINSTATED", "APPROVED", "REJECTED"].includes(event)) return json({ error: { code: "invalid_event" } }, 400);
    t.status = event === "REINSTATED" ? "APPROVED" : event;
    // notify: false changes the template at "Meta" without its webhook (yet): a pause we have not heard of.
    if (b.notify !== false) templateEvent(t, event, typeof b.reason === "string" ? b.reason : "NONE");
    return json({ ok: true }, 202);
  }
  if (!pathname.startsWith(PREFIX)) return null;
  const denied = tokenError(req);
  if (denied) return denied;
  const [object, edge, ...rest] = pathname.slice(PREFIX.length).split("/").map(decodeURIComponent);
  if (!/^\d+$/.test(object ?? "") || rest.length) return graphError(400, 100, "Unsupported request - method type or path", "GraphMethodException", 33);
  if (object.endsWith("404404"))
    return graphError(
      400,
      100,
      `Unsupported get request. Object with ID '${object}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
      "GraphMethodException",
      33,
    );
  const file = !edge && req.method === "GET" ? media.get(object) : undefined;
  if (file) {
    const url = new URL(`${MEDIA_DOWNLOAD}${object}`, req.url).toString();
    return json({
      messaging_product: "whatsapp",
      url,
      mime_type: file.mime_type,
      sha256: createHash("sha256").update(file.bytes).digest("hex"),
      file_size: file.bytes.length,
      id: object,
    });
  }
  if (!edge && req.method === "GET") {
    const last8 = object.slice(-8).padStart(8, "0");
    return json({
      id: object,
      display_phone_number: `+55 11 9${last8.slice(0, 4)}-${last8.slice(4)}`,
      verified_name: `Simulated Business ${object.slice(-4)}`,
      quality_rating: "GREEN",
      messaging_limit_tier: "TIER_1K",
    });
  }
  if (edge === "messages" && req.method === "POST") return sendMessage(req, object);
  if (edge === "subscribed_apps" && req.method === "POST") return subscribe(req, object);
  if (edge === "subscribed_apps" && req.method === "DELETE") {
    subscriptions.delete(object);
    return json({ success: true });
  }
  if (edge === "message_templates" && req.method === "POST") return createTemplate(req, object);
  if (edge === "message_templates" && req.method === "GET") {
    return json({ data: [...templates.values()].filter((t) => t.waba === object).map(({ waba: _w, ...t }) => t) });
  }
  if (edge === "message_templates" && req.method === "DELETE") {
    const name = new URL(req.url).searchParams.get("name") ?? "";
    const mine = [...templates.values()].filter((t) => t.waba === object && t.name === name);
    if (!mine.length) return graphError(400, 100, "(#100) Message template not found", "OAuthException", 2593002);
    for (const t of mine) templates.delete(t.id);
    return json({ success: true });
  }
  return graphError(400, 100, "Unsupported request - method type or path", "GraphMethodException", 33);
}
