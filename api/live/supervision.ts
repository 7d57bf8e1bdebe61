/**
 * Supervisor reads of live chat: the agent-manager view (/live/manage: every agent, sorted by
 * status order then name, with their open rooms and today's statistics) and the real-time
 * department dashboard (/live/dashboard). Read-only. "Today" is the São Paulo day.
 *
 * Service time: from a room being given to an agent (assigned, accepted transfer, resumed offline
 * contact) to the next `closed` event of that room, from live_room_events.
 */
// Lag-tolerant reads (ADR 030): this module's queries run on the read replica while it is healthy.
import { replicaRows as rows } from "../lib/sql";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { can, SUPERVISOR_ROLES_SQL } from "../policy/policy";
import { AGENT_STATUSES, type AgentStatus } from "./rooms/types";
import { settingsRow } from "./settings";

const TODAY = `(date_trunc('day', now() AT TIME ZONE 'America/Sao_Paulo') AT TIME ZONE 'America/Sao_Paulo')`;

/** Every moment a room was given to an agent: (room, agent, at, event id). */
const STARTS = `
  SELECT e.id, e.room_id, e.created_at, CASE WHEN e.type = 'assigned' THEN (e.payload->>'agent_id')::uuid ELSE e.actor_id END AS agent_id
  FROM live_room_events e
  WHERE e.account_id = $1 AND (e.type IN ('assigned','transfer_accept') OR (e.type = 'resumed' AND e.payload->>'from' = 'offline'))`;

export type ManagedAgent = {
  id: string;
  name: string;
  email: string;
  role: string;
  status: AgentStatus;
  status_at: string | null;
  capacity: number;
  rooms: Array<{ id: string; protocol: string; username: string; channel: string; assigned_at: string | null; unread_count: number; locked: boolean }>;
  statistics: { active_calls: number; today_calls: number; average_service_time: number | null; total_calls: number };
};

/** The agent-manager view (spec: profiles ADMINISTRATOR or MANAGER; plan 'spie'). */
export async function agentsOverview(ctx: SignedInCtx): Promise<ManagedAgent[]> {
  // The policy tags /live/manage with the supervisors (owner, admin, manager) and gates the 'spie' plan permission.
  if (!can(ctx.actor, "/live/manage")) throw new AppError("FORBIDDEN");
  const { accountId } = ctx.actor;
  const settings = await settingsRow(accountId);
  const [agents, open] = await Promise.all([
    rows<Omit<ManagedAgent, "rooms" | "statistics"> & { today_calls: number; total_calls: number; average_service_time: number | null }>(
      `WITH starts AS (${STARTS}),
       sessions AS (
         SELECT s.agent_id, s.created_at AS started,
                (SELECT min(c.created_at) FROM live_room_events c WHERE c.room_id = s.room_id AND c.type = 'closed' AND c.id > s.id) AS ended
         FROM starts s
       )
       SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS name, u.email::text AS email, m.role,
              COALESCE(a.status, 'OFFLINE') AS status, a.status_at, COALESCE(a.capacity, $3) AS capacity,
              (SELECT count(*)::int FROM sessions x WHERE x.agent_id = u.id AND x.started >= ${TODAY}) AS today_calls,
              (SELECT count(*)::int FROM sessions x WHERE x.agent_id = u.id) AS total_calls,
              (SELECT round(avg(extract(epoch FROM x.ended - x.started)))::int FROM sessions x
                 WHERE x.agent_id = u.id AND x.ended IS NOT NULL AND x.started >= ${TODAY}) AS average_service_time
       FROM memberships m JOIN users u ON u.id = m.user_id
       LEFT JOIN live_agents a ON a.account_id = m.account_id AND a.user_id = m.user_id
       WHERE m.account_id = $1 AND (m.is_agent OR m.role IN (${SUPERVISOR_ROLES_SQL}))
       ORDER BY array_position($2::text[], COALESCE(a.status, 'OFFLINE')), lower(trim(u.first_name || ' ' || u.last_name)), u.id`,
      [accountId, [...AGENT_STATUSES], settings.default_capacity],
    ),
    rows<ManagedAgent["rooms"][number] & { agent_id: string }>(
      `SELECT id, protocol, username, channel, assigned_at, unread_count, locked, agent_id FROM live_rooms
       WHERE account_id = $1 AND status = 'OPEN' ORDER BY assigned_at NULLS LAST, id`,
      [accountId],
    ),
  ]);
  return agents.map((a) => {
    const rooms = open.filter((r) => r.agent_id === a.id).map(({ agent_id: _, ...r }) => r);
    return {
      id: a.id,
      name: a.name,
      email: a.email,
      role: a.role,
      status: a.status,
      status_at: a.status_at,
      capacity: a.capacity,
      rooms,
      statistics: { active_calls: rooms.length, today_calls: a.today_calls, average_service_time: a.average_service_time, total_calls: a.total_calls },
    };
  });
}

export type DepartmentFigures = {
  id: string | null;
  name: string | null;
  queued: number;
  open: number;
  agents_available: number;
  longest_wait_seconds: number | null;
  closed_today: number;
};

/** Per department, now: waiting, attended, available agents, the longest wait, closed today. */
export async function departmentDashboard(ctx: SignedInCtx): Promise<DepartmentFigures[]> {
  // The policy opens /live/dashboard to who attends (an agent or a supervisor) with the 'dashboard' plan permission.
  if (!can(ctx.actor, "/live/dashboard")) throw new AppError("FORBIDDEN");
  const { accountId } = ctx.actor;
  // One row per active department, plus "no department" (rooms that did not pick one).
  return rows<DepartmentFigures>(
    `WITH d AS (
       SELECT id, name, 0 AS ord FROM departments WHERE account_id = $1 AND status = 'active'
       UNION ALL SELECT NULL::uuid, NULL, 1
     )
     SELECT d.id, d.name,
       (SELECT count(*)::int FROM live_rooms r WHERE r.account_id = $1 AND r.status = 'QUEUE' AND r.department_id IS NOT DISTINCT FROM d.id) AS queued,
       (SELECT count(*)::int FROM live_rooms r WHERE r.account_id = $1 AND r.status = 'OPEN' AND r.department_id IS NOT DISTINCT FROM d.id) AS open,
       (SELECT count(*)::int FROM live_agents a JOIN memberships m ON m.account_id = a.account_id AND m.user_id = a.user_id
          WHERE a.account_id = $1 AND a.status = 'AVAILABLE' AND (m.is_agent OR m.role IN (${SUPERVISOR_ROLES_SQL}))
            AND (d.id IS NULL OR m.department_id = d.id OR EXISTS (
                 SELECT 1 FROM live_agent_departments x WHERE x.account_id = $1 AND x.user_id = a.user_id AND x.department_id = d.id))) AS agents_available,
       (SELECT extract(epoch FROM now() - min(r.queued_at))::int FROM live_rooms r
          WHERE r.account_id = $1 AND r.status = 'QUEUE' AND r.department_id IS NOT DISTINCT FROM d.id) AS longest_wait_seconds,
       (SELECT count(*)::int FROM live_rooms r WHERE r.account_id = $1 AND r.status = 'CLOSED' AND NOT r.offline
          AND r.closed_at >= ${TODAY} AND r.department_id IS NOT DISTINCT FROM d.id) AS closed_today
     FROM d ORDER BY d.ord, lower(d.name)`,
    [accountId],
  );
}
