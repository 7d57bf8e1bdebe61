/**
 * What the agent workspace (/live) reads besides the rooms themselves: the choices its forms offer
 * (tabulations, departments and agents to transfer to), transfers waiting for this agent's answer,
 * the agent's own status, sound preferences and the account's attendance settings. Read-only; every
 * change goes through the room use-cases (./rooms).
 */
import { rows } from "../lib/sql";
import type { SignedInCtx } from "../lib/context";
import { listMacros } from "./macros";
import { samplesForAgent } from "./samples";
import { isSupervisor, SUPERVISOR_ROLES_SQL } from "../policy/policy";
import { assertAttendant } from "./rooms/guards";
import { myLoad, roomCounts } from "./rooms/queries";
import { AGENT_STATUSES, type AgentStatus, type Room } from "./rooms/types";
import { roomSummary } from "./rooms/views";
import { settingsRow } from "./settings";

export type DeskAgent = { id: string; name: string; email: string; status: AgentStatus };

/** Tabulations, departments and fellow agents for the room's forms; my status and preferences. */
export async function deskOptions(ctx: SignedInCtx) {
  assertAttendant(ctx);
  const { accountId, userId } = ctx.actor;
  const [settings, tabulations, departments, agents, me] = await Promise.all([
    settingsRow(accountId),
    rows<{ id: string; name: string }>(`SELECT id, name FROM live_tabulations WHERE account_id = $1 AND active ORDER BY lower(name)`, [accountId]),
    rows<{ id: string; name: string }>(`SELECT id, name FROM departments WHERE account_id = $1 AND status = 'active' ORDER BY lower(name)`, [accountId]),
    rows<DeskAgent>(
      `SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS name, u.email::text AS email, COALESCE(a.status, 'OFFLINE') AS status
       FROM memberships m JOIN users u ON u.id = m.user_id
       LEFT JOIN live_agents a ON a.account_id = m.account_id AND a.user_id = m.user_id
       WHERE m.account_id = $1 AND (m.is_agent OR m.role IN (${SUPERVISOR_ROLES_SQL}))
       ORDER BY array_position($2::text[], COALESCE(a.status, 'OFFLINE')), lower(u.first_name), lower(u.last_name)`,
      [accountId, [...AGENT_STATUSES]],
    ),
    rows<{ status: AgentStatus; status_at: Date | null; mute: string; mute_until: Date | null; volume: number }>(
      `SELECT status, status_at, mute, mute_until, volume FROM live_agents WHERE account_id = $1 AND user_id = $2`,
      [accountId, userId],
    ),
  ]);
  const mine = me[0];
  const [macros, samples] = await Promise.all([listMacros(ctx).catch(() => []), samplesForAgent(ctx, userId).catch(() => [])]);
  // Muted now: "always", or a timed mute that has not run out.
  const muted = mine ? mine.mute === "always" || (mine.mute !== "disabled" && mine.mute_until !== null && new Date(mine.mute_until) > new Date()) : false;
  return {
    settings: { acceptance_option: settings.acceptance_option, tabulation_required: settings.tabulation_required, queued_enabled: settings.queued_enabled },
    tabulations,
    departments,
    agents: agents.filter((a) => a.id !== userId),
    /** Macros to apply and the canned samples this agent may send (for all, theirs, their departments'). */
    macros: macros.map((m) => ({ id: m.id, name: m.name })),
    samples: samples.map((x) => ({ id: x.id, key: x.key, message: x.message })),
    /** mute_until: when a timed mute ends (the screen stops muting then without a reload). */
    me: {
      status: (mine?.status ?? null) as AgentStatus | null,
      /** When the agent last chose a status (null: never): a newer choice made elsewhere wins over this browser's (issue 19). */
      status_at: mine?.status && mine.status_at ? new Date(mine.status_at).toISOString() : null,
      muted,
      mute_until: muted && mine?.mute_until ? new Date(mine.mute_until).toISOString() : null,
      volume: mine ? Number(mine.volume) : 1,
    },
  };
}

