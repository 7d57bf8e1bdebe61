/**
 * A loopback peer of Google's RCS Business Messaging API (rcsbusinessmessaging.googleapis.com v1),
 * served by the simulator process under /rbm (RBM_API_URL's default without RBM_SERVICE_ACCOUNT
 * outside production: api/channels/rcs/rbm-config.ts), so `npm start` and the tests run the whole
 * RCS loop without Google. It speaks RBM's request, answer and error shapes and posts RBM's agent
 * webhooks, signed as Google signs them.
 *
 * Its rules (documented for whoever tries it by hand):
 * - Token: POST /rbm/oauth2/token (grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer,
 *   assertion=<JWT>): the assertion must be signed (EdDSA) by the development service account
 *   (simulatedRbmKey(SIMULATOR_API_KEY), iss SIMULATED_RBM_ACCOUNT), name the rcsbusinessmessaging
 *   scope and not be expired -> {access_token, expires_in: 3600, token_type: "Bearer"}; else 400
 *   invalid_grant. The token is stateless (its expiry and an HMAC of the simulator's key): a
 *   restart keeps it valid. Any other bearer: 401 UNAUTHENTICATED, as Google.
 * - GET /rbm/v1/phones/{msisdn}/capabilities?requestId=…&agentId=…: a number whose last four digits
 *   are 0000 is not RCS-capable: 404 NOT_FOUND (Google's answer); any other E.164 number: 200
 *   {features: […]}. Each question is counted per number (GET /rbm/_sim/capabilities?msisdn=).
 * - POST /rbm/v1/phones/{msisdn}/agentMessages?messageId=…&agentId=… {contentMessage}: the
 *   contentMessage must hold exactly one of text, richCard, contentInfo (or uploadedRbmFile): else
 *   400 INVALID_ARGUMENT; a messageId already received: 409 ALREADY_EXISTS; a number that is not
 *   capable: 404 NOT_FOUND. Answers the AgentMessage {name, sendTime, contentMessage}. Then, as the
 *   WhatsApp peer: DELIVERED SIMULATOR_DELAY_MS later and READ twice that, except to a number
 *   ending in 0001, the handset that never gets it: nothing is posted (RBM reports no failed
 *   delivery; the message stays sent until its validity ends).
 * - Webhooks: POSTed to RBM_WEBHOOK_URL in Google's agent-webhook format, a Pub/Sub push envelope
 *   {message: {data: base64(event JSON), messageId, publishTime, attributes}, subscription} with
 *   X-Goog-Signature = base64(HMAC-SHA512(client token, the decoded data)); the client token is
 *   RBM_CLIENT_TOKEN or, unset, simulatedRbmClientToken(SIMULATOR_API_KEY). Event JSON: a status
 *   {agentId, senderPhoneNumber, eventType: DELIVERED | READ, eventId, messageId, sendTime}; a user
 *   message {agentId, senderPhoneNumber, messageId, sendTime, text} or {…, suggestionResponse:
 *   {postbackData, text, type: REPLY}}. Retried (0.5 s doubling, 6 tries) while the endpoint fails.
 * - Test control (Authorization: Bearer SIMULATOR_API_KEY): POST /rbm/users/{msisdn}/messages
 *   {agentId, text} or {agentId, suggestionResponse: {postbackData, text}} makes the user write to
 *   the agent (the signed user-message webhook; answers {messageId}); GET /rbm/_sim/messages[?to=]
 *   lists the agent messages received, as received; GET /rbm/_sim/capabilities?msisdn= how many
 *   capability questions a number got.
 * State is in memory: a restart forgets what was received.
 */
import { createHmac, createPublicKey, randomUUID, timingSafeEqual, verify } from "node:crypto";
import { RBM_SCOPE, SIMULATED_RBM_ACCOUNT, SIMULATED_RBM_PATH, SIMULATED_RBM_TOKEN_PATH, simulatedRbmClientToken, simulatedRbmKey } from "../channels/rcs/rbm-config";
import { env } from "../lib/env";

const config = env();
const API = `${SIMULATED_RBM_PATH}/v1/phones/`;
const USERS = `${SIMULATED_RBM_PATH}/users/`;
const TOKEN_TTL_S = 3600;
const KEPT = 100_000;

type Received = { messageId: string; agentId: string; to: string; contentMessage: Record<string, unknown>; at: number };
const received: Received[] = [];
const receivedIds = new Set<string>();
const capabilityQuestions = new Map<string, number>();

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
/** Google's error shape: {error: {code, message, status}}. */
const googleError = (code: number, status: string, message: string) => json({ error: { code, message, status } }, code);

const clientToken = () => config.RBM_CLIENT_TOKEN ?? simulatedRbmClientToken(config.SIMULATOR_API_KEY);
const tokenMac = (exp: string) => createHmac("sha256", config.SIMULATOR_API_KEY).update(`rbm-token:${exp}`).digest("base64url");

