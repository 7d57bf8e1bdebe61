/**
 * What a WhatsApp number hears from its provider, whichever integration (Cloud API webhooks,
 * ./webhooks.ts; the older On-Premises shape): a contact's message and the status of a message we
 * sent. Both integrations post the same objects here (Meta kept the On-Premises API's `messages`
 * and `statuses` in the Cloud API), so one home for each rule:
 *   - whatsappInbound: stored as an inbound WhatsApp message of the number's account
 *     (api/messages/inbound.ts: deduplicated by the provider's message id, opt-out and resume
 *     keywords applied to the whatsapp channel) and the contact's 24-hour window opened from its
 *     time (./window.ts);
 *   - whatsappStatus: the provider's status of one of this number's messages (sent, delivered,
 *     read, failed with its error code and title), through the one receipt path.
 */
import { receiveInbound } from "../messages/inbound";
import { applyProviderReceipt } from "../messages/receipts";
import type { MessageStatus } from "../messages/status";
import { row } from "../lib/sql";
import { whatsappProvider } from "../channels/whatsapp/adapter";
import { openWindow } from "./window";
import type { NumberWithSecrets } from "./numbers";

export type WhatsappResult = "applied" | "unchanged" | "ignored" | "received" | "duplicate" | "unknown_message";

/** A contact's message as both integrations post it: {from: digits, id, timestamp: seconds, type, text: {body}}. */
export type WhatsappInboundMessage = { from?: unknown; id?: unknown; timestamp?: unknown; type?: unknown; text?: { body?: unknown } };

/** A contact's message to the number: stored (once) and the window opened from its time. */
export async function whatsappInbound(number: NumberWithSecrets, m: WhatsappInboundMessage): Promise<WhatsappResult> {
  const from = `+${String(m.from ?? "").replace(/^\+/, "")}`;
  if (!/^\+[1-9]\d{7,14}$/.test(from) || typeof m.id !== "string" || !m.id) return "ignored";
  const seconds = Number(m.timestamp);
  const occurredAt = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
  const type = typeof m.type === "string" ? m.type : "text";
  const body = type === "text" && typeof m.text?.body === "string" ? m.text.body.slice(0, 4096) : `[${type}]`;
  const outcome = await receiveInbound({
    provider: whatsappProvider(number.integration),
    providerMessageId: m.id.slice(0, 200),
    from,
    to: number.phone_number_id,
    body,
    occurredAt,
    channel: "whatsapp",
    accountId: number.account_id,
  });
  // Also for a duplicate (the provider retried after we stored it but before our answer reached it): the same time again changes nothing.
  await openWindow(number.account_id, number.id, from, occurredAt);
  return outcome.result === "duplicate" ? "duplicate" : "received";
}

/** A status as both integrations post it: {id: the provider's message id, status, timestamp: seconds, errors: [{code, title}]}. */
export type WhatsappStatus = {
  id?: unknown;
  status?: unknown;
  timestamp?: unknown;
  recipient_id?: unknown;
  errors?: Array<{ code?: unknown; title?: unknown; message?: unknown }>;
};
const STATUS: Record<string, MessageStatus> = { sent: "sent", delivered: "delivered", read: "read", failed: "failed" };

/**
 * The provider's status of a message we sent, through the one receipt path
 * (api/messages/receipts.ts: deduplicated per message and status, forward-only, announced to the
 * customer's webhooks in the same transaction).
 */
export async function whatsappStatus(number: NumberWithSecrets, st: WhatsappStatus): Promise<WhatsappResult> {
  const next = typeof st.status === "string" ? STATUS[st.status] : undefined;
  if (!next || typeof st.id !== "string" || !st.id) return "ignored";
  const provider = whatsappProvider(number.integration);
  // Only this number's own messages: another number's app cannot move a message it did not send.
  const mine = await row<{ id: string }>(
    `SELECT m.id FROM message_provider_ids p JOIN messages m ON m.id = p.message_id AND m.created_at = p.message_created_at
      WHERE p.provider = $1 AND p.provider_message_id = $2 AND m.account_id = $3 AND m.sender = $4`,
    [provider, st.id, number.account_id, number.phone_number_id],
  );
  if (!mine) return "unknown_message";
  const seconds = Number(st.timestamp);
  const error = st.errors?.[0];
  const outcome = await applyProviderReceipt({
    messageId: mine.id,
    provider,
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
