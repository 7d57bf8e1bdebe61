/**
 * The forward-only message status machine (ARCHITECTURE.md "The message pipeline", step 3; spec
 * section 4). Pure: no database, no clock — safe in any process and in the browser bundle.
 *
 * Progress ranks: pending < scheduled < queued < sending < deferred < sent (= received, inbound)
 * < delivered < read (= opened, e-mail) < clicked (e-mail).
 * - A status applies only when it moves the message forward; equal or lower ranks change nothing
 *   (so a late `delivered` never overwrites `read`, and nothing changes once `read` or `clicked`).
 * - E-mail (ADR 036): `deferred` is a 4xx at SMTP time, retried — the later `sent` moves past it;
 *   a "delayed" report after `sent` is recorded and moves nothing. `opened` ranks with `read`.
 * - Failure states (failed, unavailable, rejected, optout; e-mail's bounced, dropped, blocked) are
 *   terminal and reachable from any state before `delivered`; after `delivered` they change nothing.
 * - Once in a failure state, nothing changes.
 */
import { EMAIL_ONLY_STATUSES, MESSAGE_STATUSES, type MessageStatus } from "../../models/constants";

export { EMAIL_ONLY_STATUSES, MESSAGE_STATUSES, type MessageStatus };

export const FAILURE_STATUSES = ["failed", "unavailable", "rejected", "optout", "bounced", "dropped", "blocked"] as const;
export type FailureStatus = (typeof FAILURE_STATUSES)[number];

const RANK: Record<Exclude<MessageStatus, FailureStatus>, number> = {
  pending: 0,
  scheduled: 1,
  queued: 2,
  sending: 3,
  deferred: 3.5,
  sent: 4,
  received: 4,
  delivered: 5,
  read: 6,
  opened: 6,
  clicked: 7,
};

export function isMessageStatus(value: unknown): value is MessageStatus {
  return typeof value === "string" && (MESSAGE_STATUSES as readonly string[]).includes(value);
}

export function isFailure(status: MessageStatus): status is FailureStatus {
  return (FAILURE_STATUSES as readonly string[]).includes(status);
}

/** True when no later status can change the message. */
export function isFinal(status: MessageStatus): boolean {
  return status === "read" || status === "clicked" || isFailure(status);
}

/** Whether `incoming` applies on top of `current`, and the status the message ends with. */
export function nextStatus(current: MessageStatus, incoming: MessageStatus): { apply: boolean; status: MessageStatus } {
  const keep = { apply: false, status: current };
  if (isFinal(current) || incoming === current) return keep;
  const currentRank = RANK[current as Exclude<MessageStatus, FailureStatus>];
  if (isFailure(incoming)) return currentRank < RANK.delivered ? { apply: true, status: incoming } : keep;
  return RANK[incoming] > currentRank ? { apply: true, status: incoming } : keep;
}

/** The message column that records when a status was reached (none for pending/scheduled/sending). */
export const STATUS_TIMESTAMP: Partial<Record<MessageStatus, "queuedAt" | "sentAt" | "deliveredAt" | "readAt" | "failedAt">> = {
  queued: "queuedAt",
  sent: "sentAt",
  delivered: "deliveredAt",
  read: "readAt",
  opened: "readAt",
  failed: "failedAt",
  unavailable: "failedAt",
  rejected: "failedAt",
  optout: "failedAt",
  bounced: "failedAt",
  dropped: "failedAt",
  blocked: "failedAt",
};