/** X-Goog-Signature of an RBM webhook: base64(HMAC-SHA512(client token, the event JSON, i.e. message.data decoded)). */
export const rbmSignature = (token: string, data: Buffer | string) => createHmac("sha512", token).update(data).digest("base64");

function validBearer(req: Request): boolean {
  const m = /^Bearer\s+sim\.rbm\.(\d+)\.([A-Za-z0-9_-]+)$/.exec(req.headers.get("Authorization") ?? "");
  if (!m || Number(m[1]) * 1000 < Date.now()) return false;
  const want = Buffer.from(tokenMac(m[1]));
  const got = Buffer.from(m[2]);
  return want.length === got.length && timingSafeEqual(want, got);
}

const isKey = (req: Request) => req.headers.get("Authorization") === `Bearer ${config.SIMULATOR_API_KEY}`;

/** The JWT bearer grant of the development service account (see the module comment). */
async function issueToken(req: Request): Promise<Response> {
  const form = new URLSearchParams(await req.text());
  const invalid = (why: string) => json({ error: "invalid_grant", error_description: why }, 400);
  if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return json({ error: "unsupported_grant_type" }, 400);
  const [h, c, s] = (form.get("assertion") ?? "").split(".");
  if (!h || !c || !s) return invalid("Invalid JWT");
  let claims: { iss?: string; scope?: string; exp?: number };
  try {
    claims = JSON.parse(Buffer.from(c, "base64url").toString());
  } catch {
    return invalid("Invalid JWT");
  }
  const publicKey = createPublicKey(simulatedRbmKey(config.SIMULATOR_API_KEY).private_key);
  if (!verify(null, Buffer.from(`${h}.${c}`), publicKey, Buffer.from(s, "base64url"))) return invalid("Invalid JWT Signature.");
  if (claims.iss !== SIMULATED_RBM_ACCOUNT) return invalid("Invalid email or User ID");
  if (
    !String(claims.scope ?? "")
      .split(" ")
      .includes(RBM_SCOPE)
  )
    return invalid("Invalid scope");
  if (!claims.exp || claims.exp * 1000 < Date.now()) return invalid("Invalid JWT: Token must be a short-lived token");
  const exp = String(Math.floor(Date.now() / 1000) + TOKEN_TTL_S);
  return json({ access_token: `sim.rbm.${exp}.${tokenMac(exp)}`, expires_in: TOKEN_TTL_S, token_type: "Bearer" });
}

const E164 = /^\+[1-9]\d{7,14}$/;
const capable = (msisdn: string) => !msisdn.endsWith("0000");

