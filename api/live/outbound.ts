/**
 * Live chat outbound (pipeline step 2 for live messages, ADR 017): sendAgentMessage writes an
 * outbox row (topic `live:outbound`, payload {message_id}) for every room not on the webchat;
 * the relay publishes it; this consumer sends the message through the room's channel adapter.
 *
 * Idempotent: the message row is locked while it is sent, and a message that already has its
 * provider id (external_id), or is FAIL/DELETED, is not sent again — a duplicate stream entry
 * or a redelivery after a crash that happened after the commit changes nothing. Transient
 * errors are retried by the consumer (DISPATCH_RETRY_IDLE_MS apart, DISPATCH_MAX_ATTEMPTS
 * deliveries); then, or at once for a permanent error (provider 4xx, no connection), the
 * message becomes FAIL with the reason and a `failed` live event tells the agent.
 */
import { sequelize } from "../../models";
import { startConsumer } from "../jobs/runner";
import { env } from "../lib/env";
import { UUID } from "../lib/owned";
import { ProviderError } from "./adapters";
import { liveAdapter, roomConnection } from "./messaging";
import type { LiveMessage, Room } from "./rooms/types";
import { messageView, roomSummary } from "./rooms/views";
import { publishLive } from "./streams";
import { exec, row } from "../lib/sql";

export const LIVE_OUTBOUND_STREAM = "live:outbound";

export type DeliverOutcome = "sent" | "skipped" | "failed";

/** Sends one agent message through its room's channel (see the module comment). */
export async function deliverLiveMessage(messageId: string): Promise<DeliverOutcome> {
  if (!UUID.test(messageId ?? "")) return "skipped";
  let failure: string | null = null;
  const outcome = await sequelize().transaction(async (transaction): Promise<DeliverOutcome> => {
    const message = await row<LiveMessage>(`SELECT * FROM live_messages WHERE id = $1 FOR UPDATE`, [messageId], { transaction });
    if (!message || message.author === "visitor" || message.external_id || message.status === "FAIL" || message.status === "DELETED") return "skipped";
    const room = await row<Room>(`SELECT * FROM live_rooms WHERE id = $1`, [message.room_id], { transaction });
    const adapter = room ? liveAdapter(room.channel) : undefined;
    const connection = room && adapter?.send ? await roomConnection(adapter, room.account_id, room.channel, room.external_id) : null;
    if (!room || !adapter?.send || !connection) {
      failure = `channel ${room?.channel ?? "?"} is not connected`;
      return "failed";
    }
    try {
      const sent = await adapter.send(connection, room, message);
      await exec(`UPDATE live_messages SET external_id = $2, updated_at = now() WHERE id = $1`, [message.id, sent.externalId], { transaction });
      return "sent";
    } catch (e) {
      if (e instanceof ProviderError && e.permanent) {
        failure = e.message;
        return "failed";
      }
      throw e;
    }
  });
  if (outcome === "failed") await failLiveMessage(messageId, failure ?? "failed");
  return outcome;
}

/** The message could not be delivered: FAIL with the reason (unless it was sent meanwhile), and the agent is told. */
export async function failLiveMessage(messageId: string, reason: string): Promise<void> {
  if (!UUID.test(messageId ?? "")) return;
  const message = await row<LiveMessage>(
    `UPDATE live_messages SET status = 'FAIL', error = $2, updated_at = now()
     WHERE id = $1 AND external_id IS NULL AND status IN ('SENT') RETURNING *`,
    [messageId, reason.slice(0, 500)],
  );
  if (!message) return;
  const room = await row<Room>(`SELECT * FROM live_rooms WHERE id = $1`, [message.room_id]);
  if (!room) return;
  await publishLive([
    {
      accountId: room.account_id,
      roomId: room.id,
      event: "failed",
      to: room.agent_id ? [room.agent_id] : "*",
      data: { room: roomSummary(room), message: messageView(message), ids: [message.id], error: message.error },
    },
  ]);
}

/** The worker's consumer of `live:outbound`. */
export function startLiveOutbound() {
  return startConsumer({
    stream: LIVE_OUTBOUND_STREAM,
    group: "live-senders",
    concurrency: 8,
    maxAttempts: env().DISPATCH_MAX_ATTEMPTS,
    reclaimIdleMs: env().DISPATCH_RETRY_IDLE_MS,
    handler: async (f) => {
      await deliverLiveMessage(f.message_id);
    },
    onDead: (f, reason) => failLiveMessage(f.message_id, reason),
  });
}
