/**
 * Distribution and capacity. An agent attends at most live_agents.capacity (else the account's
 * default_capacity) OPEN rooms; the agent's live_agents row is locked while a room is given to
 * them, so two concurrent assignments cannot exceed it.
 */
import type { Transaction } from "sequelize";
import { AppError } from "../../lib/errors";
import { SUPERVISOR_ROLES_SQL } from "../../policy/policy";
import { onlineAgents } from "../presence";
import { settingsRow } from "../settings";
import { publishLive } from "../streams";
import { exec, row } from "../../lib/sql";
import { sequelize } from "../../../models";
import { changeRoom, type RoomWork } from "./transition";
import type { AgentStatus, Room } from "./types";

/** How many rooms an agent may attend at once, and how many they attend now (agent row locked). */
export async function agentLoad(accountId: string, userId: string, transaction: Transaction) {
  const settings = await settingsRow(accountId, transaction);
  await exec(`INSERT INTO live_agents (account_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [accountId, userId], { transaction });
  const agent = await row<{ capacity: number | null; status: AgentStatus }>(
    `SELECT capacity, status FROM live_agents WHERE account_id = $1 AND user_id = $2 FOR UPDATE`,
    [accountId, userId],
    { transaction },
  );
  if (!agent) throw new AppError("NOT_FOUND");
  const open = await row<{ n: number }>(`SELECT count(*)::int AS n FROM live_rooms WHERE account_id = $1 AND agent_id = $2 AND status = 'OPEN'`, [accountId, userId], {
    transaction,
  });
  return { capacity: agent.capacity ?? settings.default_capacity, open: open?.n ?? 0, status: agent.status };
}

/** LIVE_ROOM_LIMIT when the agent attends as many rooms as they may. */
export async function assertCapacity(accountId: string, userId: string, transaction: Transaction) {
  const load = await agentLoad(accountId, userId, transaction);
  if (load.open >= load.capacity) throw new AppError("LIVE_ROOM_LIMIT");
}

/**
 * Automatic distribution (live.acceptance_option = automatic): while a queued room and an
 * online, available agent with room to spare exist, the oldest queued room goes to the least-busy
 * such agent serving its department (any agent for a room without department). Online = a live
 * connection is open in some realtime process (../presence): an agent whose status says AVAILABLE
 * but who has closed the app gets nothing. Rooms are taken with SKIP LOCKED so several processes
 * distribute side by side.
 */
export async function distribute(accountId: string): Promise<number> {
  const settings = await settingsRow(accountId);
  if (settings.acceptance_option !== "automatic") return 0;
  const online = await onlineAgents(accountId);
  if (online.length === 0) return 0;
  let assigned = 0;
  for (let i = 0; i < 1000; i++) {
    const notices: RoomWork["notices"] = [];
    const done = await sequelize().transaction(async (transaction) => {
      const room = await row<Room>(`SELECT * FROM live_rooms WHERE account_id = $1 AND status = 'QUEUE' ORDER BY queued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`, [accountId], {
        transaction,
      });
      if (!room) return true;
      const agent = await row<{ user_id: string }>(
        `SELECT a.user_id FROM live_agents a
         JOIN memberships m ON m.account_id = a.account_id AND m.user_id = a.user_id
         WHERE a.account_id = $1 AND a.status = 'AVAILABLE' AND a.user_id = ANY($5::uuid[]) AND (m.is_agent OR m.role IN (${SUPERVISOR_ROLES_SQL}))
           AND ($2::uuid IS NULL OR m.department_id = $2 OR EXISTS (
                 SELECT 1 FROM live_agent_departments d WHERE d.account_id = a.account_id AND d.user_id = a.user_id AND d.department_id = $2))
           AND (SELECT count(*) FROM live_rooms r WHERE r.account_id = a.account_id AND r.agent_id = a.user_id AND r.status = 'OPEN') < COALESCE(a.capacity, $3)
           AND NOT EXISTS (SELECT 1 FROM live_room_events e WHERE e.room_id = $4 AND e.type = 'refused' AND e.actor_id = a.user_id)
         ORDER BY (SELECT count(*) FROM live_rooms r WHERE r.account_id = a.account_id AND r.agent_id = a.user_id AND r.status = 'OPEN'), a.status_at, a.user_id
         LIMIT 1 FOR UPDATE OF a SKIP LOCKED`,
        [accountId, room.department_id, settings.default_capacity, room.id, online],
        { transaction },
      );
      if (!agent) return true;
      // This loop is the distribution: nothing here asks for another one after COMMIT.
      await assign({ transaction, notices, distribute: new Set() }, room, agent.user_id, null);
      return false;
    });
    await publishLive(notices);
    if (done) break;
    assigned++;
  }
  return assigned;
}

/** QUEUE -> OPEN with `userId` (a department transfer finishes here). `actorId` null = the distribution gave it. */
export async function assign(w: RoomWork, room: Room, userId: string, actorId: string | null): Promise<Room> {
  const finishing = room.locked && room.transfer_type === "department";
  return changeRoom(w, room, {
    move: "assign",
    set: { agent_id: userId, assigned_at: new Date(), idle: false, offline: false, ...(finishing ? { locked: false } : {}) },
    log: [
      { type: "assigned", actor: actorId, payload: { agent_id: userId } },
      ...(finishing ? [{ type: "transfer_finished", actor: actorId, payload: { agent_id: userId } }] : []),
    ],
    notify: [{ event: "assigned", to: "*", visitor: true }, ...(finishing ? [{ event: "transfer_finished" as const, to: "*" as const }] : [])],
  });
}