/** Posts one RBM event to the platform's webhook, signed; retried while it fails. */
function postEvent(event: Record<string, unknown>) {
  const data = Buffer.from(JSON.stringify(event));
  const raw = JSON.stringify({
    message: { attributes: {}, data: data.toString("base64"), messageId: String(Date.now()) + String(Math.floor(Math.random() * 1e6)), publishTime: new Date().toISOString() },
    subscription: "projects/rbm-simulator/subscriptions/rbm-agent-webhook",
  });
  const signature = rbmSignature(clientToken(), data);
  void (async () => {
    let last = "";
    for (let attempt = 0; attempt < 6; attempt++) {
      try {
        const res = await fetch(config.RBM_WEBHOOK_URL, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Goog-Signature": signature },
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
    console.warn(`rbm peer: gave up posting ${String(event.eventType ?? "a user message")} to ${config.RBM_WEBHOOK_URL} (last: ${last})`);
  })();
}

const CONTENT_KINDS = ["text", "richCard", "contentInfo", "uploadedRbmFile"];

async function agentMessage(req: Request, msisdn: string): Promise<Response> {
  const url = new URL(req.url);
  const messageId = url.searchParams.get("messageId") ?? "";
  const agentId = url.searchParams.get("agentId") ?? "";
  if (!messageId || !agentId) return googleError(400, "INVALID_ARGUMENT", "messageId and agentId are required");
  let body: { contentMessage?: Record<string, unknown> } = {};
  try {
    body = (await req.json()) as typeof body;
  } catch {
    return googleError(400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
  }
  const content = body?.contentMessage;
  const kinds = content && typeof content === "object" ? CONTENT_KINDS.filter((k) => content[k] !== undefined) : [];
  if (kinds.length !== 1) return googleError(400, "INVALID_ARGUMENT", "contentMessage must hold exactly one of text, richCard, contentInfo, uploadedRbmFile");
  if (kinds[0] === "text" && (typeof content!.text !== "string" || !content!.text)) return googleError(400, "INVALID_ARGUMENT", "contentMessage.text must be a non-empty string");
  if (receivedIds.has(messageId)) return googleError(409, "ALREADY_EXISTS", `Message ${messageId} already exists`);
  if (!capable(msisdn)) return googleError(404, "NOT_FOUND", "Requested entity was not found.");
  receivedIds.add(messageId);
  received.push({ messageId, agentId, to: msisdn, contentMessage: content!, at: Date.now() });
  if (received.length > KEPT) received.splice(0, received.length - KEPT);
  if (!msisdn.endsWith("0001")) {
    const delay = Math.max(10, config.SIMULATOR_DELAY_MS);
    const event = (eventType: string) => () => postEvent({ agentId, senderPhoneNumber: msisdn, eventType, eventId: randomUUID(), messageId, sendTime: new Date().toISOString() });
    setTimeout(event("DELIVERED"), delay);
    setTimeout(event("READ"), delay * 2);
  }
  return json({ name: `phones/${msisdn}/agentMessages/${messageId}`, sendTime: new Date().toISOString(), contentMessage: content });
}

/** The user writes to the agent: a text or a tapped suggestion, as RBM's user-message webhook. */
async function userMessage(req: Request, msisdn: string): Promise<Response> {
  let b: { agentId?: unknown; text?: unknown; suggestionResponse?: { postbackData?: unknown; text?: unknown } } = {};
  try {
    b = (await req.json()) as typeof b;
  } catch {}
  if (!E164.test(msisdn) || typeof b.agentId !== "string" || !b.agentId) return json({ error: { code: "invalid" } }, 400);
  const messageId = randomUUID();
  const base = { agentId: b.agentId, senderPhoneNumber: msisdn, messageId, sendTime: new Date().toISOString() };
  if (b.suggestionResponse && typeof b.suggestionResponse === "object") {
    const { postbackData, text } = b.suggestionResponse;
    if (typeof postbackData !== "string" || typeof text !== "string") return json({ error: { code: "invalid_suggestion_response" } }, 400);
    postEvent({ ...base, suggestionResponse: { postbackData, text, type: "REPLY" } });
  } else if (typeof b.text === "string" && b.text) postEvent({ ...base, text: b.text });
  else return json({ error: { code: "invalid_text" } }, 400);
  return json({ messageId }, 202);
}

/** RBM (`/rbm/v1/…`, `/rbm/oauth2/token`) and the test control (`/rbm/users/…`, `/rbm/_sim/…`); null for any other path. */
export async function rbmPeer(req: Request, pathname: string): Promise<Response | null> {
  if (!pathname.startsWith(`${SIMULATED_RBM_PATH}/`)) return null;
  if (pathname === SIMULATED_RBM_TOKEN_PATH && req.method === "POST") return issueToken(req);
  if (pathname === `${SIMULATED_RBM_PATH}/_sim/messages` && req.method === "GET") {
    if (!isKey(req)) return json({ error: { code: "unauthorized" } }, 401);
    const to = new URL(req.url).searchParams.get("to");
    return json({ data: received.filter((m) => !to || m.to === to) });
  }
  if (pathname === `${SIMULATED_RBM_PATH}/_sim/capabilities` && req.method === "GET") {
    if (!isKey(req)) return json({ error: { code: "unauthorized" } }, 401);
    const msisdn = new URL(req.url).searchParams.get("msisdn") ?? "";
    return json({ msisdn, questions: capabilityQuestions.get(msisdn) ?? 0 });
  }
  if (pathname.startsWith(USERS) && pathname.endsWith("/messages") && req.method === "POST") {
    if (!isKey(req)) return json({ error: { code: "unauthorized" } }, 401);
    return userMessage(req, decodeURIComponent(pathname.slice(USERS.length, -"/messages".length)));
  }
  if (!pathname.startsWith(API)) return googleError(404, "NOT_FOUND", "Method not found.");
  if (!validBearer(req)) return googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
  const [phone, edge, ...rest] = pathname.slice(API.length).split("/");
  const msisdn = decodeURIComponent(phone ?? "");
  if (!E164.test(msisdn) || rest.length) return googleError(400, "INVALID_ARGUMENT", `Invalid phone number: ${msisdn}`);
  if (edge === "capabilities" && req.method === "GET") {
    if (!new URL(req.url).searchParams.get("agentId")) return googleError(400, "INVALID_ARGUMENT", "agentId is required");
    capabilityQuestions.set(msisdn, (capabilityQuestions.get(msisdn) ?? 0) + 1);
    if (!capable(msisdn)) return googleError(404, "NOT_FOUND", "Requested entity was not found.");
    return json({
      features: ["RICHCARD_STANDALONE", "RICHCARD_CAROUSEL", "ACTION_CREATE_CALENDAR_EVENT", "ACTION_DIAL", "ACTION_OPEN_URL", "ACTION_SHARE_LOCATION", "ACTION_VIEW_LOCATION"],
    });
  }
  if (edge === "agentMessages" && req.method === "POST") return agentMessage(req, msisdn);
  return googleError(404, "NOT_FOUND", "Method not found.");
}
