/**
 * The one contract every channel provider implements (ARCHITECTURE.md "Channels plug in…"):
 * `send` a message with an idempotency key, describe its `capabilities`, and verify/parse the
 * provider's signed status webhooks (`webhooks`, the receipt side in ./receipt-providers).
 * The dispatcher, the webhook route and the registry only ever speak this contract.
 */
import type { ReceiptProvider } from "./receipt-providers";

/** What the dispatcher hands a provider: the message as stored (E.164 recipient for phone channels). */
export type OutboundMessage = {
  id: string;
  accountId: string;
  channel: string;
  sender: string;
  recipient: string;
  body: string;
  segments: number;
  coding: "GSM7" | "UCS2" | null;
  route: string | null;
};

export type SendOptions = {
  /** Stable per message (our message id): a retried submit must never reach the handset twice. */
  idempotencyKey: string;
};

export type SendResult = { providerMessageId: string };

export type Capabilities = {
  /** Free text bodies. */
  text: boolean;
  /** Images, documents… */
  media: boolean;
  /** The provider reports delivery (receipts) through `webhooks`. */
  deliveryReceipts: boolean;
  /** The provider honours SendOptions.idempotencyKey itself (otherwise the dispatcher alone guards). */
  idempotentSubmit: boolean;
};

export interface ChannelAdapter {
  channel: string;
  provider: string;
  capabilities: Capabilities;
  /** True when the provider's credentials are configured (the simulator always is). */
  configured(): boolean;
  /**
   * Submits one message. Throws PermanentSendError when retrying cannot help (the message fails
   * with that reason); any other error is transient and the dispatcher retries it.
   */
  send(message: OutboundMessage, opts: SendOptions): Promise<SendResult>;
  /** Signed status webhooks (verifyWebhook over the raw body + status vocabulary for parseWebhook). */
  webhooks?: ReceiptProvider;
  /** Opens a persistent link (an SMPP bind) so receipts and inbound messages flow before the first send. */
  start?(): void;
  /** Releases it (the connection was changed or removed). */
  close?(): void;
}

/** A provider's refusal that no retry can fix (invalid number, body refused…). */
export class PermanentSendError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "PermanentSendError";
  }
}

/** The provider asked us to slow down (SMPP ESME_RTHROTTLED, HTTP 429): transient, retried later. */
export class ProviderThrottledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderThrottledError";
  }
}
