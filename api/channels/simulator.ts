/**
 * The simulator provider's adapter: an HTTP client of the simulator process
 * (api/simulator/server.ts) at SIMULATOR_URL, spoken like a real SMS provider's REST API.
 */
import { env } from "../lib/env";
import { PermanentSendError, ThrottledError, type ChannelAdapter } from "./contract";
import { providerStatus, receiptProvider } from "./receipt-providers";

const SUBMIT_TIMEOUT_MS = 10_000;

function headers() {
  return { "Content-Type": "application/json", Authorization: `Bearer ${env().SIMULATOR_API_KEY}` };
}

/** Retry-After in seconds (RFC 9110) or the finer `retry_after_ms` of the body; at least 1 ms. */
function retryAfterMs(res: Response, body: { retry_after_ms?: unknown }) {
  if (typeof body.retry_after_ms === "number" && body.retry_after_ms > 0) return body.retry_after_ms;
  const seconds = Number(res.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
}

export function simulatorAdapter(channel: string): ChannelAdapter {
  return {
    channel,
    provider: "simulator",
    capabilities: { text: true, media: false, deliveryReceipts: true, idempotentSubmit: true },
    configured: () => true,
    webhooks: receiptProvider("simulator"),
    async send(message, { idempotencyKey }) {
      const url = new URL("/v1/messages", env().SIMULATOR_URL);
      let res: Response;
      try {
        res = await fetch(url, {
          method: "POST",
          headers: headers(),
          body: JSON.stringify({ to: message.recipient, from: message.sender, body: message.body, reference: idempotencyKey }),
          signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
        });
      } catch (e) {
        throw new Error(`simulator unreachable: ${(e as Error).message}`);
      }
      const text = await res.text();
      let json: { id?: unknown; retry_after_ms?: unknown; error?: { code?: string; message?: string } } = {};
      try {
        json = JSON.parse(text);
      } catch {}
      if (res.ok && typeof json.id === "string" && json.id) return { providerMessageId: json.id };
      const reason = json.error?.message ?? (text.slice(0, 200) || res.statusText);
      if (res.status === 429) throw new ThrottledError(retryAfterMs(res, json), `simulator throttled: ${reason}`);
      // 400/422: the submit itself is wrong (invalid number…) — no retry will fix it.
      if (res.status === 400 || res.status === 422) throw new PermanentSendError(json.error?.code ?? `http_${res.status}`, reason);
      throw new Error(`simulator answered ${res.status}: ${reason}`);
    },
    async lookup(idempotencyKey) {
      const url = new URL(`/v1/messages?reference=${encodeURIComponent(idempotencyKey)}`, env().SIMULATOR_URL);
      let res: Response;
      try {
        res = await fetch(url, { headers: headers(), signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS) });
      } catch (e) {
        throw new Error(`simulator unreachable: ${(e as Error).message}`);
      }
      const json = (await res.json().catch(() => ({}))) as { id?: unknown };
      if (res.status === 404) return null;
      if (res.ok && typeof json.id === "string") return { providerMessageId: json.id };
      throw new Error(`simulator lookup answered ${res.status}`);
    },
    async status({ providerMessageId }) {
      const url = new URL(`/v1/messages/${encodeURIComponent(providerMessageId)}`, env().SIMULATOR_URL);
      let res: Response;
      try {
        res = await fetch(url, { headers: headers(), signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS) });
      } catch (e) {
        throw new Error(`simulator unreachable: ${(e as Error).message}`);
      }
      if (res.status === 404) return null;
      const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (!res.ok) throw new Error(`simulator status answered ${res.status}`);
      return providerStatus(json);
    },
  };
}
