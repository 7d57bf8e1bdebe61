/**
 * Step 3 of the message pipeline: a provider's status receipt, already authenticated by the
 * webhook route, applied to our message. Idempotent and order-proof:
 *  - the message row is locked (SELECT … FOR UPDATE), so receipts of one message apply one at a time;
 *  - the receipt is recorded as a message_event deduplicated on (message, status, 'provider') —
 *    i.e. on (provider, provider message id, status); a repeat changes nothing;
 *  - the forward-only machine (./status) decides whether the status moves;
 *  - after commit, a real change is announced on the account's event stream.
 * There is no actor: the tenant is the message's own account.
 */
import { QueryTypes } from "sequelize";
import { Message, initModels, sequelize } from "../../models";
import { key, redis } from "../lib/redis";
import { STATUS_TIMESTAMP, isFailure, nextStatus, type MessageStatus } from "./status";

export const accountEventStream = (accountId: string) => key("account", accountId, "events");
export const STATUS_CHANGED_EVENT = "message.status_changed";

export type ProviderReceipt = {
  provider: string;
  providerMessageId: string;
  status: MessageStatus;
  errorCode?: string | null;
  errorMessage?: string | null;
  occurredAt: Date;
  /** The provider's id of this receipt (webhook id or its own event id), kept for tracing. */
  eventId: string;
  /** Our message id when the caller already resolved it (a concatenated SMS's part receipt, ./parts). */
  messageId?: string;
};

export type ReceiptOutcome =
  /** No message has this provider id (not ours, or already erased): nothing to do. */
  | { result: "ignored" }
  /** The same status was already reported for this message: nothing changed. */
  | { result: "duplicate"; messageId: string; status: MessageStatus }
  /** Recorded, but the status machine kept the current status (late or after a final state). */
  | { result: "unchanged"; messageId: string; status: MessageStatus }
  | { result: "applied"; messageId: string; status: MessageStatus; previous: MessageStatus };

export async function applyProviderReceipt(input: ProviderReceipt): Promise<ReceiptOutcome> {
  initModels();
  const outcome = await sequelize().transaction(async (transaction): Promise<ReceiptOutcome & { accountId?: string }> => {
    const message = await Message.findOne({
      where: input.messageId ? { id: input.messageId } : { provider: input.provider, providerMessageId: input.providerMessageId },
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    if (!message) return { result: "ignored" };

    const current = message.status;
    const decision = nextStatus(current, input.status);
    const inserted = await sequelize().query<{ id: number }>(
      `INSERT INTO message_events (message_id, account_id, status, source, provider_event_id, payload)
       VALUES ($1, $2, $3, 'provider', $4, $5::jsonb)
       ON CONFLICT (message_id, status, source) WHERE source = 'provider' DO NOTHING
       RETURNING id`,
      {
        bind: [
          message.id,
          message.accountId,
          input.status,
          input.eventId,
          JSON.stringify({
            provider: input.provider,
            occurred_at: input.occurredAt.toISOString(),
            error_code: input.errorCode ?? null,
            error_message: input.errorMessage ?? null,
            applied: decision.apply,
            previous: current,
          }),
        ],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    if (inserted.length === 0) return { result: "duplicate", messageId: message.id, status: current };
    if (!decision.apply) return { result: "unchanged", messageId: message.id, status: current };

    const column = STATUS_TIMESTAMP[decision.status];
    await message.update(
      {
        status: decision.status,
        ...(column ? { [column]: input.occurredAt } : {}),
        ...(isFailure(decision.status) ? { errorCode: input.errorCode ?? null, errorMessage: input.errorMessage ?? null } : {}),
      },
      { transaction },
    );
    return { result: "applied", messageId: message.id, status: decision.status, previous: current, accountId: message.accountId };
  });

  const { accountId, ...answer } = outcome as ReceiptOutcome & { accountId?: string };
  if (answer.result === "applied" && accountId) {
    // After commit: subscribers never see a status the database does not hold. A lost publish
    // (Redis down) is not retried here; the message row stays the source of truth.
    await redis()
      .xadd(accountEventStream(accountId), "MAXLEN", "~", "100000", "*", "event", STATUS_CHANGED_EVENT, "message_id", answer.messageId, "status", answer.status)
      .catch((e) => console.error("message.status_changed publish failed", answer.messageId, e));
  }
  return answer;
}
