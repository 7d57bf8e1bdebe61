/** The worker's sweeps over every account's rooms: idle visitors, and agents who left. */
import { absentAgents } from "../presence";
import { idleSinceSql } from "../settings";
import { publishLive } from "../streams";
import { rows } from "../../lib/sql";
import { inRoomTransaction } from "./transaction";
import { attendingAgent, changeRoom, roomNotice } from "./transition";
import type { Room } from "./types";

/**
 * Marks OPEN rooms idle when the visitor has not written for the account's idle_minutes while the
 * agent's message waits for an answer. Returns how many became idle. One set-based UPDATE for all
 * accounts: no room row is locked first, and no event row is written (idle is not in the reports).
 */
export async function sweepIdle(): Promise<number> {
  const changed = await rows<Room>(
    `UPDATE live_rooms r SET idle = true, updated_at = now()
     WHERE r.status = 'OPEN' AND NOT r.idle
       AND r.last_message_at < ${idleSinceSql("r.account_id")}
       AND (SELECT author FROM live_messages m WHERE m.room_id = r.id ORDER BY created_at DESC, id DESC LIMIT 1) = 'agent'
     RETURNING r.*`,
    [],
  );
  await publishLive(changed.map((room) => roomNotice(room, { event: "room_updated", to: attendingAgent(room) })));
  return changed.length;
}

/**
 * A room "in waiting" for its agent: OPEN with them, not in a transfer, given to them by the
 * distribution (its latest assignment event has no actor: not a take, an accepted transfer or a
 * resume, which are the agent's own doing), and the agent has written nothing in it since —
 * given, but not yet attended. (r = the room.)
 */
const WAITING_FOR_AGENT = `r.status = 'OPEN' AND NOT r.locked AND r.agent_id IS NOT NULL
  AND COALESCE((SELECT e.actor_id IS NULL FROM live_room_events e WHERE e.room_id = r.id AND e.type IN ('assigned', 'transfer_accept', 'resumed')
                ORDER BY e.id DESC LIMIT 1), false)
  AND NOT EXISTS (SELECT 1 FROM live_messages m WHERE m.room_id = r.id AND m.author = 'agent' AND m.user_id = r.agent_id AND m.created_at >= r.assigned_at)`;

/**
 * Agents who left (issue 12 item 8): the waiting rooms of an agent without a live connection for
 * `graceMs` go back to the queue — keeping their place (queued_at is not reset: the visitor has
 * been waiting all along) — and are distributed again. Rooms the agent already answered, or chose
 * (took, accepted in a transfer, resumed), stay theirs: the visitor is in a conversation with that
 * person, who finds it again on reconnecting (the idle sweep or a supervisor deal with one
 * abandoned). A reconnect within the grace keeps everything. Returns how many rooms went back.
 */
export async function releaseAbsentAgents(graceMs: number): Promise<number> {
  const held = await rows<{ account_id: string; agent_ids: string[] }>(
    `SELECT r.account_id, array_agg(DISTINCT r.agent_id) AS agent_ids FROM live_rooms r WHERE ${WAITING_FOR_AGENT} GROUP BY r.account_id`,
    [],
  );
  let released = 0;
  for (const { account_id: accountId, agent_ids } of held) {
    const absent = await absentAgents(accountId, agent_ids, graceMs);
    if (absent.length === 0) continue;
    released += await inRoomTransaction(async (w) => {
      // Checked again under the room locks: a message written meanwhile keeps the room.
      const rooms = await rows<Room>(
        `SELECT r.* FROM live_rooms r WHERE r.account_id = $1 AND r.agent_id = ANY($2::uuid[]) AND ${WAITING_FOR_AGENT} FOR UPDATE OF r SKIP LOCKED`,
        [accountId, absent],
        { transaction: w.transaction },
      );
      for (const room of rooms) {
        await changeRoom(w, room, {
          move: "requeue",
          set: { agent_id: null },
          log: { type: "agent_absent", actor: null, payload: { from: room.agent_id } },
          notify: { event: "return_to_queue", to: "*", extra: { from: room.agent_id, reason: "agent_absent" }, visitor: true },
          distribute: true,
        });
      }
      return rooms.length;
    });
  }
  return released;
}
