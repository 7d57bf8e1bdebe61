/**
 * The forward-only message status machine (ARCHITECTURE.md "The message pipeline", step 3; spec
 * section 4). Pure: no database, no clock — safe in any process and in the browser bundle.
 *
 * Progress ranks: pending < scheduled < queued < sending < sent (= received, inbound) < delivered < read.
 * - A status applies only when it moves the message forward; equal or lower ranks change nothing
 *   (so a late `delivered` never overwrites `read`, and nothing changes once `read`).
 * - Failure states (failed, unavailable, rejected, optout) are terminal and reachable from any
 *   state before `delivered`; after `delivered` or `read` they change nothing.
 * - Once in a failure state, nothing changes.
 */
import { MESSAGE_STATUSES, type MessageStatus } from "../../models/constants";

export { MESSAGE_STATUSES, type MessageStatus };

export const FAILURE_STATUSES = ["failed", "unavailable", "rejected", "optout"] as const;
export type FailureStatus = (typeof FAILURE_STATUSES)[number];

const RANK: Record<Exclude<MessageStatus, FailureStatus>, number> = {
  pending: 0,
  scheduled: 1,
  queued: 2,
  sending: 3,
  sent: 4,
  received: 4,
  delivered: 5,
  read: 6,
};

export function isMessageStatus(value: unknown): value is MessageStatus {
  return typeof value === "string" && (MESSAGE_STATUSES as readonly string[]).includes(value);
}

export function isFailure(status: MessageStatus): status is FailureStatus {
  return (FAILURE_STATUSES as readonly string[]).includes(status);
}

/** True when no later status can change the message. */
export function isFinal(status: MessageStatus): boolean {
  return status === "read" || isFailure(status);
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
  failed: "failedAt",
  unavailable: "failedAt",
  rejected: "failedAt",
  optout: "failedAt",
};
