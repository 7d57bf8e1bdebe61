/**
 * Generic HTTP (JSON) SMS provider (ADR 011). Settings of the connection: `url` (base URL),
 * `api_key`, `webhook_secret`, optional `tps`.
 *   submit:  POST {url}/messages  Authorization: Bearer {api_key}
 *            {to, from, body, reference}  -> 2xx {id}
 *            400/422: refused for good (PermanentSendError); 429 and 5xx: retried later.
 *   status and inbound (MO): the provider posts to POST /api/webhooks/providers/{connection name},
 *            signed Standard-Webhooks style with {webhook_secret}: a receipt {event_id, message_id,
 *            status, error_code?, error_message?, occurred_at}, or an MO {type: "inbound", event_id,
 *            from, to, body, occurred_at}.
 *   status look-up (reconciliation of a message whose receipt never came, api/messages/reconcile.ts):
 *            GET {url}/messages/{provider message id}  Authorization: Bearer {api_key}
 *            -> 200 {status, error_code?, error_message?, carrier?, occurred_at?} (the receipt's
 *            words); 404: the provider does not know it (the message then expires).
 * `reference` is our message id: a provider that honours it never delivers a retry twice.
 */
import { httpConnectionNamed, type ProviderConnection } from "./provider-connections";
import { providerStatus, SMS_STATUSES, type ReceiptProvider } from "./receipt-providers";
import { PermanentSendError, ProviderThrottledError, type ChannelAdapter } from "./contract";
import { outboundFetch, type OutboundResponse } from "../lib/outbound";

const SUBMIT_TIMEOUT_MS = 10_000;
/** A submit's answer is a small JSON object. */
const MAX_ANSWER_BYTES = 64 * 1024;

export type HttpSettings = { url: string; api_key: string; webhook_secret: string; tps?: number };

export function httpSettings(c: Pick<ProviderConnection, "settings">): HttpSettings {
  const s = c.settings as Partial<HttpSettings>;
  return { url: String(s.url ?? ""), api_key: String(s.api_key ?? ""), webhook_secret: String(s.webhook_secret ?? ""), tps: s.tps ? Number(s.tps) : undefined };
}

export function httpAdapter(c: ProviderConnection): ChannelAdapter {
  const settings = httpSettings(c);
  return {
    channel: c.channel,
    provider: c.name,
    capabilities: { text: true, media: false, deliveryReceipts: true, idempotentSubmit: true },
    configured: () => c.enabled && Boolean(settings.url && settings.api_key),
    async send(message, { idempotencyKey }) {
      const url = new URL("messages", settings.url.endsWith("/") ? settings.url : `${settings.url}/`);
      let res: OutboundResponse;
      try {
        // Through the guarded client (ADR 021): the URL is staff-configured (operator-chosen, so it may be private), time and size capped, no redirect.
        res = await outboundFetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${settings.api_key}` },
          body: JSON.stringify({ to: message.recipient, from: message.sender, body: message.body, reference: idempotencyKey }),
          timeoutMs: SUBMIT_TIMEOUT_MS,
          maxBytes: MAX_ANSWER_BYTES,
          trust: "platform",
        });
      } catch (e) {
        throw new Error(`${c.name} unreachable: ${(e as Error).message}`);
      }
      let json: { id?: unknown; error?: { code?: string; message?: string } } = {};
      try {
        json = res.json();
      } catch {}
      const ok = res.status >= 200 && res.status < 300;
      if (ok && (typeof json.id === "string" || typeof json.id === "number") && String(json.id)) return { providerMessageId: String(json.id) };
      // The provider's documented error message, never its raw answer.
      const reason = (typeof json.error?.message === "string" && json.error.message.slice(0, 200)) || `HTTP ${res.status}`;
      if (res.status === 400 || res.status === 422) throw new PermanentSendError(json.error?.code ?? `http_${res.status}`, reason);
      if (res.status === 429) throw new ProviderThrottledError(`${c.name} throttled: ${reason}`);
      throw new Error(`${c.name} answered ${res.status}: ${reason}`);
    },
    async status({ providerMessageId }) {
      const url = new URL(`messages/${encodeURIComponent(providerMessageId)}`, settings.url.endsWith("/") ? settings.url : `${settings.url}/`);
      let res: OutboundResponse;
      try {
        res = await outboundFetch(url, {
          method: "GET",
          headers: { Authorization: `Bearer ${settings.api_key}` },
          timeoutMs: SUBMIT_TIMEOUT_MS,
          maxBytes: MAX_ANSWER_BYTES,
          trust: "platform",
        });
      } catch (e) {
        throw new Error(`${c.name} unreachable: ${(e as Error).message}`);
      }
      if (res.status === 404) return null;
      if (res.status < 200 || res.status >= 300) throw new Error(`${c.name} status look-up answered ${res.status}`);
      return providerStatus(res.json() as Record<string, unknown>);
    },
  };
}

/** The receipt side of an HTTP provider connection named `name` (its webhook secret, the SMS status words). */
export async function httpReceiptProvider(name: string): Promise<ReceiptProvider | undefined> {
  const c = await httpConnectionNamed(name);
  if (!c || !c.enabled) return undefined;
  const { webhook_secret } = httpSettings(c);
  if (!webhook_secret) return undefined;
  return { secrets: () => [webhook_secret], statuses: SMS_STATUSES };
}
