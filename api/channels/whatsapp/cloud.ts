/**
 * Meta's WhatsApp Business Cloud API (Graph), as the newer WhatsApp integration speaks it (issue
 * 16). Every call goes to WHATSAPP_API_URL (Meta's Graph in production; the simulator's loopback
 * WhatsApp peer elsewhere, api/simulator/whatsapp-cloud.ts) through the one guarded HTTP client,
 * with the number's own access token:
 *   GET  /{phone-number-id}?fields=…            the number: display number, verified name,
 *                                                quality rating, messaging limit (connect checks it)
 *   POST /{waba-id}/message_templates           submit a template -> {id, status, category}
 *   DELETE /{waba-id}/message_templates?name=…  delete a template (every language)
 * Graph errors come as {error: {message, type, code, error_subcode, fbtrace_id}}: code 190 is a
 * bad or expired token, 100 an unknown object or a bad parameter.
 * Webhooks (template status updates, and later message statuses and inbound messages) are signed
 * X-Hub-Signature-256 with the customer's app secret, checked over the raw body
 * (validHubSignature, api/live/channel-webhooks.ts).
 */
import { env } from "../../lib/env";
import { AppError } from "../../lib/errors";
import { isOutboundError, outboundFetch } from "../../lib/outbound";

const TIMEOUT_MS = 15_000;
const MAX_BYTES = 1_000_000;

