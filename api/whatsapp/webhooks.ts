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
import { receiveInbound } from "../messages/inbound";
import { applyProviderReceipt } from "../messages/receipts";
import type { MessageStatus } from "../messages/status";
import { CLOUD_PROVIDER } from "../channels/whatsapp/adapter";
import { openWindow } from "./window";
import type { NumberWithSecrets } from "./numbers";
import { providerStatus } from "./templates";

type Change = { field?: unknown; value?: Record<string, unknown> };
export type CloudWebhook = { object?: unknown; entry?: Array<{ id?: unknown; time?: unknown; changes?: Change[] }> };
export type WebhookResult = { field: string; result: "applied" | "unchanged" | "unknown_template" | "ignored" | "received" | "duplicate" | "unknown_message" };

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
        for (const m of (change.value.messages ?? []) as InboundMessage[]) results.push({ field, result: await inbound(number, change.value, m) });
        for (const st of (change.value.statuses ?? []) as CloudStatus[]) results.push({ field, result: await status(number, st) });
      } else results.push({ field, result: "ignored" });
    }
  }
  return results;
}

type InboundMessage = { from?: unknown; id?: unknown; timestamp?: unknown; type?: unknown; text?: { body?: unknown } };

/** A contact's message to the number: stored (once) and the window opened from its time. */
async function inbound(number: NumberWithSecrets, value: Record<string, unknown>, m: InboundMessage): Promise<WebhookResult["result"]> {
  const metadata = value.metadata as { phone_number_id?: unknown } | undefined;
  if (metadata?.phone_number_id !== undefined && String(metadata.phone_number_id) !== number.phone_number_id) return "ignored";
  const from = `+${String(m.from ?? "").replace(/^\+/, "")}`;
  if (!/^\+[1-9]\d{7,14}$/.test(from) || typeof m.id !== "string" || !m.id) return "ignored";
  const seconds = Number(m.timestamp);
  const occurredAt = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
  const type = typeof m.type === "string" ? m.type : "text";
  const body = type === "text" && typeof m.text?.body === "string" ? m.text.body.slice(0, 4096) : `[${type}]`;
  const outcome = await receiveInbound({
    provider: CLOUD_PROVIDER,
    providerMessageId: m.id.slice(0, 200),
    from,
    to: number.phone_number_id,
    body,
    occurredAt,
    channel: "whatsapp",
    accountId: number.account_id,
  });
  // Also for a duplicate (Meta retried after we stored it but before our answer reached it): the same time again changes nothing.
  await openWindow(number.account_id, number.id, from, occurredAt);
  return outcome.result === "duplicate" ? "duplicate" : "received";
}

type CloudStatus = { id?: unknown; status?: unknown; timestamp?: unknown; recipient_id?: unknown; errors?: Array<{ code?: unknown; title?: unknown; message?: unknown }> };
const STATUS: Record<string, MessageStatus> = { sent: "sent", delivered: "delivered", read: "read", failed: "failed" };

/**
 * Meta's status of a message we sent (sent, delivered, read, failed with its error code and
 * title): through the one receipt path (api/messages/receipts.ts: deduplicated per message and
 * status, forward-only, announced to the customer's webhooks in the same transaction).
 */
async function status(number: NumberWithSecrets, st: CloudStatus): Promise<WebhookResult["result"]> {
  const next = typeof st.status === "string" ? STATUS[st.status] : undefined;
  if (!next || typeof st.id !== "string" || !st.id) return "ignored";
  // Only this number's own messages: another number's app cannot move a message it did not send.
  const mine = await row<{ id: string }>(
    `SELECT m.id FROM message_provider_ids p JOIN messages m ON m.id = p.message_id AND m.created_at = p.message_created_at
      WHERE p.provider = $1 AND p.provider_message_id = $2 AND m.account_id = $3 AND m.sender = $4`,
    [CLOUD_PROVIDER, st.id, number.account_id, number.phone_number_id],
  );
  if (!mine) return "unknown_message";
  const seconds = Number(st.timestamp);
  const error = st.errors?.[0];
  const outcome = await applyProviderReceipt({
    messageId: mine.id,
    provider: CLOUD_PROVIDER,
    providerMessageId: st.id,
    status: next,
    errorCode: next === "failed" && error?.code !== undefined ? String(error.code).slice(0, 40) : null,
    errorMessage: next === "failed" ? String(error?.title ?? error?.message ?? "").slice(0, 500) || null : null,
    occurredAt: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date(),
    eventId: `${st.id}:${next}`,
  });
  if (outcome.result === "ignored") return "unknown_message";
  if (outcome.result === "applied") return "applied";
  // A repeat, or a status the message is already past (read before delivered): nothing changed.
  return outcome.result === "duplicate" ? "duplicate" : "unchanged";
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
