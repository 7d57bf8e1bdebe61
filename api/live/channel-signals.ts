/**
 * Best-effort signals to a channel visitor that are not messages: the agent is typing, the agent
 * read the visitor's messages. Never awaited by the use-case that causes them, a short timeout in
 * the adapter, no retry, no outbox row, errors swallowed: a late or lost one is worth nothing
 * (ADR 017, amendment of 2026-11-25).
 */
import type { LiveConnection, LiveMessaging } from "./adapters";
import { liveAdapter, roomConnection } from "./messaging";

async function signal(
  accountId: string,
  channel: string,
  externalId: string,
  call: (adapter: LiveMessaging, connection: LiveConnection) => Promise<void> | undefined,
): Promise<void> {
  try {
    const adapter = liveAdapter(channel);
    if (!adapter) return;
    const connection = await roomConnection(adapter, accountId, channel, externalId);
    if (connection) await call(adapter, connection);
  } catch {
    // Best effort: nothing to report.
  }
}

/** The agent types in a channel room (Telegram, Messenger/Instagram, Business Messages). */
export function channelTyping(accountId: string, channel: string, externalId: string): void {
  void signal(accountId, channel, externalId, (a, c) => a.typing?.(c, { external_id: externalId }));
}

/** The agent read the visitor's messages up to `lastMessageId` (the channel's id of the newest one). */
export function channelSeen(accountId: string, channel: string, externalId: string, lastMessageId: string | null): void {
  void signal(accountId, channel, externalId, (a, c) => a.seen?.(c, { external_id: externalId }, lastMessageId));
}
