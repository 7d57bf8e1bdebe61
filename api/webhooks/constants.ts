/** Webhooks: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

/** Event types an endpoint may subscribe to ('*' = every type, including ones added later). */
export const WEBHOOK_EVENT_TYPES = ["message.status_changed", "message.received"] as const;
