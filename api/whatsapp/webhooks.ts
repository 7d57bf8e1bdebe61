/**
 * The WhatsApp Cloud API webhooks of one number (/api/webhooks/whatsapp/{id}; issue 16).
 * GET is Meta's subscription handshake: hub.mode=subscribe and hub.verify_token = the number's
 * verify token (made at connect) -> hub.challenge echoed; else 403. POST is signed
 * X-Hub-Signature-256 with the customer's app secret over the raw body: a missing or wrong
 * signature is 401 and changes nothing. Meta's envelope: {object: "whatsapp_business_account",
 * entry: [{id: waba id, time, changes: [{field, value}]}]}.
 *
 * Handled here: `message_template_status_update` {event, message_template_id,
 * message_template_name, message_template_language, reason} moves the number's template with that
 * provider id: APPROVED/REINSTATED -> approved, REJECTED -> rejected (reason kept), PAUSED,
 * DISABLED. An event older than the template's last decision (entry.time, in seconds, before status_at: a
 * replay or a late delivery) changes nothing; the same event again changes nothing either.
 * `messages` with `messages: [{from, id, timestamp, type, text?}]` (a contact wrote to the
 * number; metadata.phone_number_id must be this number's): stored as an inbound WhatsApp message
 * of the number's account (api/messages/inbound.ts: deduped by Meta's message id, opt-out and
 * resume keywords applied to the whatsapp channel), and the contact's 24-hour window opened from
 * its time (./window.ts). `messages` with `statuses: [{id: wamid, status, timestamp, errors}]`:
 * Meta's status of a message we sent, applied like any provider receipt. Other fields are
 * acknowledged as `ignored`.
 */
import { exec, row } from "../lib/sql";
import { whatsappInbound, whatsappStatuses, type WhatsappInboundMessage, type WhatsappResult, type WhatsappStatus } from "./inbound";
import type { NumberWithSecrets } from "./numbers";
import { providerStatus } from "./templates";

type Change = { field?: unknown; value?: Record<string, unknown> };
export type CloudWebhook = { object?: unknown; entry?: Array<{ id?: unknown; time?: unknown; changes?: Change[] }> };
export type WebhookResult = { field: string; result: WhatsappResult | "unknown_template" };

export async function applyCloudWebhook(number: NumberWithSecrets, payload: CloudWebhook): Promise<WebhookResult[]> {
  const results: WebhookResult[] = [];
  if (payload?.object !== "whatsapp_business_account" || !Array.isArray(payload.entry)) return results;
  for (const entry of payload.entry) {
    // Meta's entry.time is in seconds; without one, the moment we got it.
    const at = typeof entry?.time === "number" && Number.isFinite(entry.time) ? new Date(entry.time * 1000) : new Date();
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const field = typeof change?.field === "string" ? change.field : "";
      if (field === "message_template_status_update" && change.value) results.push({ field, result: await templateStatus(number, change.value, at) });
      else if (field === "messages" && change.value && (Array.isArray(change.value.messages) || Array.isArray(change.value.statuses))) {
        const metadata = change.value.metadata as { phone_number_id?: unknown } | undefined;
        // Only this number's own messages: metadata.phone_number_id, when Meta names one, must be its.
        const other = metadata?.phone_number_id !== undefined && String(metadata.phone_number_id) !== number.phone_number_id;
        // The contact's WhatsApp profile name comes beside the messages: contacts[{wa_id, profile: {name}}].
        const contacts = (Array.isArray(change.value.contacts) ? change.value.contacts : []) as Array<{ wa_id?: unknown; profile?: { name?: unknown } }>;
        const nameOf = (from: unknown) => {
          const name = contacts.find((c) => String(c?.wa_id ?? "") === String(from ?? ""))?.profile?.name;
          return typeof name === "string" ? name : "";
        };
        for (const m of (change.value.messages ?? []) as WhatsappInboundMessage[])
          results.push({ field, result: other ? "ignored" : await whatsappInbound(number, m, nameOf(m.from)) });
        for (const result of await whatsappStatuses(number, (Array.isArray(change.value.statuses) ? change.value.statuses : []) as WhatsappStatus[]))
          results.push({ field, result });
      } else results.push({ field, result: "ignored" });
    }
  }
  return results;
}

async function templateStatus(number: NumberWithSecrets, v: Record<string, unknown>, at: Date): Promise<WebhookResult["result"]> {
  const status = providerStatus(String(v.event ?? ""));
  const providerId = v.message_template_id === undefined ? "" : String(v.message_template_id);
  if (!status || !providerId) return "unchanged";
  const reason = status === "rejected" ? String(v.reason ?? "").slice(0, 500) || null : null;
  const n = await exec(
    `UPDATE whatsapp_templates SET status = $3, reason = $4, status_at = $5, updated_at = now()
      WHERE number_id = $1 AND provider_template_id = $2 AND (status_at IS NULL OR status_at <= $5) AND (status <> $3 OR reason IS DISTINCT FROM $4)`,
    [number.id, providerId, status, reason, at],
  );
  if (n) return "applied";
  const known = await row(`SELECT 1 FROM whatsapp_templates WHERE number_id = $1 AND provider_template_id = $2`, [number.id, providerId]);
  return known ? "unchanged" : "unknown_template";
}
