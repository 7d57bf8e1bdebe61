/**
 * Providers that post signed status receipts to POST /api/webhooks/providers/:provider: each one's
 * signing secret and how its status words map to ours. Adding an HTTP provider = one entry here.
 */
import { env } from "../lib/env";
import type { MessageStatus } from "../messages/status";
import type { ProviderStatus } from "./contract";

export type ReceiptProvider = {
  /** Secrets accepted for the signature (several during a key rotation). */
  secrets: () => string[];
  /** The provider's status word (case-insensitive) -> ours; unknown words are refused. */
  statuses: Record<string, MessageStatus>;
};

/** Our own words plus the SMPP 3.4 delivery-receipt states (DELIVRD, UNDELIV…), which SMS providers reuse. */
export const SMS_STATUSES: Record<string, MessageStatus> = {
  queued: "queued",
  sending: "sending",
  accepted: "sent",
  sent: "sent",
  enroute: "sent",
  acceptd: "sent",
  delivered: "delivered",
  delivrd: "delivered",
  read: "read",
  failed: "failed",
  undelivered: "failed",
  undeliv: "failed",
  deleted: "failed",
  expired: "unavailable",
  unavailable: "unavailable",
  rejected: "rejected",
  rejectd: "rejected",
  optout: "optout",
};

const PROVIDERS: Record<string, ReceiptProvider> = {
  simulator: { secrets: () => [env().SIMULATOR_WEBHOOK_SECRET], statuses: SMS_STATUSES },
};

export function receiptProvider(name: string): ReceiptProvider | undefined {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;
}

export function mapProviderStatus(provider: ReceiptProvider, word: unknown): MessageStatus | undefined {
  if (typeof word !== "string") return undefined;
  const w = word.trim().toLowerCase();
  return Object.hasOwn(provider.statuses, w) ? provider.statuses[w] : undefined;
}

/**
 * A provider's answer to a status look-up, {status, error_code?, error_message?, carrier?,
 * occurred_at?} (a receipt's fields, SMS status words), in our words. An unknown word is an error,
 * as for a receipt.
 */
export function providerStatus(json: Record<string, unknown>, statuses = SMS_STATUSES): ProviderStatus {
  const status = mapProviderStatus({ secrets: () => [], statuses }, json.status);
  if (!status) throw new Error(`unknown provider status ${JSON.stringify(json.status)}`);
  const text = (v: unknown) => (typeof v === "string" && v ? v.slice(0, 200) : null);
  const at = typeof json.occurred_at === "string" ? new Date(json.occurred_at) : null;
  return {
    status,
    errorCode: text(json.error_code),
    errorMessage: text(json.error_message),
    carrier: text(json.carrier)?.slice(0, 40) ?? null,
    occurredAt: at && !Number.isNaN(at.getTime()) ? at : null,
  };
}
