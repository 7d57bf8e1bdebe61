/**
 * Workflow boards' realtime events (issue 22, ADR 056): every change of a board is one entry on
 * the account's board stream (`boards:{accountId}`, the account's realtime shard tag, api/lib/
 * redis-keys.ts), written after the change commits. The realtime service (realtime/connection.ts)
 * delivers the stream, as `{type:"event", stream:"boards", event, data}`, to every signed-in
 * person of the account who may open /pipelines; a screen keeps the entries of the board it shows
 * (`data.board_id`). Entries carry what changed (the deal's card, the column) so a screen applies
 * them without asking again; `version` on a deal lets it drop an entry older than what it holds.
 */
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";

export const boardStream = (accountId: string) => keys.boardStream(accountId);

/** Entries kept per account: a reconnecting screen catches up on what it missed meanwhile. */
const MAXLEN = 10_000;

export const BOARD_EVENTS = [
  "board_created",
  "board_renamed",
  "board_deleted",
  "column_created",
  "column_renamed",
  "columns_reordered",
  "column_deleted",
  "deal_created",
  "deal_updated",
  "deal_moved",
  "deal_archived",
  "deal_restored",
  "deal_deleted",
] as const;
export type BoardEvent = (typeof BOARD_EVENTS)[number];

export type BoardPublish = { accountId: string; boardId: string; event: BoardEvent; data: Record<string, unknown>; actorId?: string | null };

/**
 * Publishes board events (call after commit). A failure is logged, never the request's: the
 * change is stored, and a screen that missed the entry has it again on its next load.
 */
export async function publishBoard(events: BoardPublish[]): Promise<void> {
  if (events.length === 0) return;
  const pipeline = redis().pipeline();
  for (const e of events) {
    pipeline.xadd(
      boardStream(e.accountId),
      "MAXLEN",
      "~",
      String(MAXLEN),
      "*",
      "event",
      e.event,
      "data",
      JSON.stringify({ ...e.data, board_id: e.boardId, actor_id: e.actorId ?? null }),
      "at",
      String(Date.now()),
    );
  }
  try {
    await pipeline.exec();
  } catch (err) {
    console.error("board event publish failed", err);
  }
}
