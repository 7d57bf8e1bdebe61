/**
 * The dispatcher (pipeline step 2): one consumer group per channel stream (`messages:<channel>`,
 * fed by the outbox relay). For each entry {message_id}:
 *  1. claim the message: a conditional UPDATE to `sending` from pending/queued/due-scheduled
 *     (… WHERE status IN … RETURNING), so of two consumers holding duplicate entries only one sends;
 *  2. call the provider adapter from the registry with idempotencyKey = message id;
 *  3. record `sent`, the provider and its message id (through the status machine) and announce it.
 * A transient adapter error leaves the message `sending` and the entry pending: the runner
 * redelivers it (XAUTOCLAIM after DISPATCH_RETRY_IDLE_MS) and the same idempotency key guards the
 * handset. After DISPATCH_MAX_ATTEMPTS the runner dead-letters the entry and the message becomes
 * `failed` with the reason. A permanent refusal (PermanentSendError) fails the message at once.
 * An entry for a message already past `sending` (a duplicate publish) is acked without a submit.
 */
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { PermanentSendError, type OutboundMessage } from "../channels/contract";
import { adapterForConnection, connectionFor } from "../channels/connections";
import { adapterFor, channels, defaultProvider, dispatchStream } from "../channels/registry";
import { startConsumer } from "../jobs/runner";
import { env } from "../lib/env";
import { redis } from "../lib/redis";
import { accountEventStream, STATUS_CHANGED_EVENT } from "../messages/receipts";
import { nextStatus, type MessageStatus } from "../messages/status";

export const DISPATCH_GROUP = "dispatchers";

type Row = {
  id: string;
  account_id: string;
  channel: string;
  direction: string;
  sender: string;
  recipient: string;
  body: string;
  segments: number;
  coding: "GSM7" | "UCS2" | null;
  route: string | null;
  status: MessageStatus;
  provider: string | null;
};

const db = () => sequelize();
const CLAIMABLE = `(status IN ('pending','queued') OR (status = 'scheduled' AND (scheduled_at IS NULL OR scheduled_at <= now())))`;

async function announce(accountId: string, messageId: string, status: MessageStatus) {
  await redis()
    .xadd(accountEventStream(accountId), "MAXLEN", "~", "100000", "*", "event", STATUS_CHANGED_EVENT, "message_id", messageId, "status", status)
    .catch((e) => console.error("message.status_changed publish failed", messageId, e));
}

async function systemEvent(t: Transaction, messageId: string, accountId: string, status: string, payload: Record<string, unknown>) {
  await db().query(`INSERT INTO message_events (message_id, account_id, status, source, payload) VALUES ($1, $2, $3, 'system', $4::jsonb)`, {
    bind: [messageId, accountId, status, JSON.stringify(payload)],
    transaction: t,
  });
}

/** Moves a message that has not reached the provider to `failed`, with the reason the person will see. */
export async function failUnsent(messageId: string, code: string, reason: string): Promise<boolean> {
  const row = await db().transaction(async (t) => {
    const [m] = await db().query<{ account_id: string; status: MessageStatus }>(
      `SELECT account_id, status FROM messages WHERE id = $1 FOR UPDATE`,
      { bind: [messageId], type: QueryTypes.SELECT, transaction: t },
    );
    // Only before the provider took it: a `sent` message's fate is the provider's receipt.
    if (!m || !["pending", "queued", "scheduled", "sending"].includes(m.status) || !nextStatus(m.status, "failed").apply) return null;
    await db().query(
      `UPDATE messages SET status = 'failed', failed_at = now(), error_code = $2, error_message = $3, updated_at = now() WHERE id = $1`,
      { bind: [messageId, code.slice(0, 100), reason.slice(0, 1000)], transaction: t },
    );
    await systemEvent(t, messageId, m.account_id, "failed", { error_code: code, error_message: reason, previous: m.status });
    return m;
  });
  if (row) await announce(row.account_id, messageId, "failed");
  return Boolean(row);
}

