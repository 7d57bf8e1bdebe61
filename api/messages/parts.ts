/**
 * Receipts of a concatenated SMS's parts (ADR 011). An SMSC accepts each part under its own id
 * (message_parts) and reports each part's fate. The message's status follows this rule:
 *  - a part that failed (UNDELIV, EXPIRED, REJECTD…) fails the message with that status at once
 *    (the handset cannot show the whole text);
 *  - the message is `delivered` only when every one of its parts was reported delivered;
 *  - anything else (some parts delivered, others not yet reported) leaves the message as it is.
 * A single-part message is the same rule with one part. Per part, statuses only move forward
 * (the same machine), so a repeated or late part receipt changes nothing. The message-level
 * change goes through applyProviderReceipt (dedupe, status machine, message event).
 */
import { sequelize } from "../../models";
import { applyProviderReceipt, type ReceiptOutcome } from "./receipts";
import { isFailure, nextStatus, type MessageStatus } from "./status";
import { exec, rows } from "../lib/sql";

export type PartReceipt = {
  provider: string;
  /** The id the SMSC answered to the part's submit. */
  partId: string;
  status: MessageStatus;
  errorCode?: string | null;
  occurredAt: Date;
  eventId: string;
};

/** Aggregates the parts' statuses into the message's (null: nothing to report yet). */
export function aggregatePartStatuses(total: number, statuses: MessageStatus[]): MessageStatus | null {
  const failure = statuses.find(isFailure);
  if (failure) return failure;
  if (statuses.length >= total && statuses.every((s) => s === "delivered" || s === "read")) return "delivered";
  return null;
}

export async function applyPartReceipt(input: PartReceipt): Promise<ReceiptOutcome | { result: "unknown_part" }> {
  const db = sequelize();
  const found = await db.transaction(async (transaction) => {
    const [part] = await rows<{ message_id: string; part: number; total: number; status: MessageStatus }>(
      `SELECT message_id, part, total, status FROM message_parts WHERE provider = $1 AND provider_message_id = $2`,
      [input.provider, input.partId],
      { transaction },
    );
    if (!part) return null;
    // All parts of the message locked together: two part receipts aggregate one after the other.
    const parts = await rows<{ part: number; status: MessageStatus }>(`SELECT part, status FROM message_parts WHERE message_id = $1 ORDER BY part FOR UPDATE`, [part.message_id], {
      transaction,
    });
    const mine = parts.find((p) => p.part === part.part)!;
    const decision = nextStatus(mine.status, input.status);
    if (decision.apply) {
      await exec(`UPDATE message_parts SET status = $3, updated_at = now() WHERE message_id = $1 AND part = $2`, [part.message_id, part.part, decision.status], { transaction });
      mine.status = decision.status;
    }
    return {
      messageId: part.message_id,
      aggregate: aggregatePartStatuses(
        part.total,
        parts.map((p) => p.status),
      ),
    };
  });
  if (!found) return { result: "unknown_part" };
  if (!found.aggregate) return { result: "unchanged", messageId: found.messageId, status: input.status };
  return applyProviderReceipt({
    provider: input.provider,
    providerMessageId: input.partId,
    messageId: found.messageId,
    status: found.aggregate,
    errorCode: isFailure(found.aggregate) ? (input.errorCode ?? null) : null,
    errorMessage: isFailure(found.aggregate) ? `SMSC receipt ${input.status}${input.errorCode ? ` (err ${input.errorCode})` : ""}` : null,
    occurredAt: input.occurredAt,
    eventId: input.eventId,
  });
}
