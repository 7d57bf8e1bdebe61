/**
 * The webhooks of an onprem number (/api/webhooks/whatsapp-onprem/{id}?token=…; issue 16, ADR 035):
 * what the BSP's WhatsApp Business API client (On-Premises shape) posts to the callback URL we set
 * at connect (PATCH /v1/settings/application {webhooks: {url}}).
 *
 * The On-Premises API cannot sign its callbacks nor add a header we choose, so the URL we registered
 * carries a token made at connect (32 random bytes); only its SHA-256 is kept (sealed with the
 * number's secrets) and the query's token is compared with it in constant time. A missing or wrong
 * token is 401 and nothing is read or written (the route checks it before parsing the body).
 *
 * The payload: {contacts?: [{profile: {name}, wa_id}], messages?: [{from, id, timestamp, type,
 * text?}], statuses?: [{id, status: sent|delivered|read|failed, timestamp, recipient_id,
 * errors?: [{code, title}]}], errors?: [{code, title, details}]} — the same message and status
 * objects the Cloud API kept, so both go to ./inbound.ts: whatsappInbound (stored once, the
 * contact's 24-hour window opened) and whatsappStatus (the one receipt path: deduplicated,
 * forward-only). `errors` (the client's out-of-band problems) are logged and acknowledged.
 */
import { whatsappInbound, whatsappStatuses, type WhatsappInboundMessage, type WhatsappStatus } from "./inbound";
import type { NumberWithSecrets } from "./numbers";
import type { WebhookResult } from "./webhooks";

export type OnpremWebhook = { contacts?: unknown; messages?: unknown; statuses?: unknown; errors?: unknown };

export async function applyOnpremWebhook(number: NumberWithSecrets, payload: OnpremWebhook): Promise<WebhookResult[]> {
  const results: WebhookResult[] = [];
  if (!payload || typeof payload !== "object") return results;
  // The contact's WhatsApp profile name comes beside the messages: contacts[{wa_id, profile: {name}}].
  const contacts = (Array.isArray(payload.contacts) ? payload.contacts : []) as Array<{ wa_id?: unknown; profile?: { name?: unknown } }>;
  const nameOf = (from: unknown) => {
    const name = contacts.find((c) => String(c?.wa_id ?? "") === String(from ?? ""))?.profile?.name;
    return typeof name === "string" ? name : "";
  };
  for (const m of Array.isArray(payload.messages) ? (payload.messages as WhatsappInboundMessage[]) : [])
    results.push({ field: "messages", result: await whatsappInbound(number, m, nameOf(m.from)) });
  for (const result of await whatsappStatuses(number, Array.isArray(payload.statuses) ? (payload.statuses as WhatsappStatus[]) : [])) results.push({ field: "statuses", result });
  if (Array.isArray(payload.errors)) {
    console.warn(`whatsapp onprem ${number.phone_number_id}: the client reports ${JSON.stringify(payload.errors).slice(0, 300)}`);
    results.push({ field: "errors", result: "ignored" });
  }
  return results;
}