/** Transfers offered to me that wait for my accept or refuse (spec: the incoming transfer prompt). */
export async function incomingTransfers(ctx: SignedInCtx) {
  assertAttendant(ctx);
  const found = await rows<Room & { from_name: string | null }>(
    `SELECT r.*, trim(u.first_name || ' ' || u.last_name) AS from_name FROM live_rooms r LEFT JOIN users u ON u.id = r.transfer_by
     WHERE r.account_id = $1 AND r.locked AND r.transfer_type = 'agent' AND r.transfer_to_user_id = $2 ORDER BY r.transfer_at`,
    [ctx.actor.accountId, ctx.actor.userId],
  );
  return found.map((r) => ({ ...roomSummary(r), from_name: r.from_name }));
}

/** Names the room's details show: its department, tabulation and attending agent. */
export async function roomNames(ctx: SignedInCtx, room: Pick<Room, "department_id" | "tabulation_id" | "agent_id" | "transfer_to_user_id">) {
  assertAttendant(ctx);
  const [row] = await rows<{ department: string | null; tabulation: string | null; agent: string | null; transfer_to: string | null }>(
    `SELECT (SELECT name FROM departments WHERE id = $2 AND account_id = $1) AS department,
            (SELECT name FROM live_tabulations WHERE id = $3 AND account_id = $1) AS tabulation,
            (SELECT trim(first_name || ' ' || last_name) FROM users u JOIN memberships m ON m.user_id = u.id AND m.account_id = $1 WHERE u.id = $4) AS agent,
            (SELECT trim(first_name || ' ' || last_name) FROM users u JOIN memberships m ON m.user_id = u.id AND m.account_id = $1 WHERE u.id = $5) AS transfer_to`,
    [ctx.actor.accountId, room.department_id, room.tabulation_id, room.agent_id, room.transfer_to_user_id],
  );
  return row;
}

/**
 * GET webchat/sync (the first connect step): who I am as an agent, my load and the counts of my
 * lists, the account's live settings — what the workspace needs before the socket opens.
 */
export async function liveSync(ctx: SignedInCtx) {
  assertAttendant(ctx);
  const [options, load, counts] = await Promise.all([deskOptions(ctx), myLoad(ctx), roomCounts(ctx)]);
  return {
    user_id: ctx.actor.userId,
    account_id: ctx.actor.accountId,
    supervisor: isSupervisor(ctx.actor),
    status: options.me.status ?? "OFFLINE",
    status_at: options.me.status_at,
    load,
    counts,
    settings: options.settings,
  };
}

/** GET webchat/account-tags and /omni/tags: every tag used on the account's rooms, most used first. */
export async function accountTags(ctx: SignedInCtx) {
  assertAttendant(ctx);
  return rows<{ tag: string; rooms: number }>(
    `SELECT t AS tag, count(*)::int AS rooms FROM live_rooms r, unnest(r.tags) AS t WHERE r.account_id = $1 GROUP BY t ORDER BY count(*) DESC, t LIMIT 500`,
    [ctx.actor.accountId],
  );
}

/** GET webchat/departments/on: active departments with at least one AVAILABLE agent serving them. */
export async function departmentsOn(ctx: SignedInCtx) {
  assertAttendant(ctx);
  return rows<{ id: string; name: string; available: number }>(
    `SELECT d.id, d.name, count(DISTINCT a.user_id)::int AS available
     FROM departments d
     JOIN memberships m ON m.account_id = d.account_id
     JOIN live_agents a ON a.account_id = m.account_id AND a.user_id = m.user_id AND a.status = 'AVAILABLE'
     WHERE d.account_id = $1 AND d.status = 'active'
       AND (m.department_id = d.id OR EXISTS (SELECT 1 FROM live_agent_departments x WHERE x.account_id = d.account_id AND x.user_id = m.user_id AND x.department_id = d.id))
     GROUP BY d.id, d.name ORDER BY lower(d.name)`,
    [ctx.actor.accountId],
  );
}