/** A Graph call that failed: its HTTP status and Graph's error code (190 token, 100 parameter or object). */
export class GraphError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
  ) {
    super(message);
    this.name = "GraphError";
  }
  /** Retrying cannot help (a 4xx other than 408/429). */
  get permanent() {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: Graph's JSON; each caller checks the fields it reads
async function graph(path: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const url = `${env().WHATSAPP_API_URL.replace(/\/+$/, "")}/${path}`;
  let res: Awaited<ReturnType<typeof outboundFetch>>;
  try {
    res = await outboundFetch(url, {
      method: init.method ?? "GET",
      headers: { Authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      trust: "platform",
    });
  } catch (e) {
    throw new GraphError(`network: ${isOutboundError(e) ? e.message : (e as Error).message}`, 0, null);
  }
  let json: { error?: { message?: string; code?: number } } | null = null;
  try {
    json = res.json();
  } catch {}
  if (res.status >= 400 || json?.error) {
    throw new GraphError(`Graph ${res.status}: ${json?.error?.message ?? "no answer"}`.slice(0, 300), res.status, json?.error?.code ?? null);
  }
  return json;
}

export type CloudNumberInfo = { display_phone_number: string; verified_name: string; quality_rating: string; messaging_limit: string };

/**
 * What Meta says about a number, read with the account's token: a wrong token is a 422 on
 * access_token, an unknown number a 422 on phone_number_id (the connect form's fields).
 */
export async function cloudNumberInfo(phoneNumberId: string, token: string): Promise<CloudNumberInfo> {
  try {
    const n = await graph(`${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier`, token);
    return {
      display_phone_number: String(n?.display_phone_number ?? "").slice(0, 40),
      verified_name: String(n?.verified_name ?? "").slice(0, 200),
      quality_rating: String(n?.quality_rating ?? "UNKNOWN").slice(0, 20),
      messaging_limit: String(n?.messaging_limit_tier ?? "").slice(0, 40),
    };
  } catch (e) {
    if (e instanceof GraphError && (e.code === 190 || e.status === 401)) throw new AppError("VALIDATION", { fields: { access_token: ["validation.waToken"] } });
    if (e instanceof GraphError && e.permanent) throw new AppError("VALIDATION", { fields: { phone_number_id: ["validation.waNumberUnknown"] } });
    throw new AppError("PROVIDER_UNAVAILABLE");
  }
}

/** Submits a template to the WhatsApp Business Account: Meta's id and first status (PENDING, or already APPROVED/REJECTED). */
export async function submitCloudTemplate(
  wabaId: string,
  token: string,
  t: { name: string; language: string; category: string; components: unknown },
): Promise<{ id: string; status: string }> {
  const answer = await graph(`${encodeURIComponent(wabaId)}/message_templates`, token, {
    method: "POST",
    body: { name: t.name, language: t.language, category: t.category.toUpperCase(), components: t.components },
  });
  if (typeof answer?.id !== "string") throw new GraphError("Graph: no template id in the answer", 502, null);
  return { id: answer.id, status: String(answer.status ?? "PENDING") };
}

/** Deletes a template (all its languages) from the WhatsApp Business Account. */
export async function deleteCloudTemplate(wabaId: string, token: string, name: string): Promise<void> {
  await graph(`${encodeURIComponent(wabaId)}/message_templates?name=${encodeURIComponent(name)}`, token, { method: "DELETE" });
}

/**
 * Points the WhatsApp Business Account's webhooks at `callbackUrl` (Graph's override of the app's
 * callback per WABA): Meta first checks it with the GET handshake (hub.verify_token, hub.challenge
 * echoed), then posts template and message events there, signed with the app's secret.
 */
export async function subscribeCloudWebhooks(wabaId: string, token: string, callbackUrl: string, verifyToken: string): Promise<void> {
  await graph(`${encodeURIComponent(wabaId)}/subscribed_apps`, token, { method: "POST", body: { override_callback_uri: callbackUrl, verify_token: verifyToken } });
}

/** Stops the account's app receiving the WABA's webhooks (a disconnected number). */
export async function unsubscribeCloudWebhooks(wabaId: string, token: string): Promise<void> {
  await graph(`${encodeURIComponent(wabaId)}/subscribed_apps`, token, { method: "DELETE" });
}

/**
 * POST /{phone-number-id}/messages: one message (Graph's message object: `type` and its part —
 * text, template…) to `to` (E.164 without +, as Graph takes it). Answers Meta's message id (wamid).
 */
export async function sendCloudMessage(phoneNumberId: string, token: string, to: string, content: Record<string, unknown>): Promise<string> {
  const answer = await graph(`${encodeURIComponent(phoneNumberId)}/messages`, token, {
    method: "POST",
    body: { ...content, messaging_product: "whatsapp", recipient_type: "individual", to: to.replace(/^\+/, "") },
  });
  const id = answer?.messages?.[0]?.id;
  if (typeof id !== "string" || !id) throw new GraphError("Graph: no message id in the answer", 502, null);
  return id;
}

/** Marks a contact's message read (the blue ticks): POST /{phone-number-id}/messages {status: "read", message_id}. */
export async function markCloudRead(phoneNumberId: string, token: string, messageId: string): Promise<void> {
  await graph(`${encodeURIComponent(phoneNumberId)}/messages`, token, { method: "POST", body: { messaging_product: "whatsapp", status: "read", message_id: messageId } });
}

/** The media download's redirects followed (each hop checked again by the guard). */
const MEDIA_REDIRECTS = 3;

/**
 * A contact's file: GET /{media-id} names its URL (Meta's CDN, valid a few minutes) and size, then
 * the URL is fetched with the same token, at most `maxBytes`. Any failure answers `unavailable`:
 * the message is kept without the file.
 */
export async function cloudMedia(mediaId: string, token: string, maxBytes: number): Promise<{ bytes: Uint8Array; tooLarge: boolean; unavailable?: boolean }> {
  const none = { bytes: new Uint8Array(), tooLarge: false, unavailable: true };
  try {
    const info = await graph(encodeURIComponent(mediaId), token);
    if (Number(info?.file_size) > maxBytes) return { bytes: new Uint8Array(), tooLarge: true };
    if (typeof info?.url !== "string") return none;
    // Meta's CDN is not a platform origin: checked as any URL (public addresses only), the token sent along as Meta asks.
    const res = await outboundFetch(info.url, { headers: { Authorization: `Bearer ${token}` }, timeoutMs: TIMEOUT_MS * 2, maxBytes, redirects: MEDIA_REDIRECTS });
    return res.status >= 200 && res.status < 300 ? { bytes: res.body, tooLarge: false } : none;
  } catch (e) {
    if (isOutboundError(e) && e.reason === "too_large") return { bytes: new Uint8Array(), tooLarge: true };
    console.warn(`whatsapp media ${mediaId}: ${(e as Error).message}`);
    return none;
  }
}