export async function dispatchMessage(messageId: string, meta: { deliveries: number }): Promise<"sent" | "skipped" | "failed"> {
  if (!/^[0-9a-f-]{36}$/i.test(messageId ?? "")) return "skipped";
  // 1. Claim.
  const [claimed] = await db().query<Row>(
    `UPDATE messages SET status = 'sending', updated_at = now() WHERE id = $1 AND direction = 'outbound' AND ${CLAIMABLE} RETURNING *`,
    { bind: [messageId], type: QueryTypes.SELECT },
  );
  let message: Row | undefined = claimed;
  if (!message) {
    const [current] = await db().query<Row>(`SELECT * FROM messages WHERE id = $1`, { bind: [messageId], type: QueryTypes.SELECT });
    // Gone, inbound, not due, or already past `sending`: nothing to submit (a duplicate publish).
    if (!current || current.status !== "sending") return "skipped";
    // `sending` on a first delivery: another entry for this message holds it (a duplicate
    // publish in flight, or an earlier attempt whose own entry the runner will redeliver).
    if (meta.deliveries <= 1) return "skipped";
    message = current; // A redelivery of the entry that claimed it: submit again, same idempotency key.
  }

  const msg: Row = message;
  // 2. Submit.
  // The route's provider connection (ADR 011); channels without connections use the registry's default.
  const connection = await connectionFor(message.channel, message.route);
  const provider = connection ? connection.name : (message.provider ?? defaultProvider(message.channel));
  const adapter = connection ? (connection.enabled ? adapterForConnection(connection) : undefined) : provider ? adapterFor(message.channel, provider) : undefined;
  if (!adapter || !adapter.configured()) {
    await failUnsent(message.id, "no_provider", `No provider is configured for channel ${message.channel}${provider ? ` (${provider}${connection && !connection.enabled ? ", disabled" : ""})` : ""}`);
    return "failed";
  }
  const outbound: OutboundMessage = {
    id: message.id,
    accountId: message.account_id,
    channel: message.channel,
    sender: message.sender,
    recipient: message.recipient,
    body: message.body,
    segments: message.segments,
    coding: message.coding,
    route: message.route,
  };
  let providerMessageId: string;
  try {
    ({ providerMessageId } = await adapter.send(outbound, { idempotencyKey: msg.id }));
  } catch (e) {
    if (e instanceof PermanentSendError) {
      await failUnsent(message.id, e.code, e.message);
      return "failed";
    }
    throw e; // transient: the runner redelivers, then dead-letters
  }

  // 3. Record `sent` with the provider's id.
  const changed = await db().transaction(async (t) => {
    const [m] = await db().query<{ status: MessageStatus; account_id: string }>(`SELECT status, account_id FROM messages WHERE id = $1 FOR UPDATE`, {
      bind: [msg.id],
      type: QueryTypes.SELECT,
      transaction: t,
    });
    const decision = nextStatus(m.status, "sent");
    await db().query(
      `UPDATE messages SET provider = $2, provider_message_id = $3, status = $4,
         sent_at = CASE WHEN $5 THEN now() ELSE sent_at END, updated_at = now()
       WHERE id = $1`,
      { bind: [msg.id, adapter.provider, providerMessageId, decision.status, decision.apply], transaction: t },
    );
    if (decision.apply) await systemEvent(t, msg.id, m.account_id, "sent", { provider: adapter.provider, provider_message_id: providerMessageId, previous: m.status });
    return decision.apply ? m.account_id : null;
  });
  if (changed) await announce(changed, msg.id, "sent");
  return "sent";
}

/** One consumer per channel that has a provider. */
export function startDispatchers() {
  return channels().map((channel) =>
    startConsumer({
      stream: dispatchStream(channel),
      group: DISPATCH_GROUP,
      batch: 50,
      maxAttempts: env().DISPATCH_MAX_ATTEMPTS,
      reclaimIdleMs: env().DISPATCH_RETRY_IDLE_MS,
      handler: async (fields, meta) => {
        await dispatchMessage(fields.message_id, meta);
      },
      onDead: async (fields, reason) => {
        if (fields.message_id) await failUnsent(fields.message_id, "dispatch_failed", reason);
      },
    }),
  );
}
