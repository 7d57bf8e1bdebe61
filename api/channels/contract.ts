/**
 * The one contract every channel provider implements (ARCHITECTURE.md "Channels plug in…"):
 * `send` a message with an idempotency key, describe its `capabilities`, and verify/parse the
 * provider's signed status webhooks (`webhooks`, the receipt side in ./receipt-providers).
 * The dispatcher, the webhook route and the registry only ever speak this contract.
 */
import type { FailureStatus, MessageStatus } from "../messages/status";
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
  /** What a channel richer than text sends, as its provider takes it (WhatsApp: Graph's message object); null for SMS. */
  content?: unknown;
};

export type SendOptions = {
  /** Stable per message (our message id): a retried submit must never reach the handset twice. */
  idempotencyKey: string;
};

export type SendResult = { providerMessageId: string };

/** Which message a status look-up asks about: the provider's id and our reference (the idempotency key). */
export type StatusQuery = { providerMessageId: string; idempotencyKey: string };

/** A provider's answer to a status look-up, in our words (like a receipt's). */
export type ProviderStatus = {
  status: MessageStatus;
  errorCode?: string | null;
  errorMessage?: string | null;
  carrier?: string | null;
  /** When the provider reached that status, if it says. */
  occurredAt?: Date | null;
};

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
  /**
   * The provider's record of a submit made under `idempotencyKey`, or null if it never got one.
   * Asked before a submit is repeated after a crash (the earlier attempt's answer was lost), so a
   * message reaches the provider once even when the worker died mid-submit. Optional: without it
   * the dispatcher resubmits and relies on `capabilities.idempotentSubmit`.
   */
  lookup?(idempotencyKey: string): Promise<SendResult | null>;
  /**
   * The provider's current status of a message it accepted, or null if it does not know it.
   * Asked by the reconciliation sweep about a message left `sent` (its receipt lost or late,
   * api/messages/reconcile.ts); a final answer is applied exactly like a receipt. Optional:
   * without it a message whose receipt never comes ends `unavailable` (EXPIRED) after its validity.
   */
  status?(query: StatusQuery): Promise<ProviderStatus | null>;
  /**
   * Called by the dispatcher after a permanent failure failed the message (and refunded it): what
   * the provider does next for it, e.g. the RCS adapter's SMS fallback for a handset that is not
   * RCS-capable (ADR 055). Must be idempotent (a redelivered entry may call it again); its errors
   * are logged and never fail the dispatch. Optional.
   */
  afterFailure?(message: OutboundMessage, error: PermanentSendError): Promise<void>;
  /** Signed status webhooks (verifyWebhook over the raw body + status vocabulary for parseWebhook). */
  webhooks?: ReceiptProvider;
  /** What a message of this provider ends as when its retries run out (e-mail: `dropped`); `failed` when not said. */
  exhaustedStatus?: FailureStatus;
  /** Opens a persistent link (an SMPP bind) so receipts and inbound messages flow before the first send. */
  start?(): void;
  /** Releases it (the connection was changed or removed). */
  close?(): void;
}

/**
 * A provider's refusal that no retry can fix (invalid number, body refused…). `status`: the failure
 * state the message ends in (e-mail: `bounced` for a 5xx, `blocked` for a 5.7.x policy refusal).
 */
export class PermanentSendError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: FailureStatus = "failed",
  ) {
    super(message);
    this.name = "PermanentSendError";
  }
}

/**
 * The provider refused the message for now (an SMTP 4xx): transient — the dispatcher records the
 * message `deferred` with the reason and the runner submits it again later; when the attempts run
 * out it ends in the adapter's `exhaustedStatus`.
 */
export class DeferredSendError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "DeferredSendError";
  }
}

/**
 * The provider refused the submit because we go too fast (HTTP 429, SMPP ESME_RTHROTTLED). Not a
 * failed attempt: the provider did not take the message, so the dispatcher pauses the route for
 * `retryAfterMs` and submits again.
 */
export class ThrottledError extends Error {
  constructor(
    readonly retryAfterMs: number,
    message = `provider throttled: retry after ${retryAfterMs} ms`,
  ) {
    super(message);
    this.name = "ThrottledError";
  }
}

/** The SMPP/HTTP providers' name for it (ESME_RTHROTTLED, HTTP 429 without Retry-After): retried after a second. */
export class ProviderThrottledError extends ThrottledError {
  constructor(message: string, retryAfterMs = 1000) {
    super(retryAfterMs, message);
    this.name = "ProviderThrottledError";
  }
}
