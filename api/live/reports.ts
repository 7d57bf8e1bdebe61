/**
 * Live chat reports (issue 5; screens /live/reports and /live/usage; GET /omni/agents and
 * /omni/agents/{id}/statistic). Read-only use-cases over live_rooms, live_room_events and
 * live_messages; ADR 019 records what each figure counts.
 *
 * The rooms of a period are the rooms CREATED in it (São Paulo days begin..end, at most 31, default
 * today), optionally of one department and/or one agent (rooms that agent attended at some point). What happened
 * to each of them is read from its transition log:
 *  - started: every room; offline: the room began as an offline contact (event `offline`);
 *  - attended: an agent took it at some point (`assigned`, `resumed` or `transfer_accept`);
 *  - closed: an agent closed it (`closed`); transferred: `transfer_agent` or `transfer_department`;
 *    returned: given back to the queue (`returned`);
 *  - wait: first `queued` -> first `assigned`; service: first `assigned` or `resumed` -> last `closed`
 *    (averages in whole seconds, over the rooms that have both ends).
 * Messages (per day, per agent) are those WRITTEN in the period, in rooms of the department/agent filter.
 */
// Lag-tolerant reads (ADR 030): this module's reports run on the read replica while it is healthy; the
// check that guards a write (assertFilterOwned, before an export is created) and the agents' live
// statuses (listLiveAgents: whom to transfer to, right after a status change) read the primary.
import { replicaRows as rows, rows as primaryRows } from "../lib/sql";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { decide, SUPERVISOR_ROLES_SQL } from "../policy/policy";
import { assertPath } from "./access";
import { AGENT_STATUSES, LIVE_CHANNELS } from "./rooms/types";

export const REPORT_TIME_ZONE = "America/Sao_Paulo";
export const REPORT_MAX_DAYS = 31;
const TZ = `'${REPORT_TIME_ZONE}'`;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Today in São Paulo as YYYY-MM-DD. */
export function saoPauloDay(now = new Date()) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: REPORT_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

function isDay(v: string) {
  if (!DAY.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
const dayDiff = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

const text = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => (v ?? "").trim());
const optionalId = text.refine((v) => v === "" || UUID.test(v), { message: "validation.option" }).transform((v) => v || null);

/** A period (begin..end São Paulo days, default today, at most 31 days) and optional department and agent. */
export const reportPeriodSchema = z
  .object({ begin: text, end: text, department_id: optionalId, agent_id: optionalId })
  .superRefine((v, ctx) => {
    if (v.begin && !isDay(v.begin)) ctx.addIssue({ code: "custom", path: ["begin"], message: "validation.invalid" });
    if (v.end && !isDay(v.end)) ctx.addIssue({ code: "custom", path: ["end"], message: "validation.invalid" });
    const end = v.end || saoPauloDay();
    const begin = v.begin || (v.end ? end : saoPauloDay());
    if (!isDay(begin) || !isDay(end)) return;
    const span = dayDiff(begin, end);
    if (span < 0) ctx.addIssue({ code: "custom", path: ["end"], message: "validation.invalid" });
    else if (span + 1 > REPORT_MAX_DAYS) ctx.addIssue({ code: "custom", path: ["end"], message: `validation.maxRange::${REPORT_MAX_DAYS}` });
  })
  .transform((v) => {
    const end = v.end || saoPauloDay();
    return { begin: v.begin || (v.end ? end : saoPauloDay()), end, department_id: v.department_id, agent_id: v.agent_id };
  });
export type ReportPeriod = z.infer<typeof reportPeriodSchema>;

export function parsePeriod(input: unknown): ReportPeriod {
  return validate(reportPeriodSchema, input ?? {});
}

/** The department and agent of a filter must be the account's (others' read as unknown options). */
export async function assertFilterOwned(accountId: string, p: ReportPeriod) {
  if (p.department_id) {
    const [d] = await primaryRows(`SELECT 1 FROM departments WHERE id = $1 AND account_id = $2`, [p.department_id, accountId]);
    if (!d) throw new AppError("VALIDATION", { fields: { department_id: ["validation.option"] } });
  }
  if (p.agent_id) {
    const [m] = await primaryRows(`SELECT 1 FROM memberships WHERE user_id = $1 AND account_id = $2`, [p.agent_id, accountId]);
    if (!m) throw new AppError("VALIDATION", { fields: { agent_id: ["validation.option"] } });
  }
}

/** Who attended a room at some point: who took it (`assigned`: payload agent_id), accepted it by transfer or resumed it. */
const HANDLER = `CASE WHEN he.type = 'assigned' THEN (he.payload->>'agent_id')::uuid ELSE he.actor_id END`;
const HANDLED = `he.type IN ('assigned','resumed','transfer_accept')`;
/** The room (alias) was attended by the agent (SQL expression) at some point, not only by its current agent. */
const handledBy = (room: string, agent: string) => `EXISTS (SELECT 1 FROM live_room_events he WHERE he.room_id = ${room}.id AND ${HANDLED} AND ${HANDLER} = ${agent})`;

/**
 * The rooms of the period ($1 account, $2 begin, $3 end, $4 department, $5 agent) with what their
 * log says (`t`), and the period's bounds (`p`).
 */
const PERIOD_ROOMS = `
  p AS (SELECT ($2::date)::timestamp AT TIME ZONE ${TZ} AS t0, ($3::date + 1)::timestamp AT TIME ZONE ${TZ} AS t1),
  r AS (
    SELECT lr.id, lr.agent_id, lr.channel, lr.tabulation_id, lr.department_id FROM live_rooms lr, p
     WHERE lr.account_id = $1 AND lr.created_at >= p.t0 AND lr.created_at < p.t1
       AND ($4::uuid IS NULL OR lr.department_id = $4::uuid) AND ($5::uuid IS NULL OR ${handledBy("lr", "$5::uuid")})),
  t AS (
    SELECT r.id, r.agent_id, r.channel, r.tabulation_id,
           COALESCE(bool_or(e.type = 'offline'), false) AS offline,
           COALESCE(bool_or(e.type IN ('assigned','resumed','transfer_accept')), false) AS attended,
           COALESCE(bool_or(e.type = 'closed'), false) AS closed,
           COALESCE(bool_or(e.type IN ('transfer_agent','transfer_department')), false) AS transferred,
           COALESCE(bool_or(e.type = 'returned'), false) AS returned,
           extract(epoch FROM min(e.created_at) FILTER (WHERE e.type = 'assigned') - min(e.created_at) FILTER (WHERE e.type = 'queued')) AS wait,
           extract(epoch FROM max(e.created_at) FILTER (WHERE e.type = 'closed') - min(e.created_at) FILTER (WHERE e.type IN ('assigned','resumed'))) AS service
      FROM r LEFT JOIN live_room_events e ON e.room_id = r.id
     GROUP BY r.id, r.agent_id, r.channel, r.tabulation_id)`;

const binds = (accountId: string, p: ReportPeriod) => [accountId, p.begin, p.end, p.department_id, p.agent_id];
const avg = (col: string) => `COALESCE(round(avg(${col}) FILTER (WHERE ${col} >= 0))::int, 0)`;

export type LiveTotals = {
  started: number;
  attended: number;
  closed: number;
  transferred: number;
  returned: number;
  offline: number;
  average_wait_seconds: number;
  average_service_seconds: number;
};
export type LiveReport = {
  period: ReportPeriod;
  totals: LiveTotals;
  tabulations: Array<{ tabulation_id: string | null; name: string | null; rooms: number }>;
  channels: Array<{ channel: string; rooms: number }>;
  agents: Array<{ agent_id: string; name: string; email: string; rooms: number; average_service_seconds: number; messages_sent: number }>;
  days: Array<{ day: string; visitor: number; agent: number; total: number }>;
};

/** Who reads reports: the /live/reports route (omni plan; ADR 019 names the roles). */
function assertReader(ctx: SignedInCtx) {
  assertPath(ctx, "/live/reports");
}

/** The figures of /live/reports for a period. */
export async function liveReport(ctx: SignedInCtx, input: unknown): Promise<LiveReport> {
  assertReader(ctx);
  const p = parsePeriod(input);
  const { accountId } = ctx.actor;
  await assertFilterOwned(accountId, p);
  const b = binds(accountId, p);
  const [totals] = await rows<LiveTotals>(
    `WITH ${PERIOD_ROOMS}
     SELECT count(*)::int AS started, count(*) FILTER (WHERE attended)::int AS attended, count(*) FILTER (WHERE closed)::int AS closed,
            count(*) FILTER (WHERE transferred)::int AS transferred, count(*) FILTER (WHERE returned)::int AS returned,
            count(*) FILTER (WHERE offline)::int AS offline,
            ${avg("wait")} AS average_wait_seconds, ${avg("service")} AS average_service_seconds
       FROM t`,
    b,
  );
  const tabulations = await rows<LiveReport["tabulations"][number]>(
    `WITH ${PERIOD_ROOMS}
     SELECT t.tabulation_id, tab.name, count(*)::int AS rooms FROM t LEFT JOIN live_tabulations tab ON tab.id = t.tabulation_id
      WHERE t.closed GROUP BY t.tabulation_id, tab.name ORDER BY rooms DESC, tab.name NULLS LAST`,
    b,
  );
  const channels = await rows<LiveReport["channels"][number]>(
    `WITH ${PERIOD_ROOMS} SELECT channel, count(*)::int AS rooms FROM t GROUP BY channel ORDER BY rooms DESC, channel`,
    b,
  );
  const agents = await rows<LiveReport["agents"][number]>(
    `WITH ${PERIOD_ROOMS},
     h AS (SELECT DISTINCT he.room_id, ${HANDLER} AS agent_id FROM live_room_events he JOIN t ON t.id = he.room_id WHERE ${HANDLED}),
     a AS (SELECT h.agent_id, count(*)::int AS rooms, ${avg("t.service")} AS average_service_seconds FROM h JOIN t ON t.id = h.room_id
            WHERE h.agent_id IS NOT NULL AND ($5::uuid IS NULL OR h.agent_id = $5::uuid) GROUP BY h.agent_id),
     m AS (SELECT m.user_id, count(*)::int AS n FROM live_messages m JOIN live_rooms lr ON lr.id = m.room_id, p
            WHERE m.account_id = $1 AND m.author = 'agent' AND m.created_at >= p.t0 AND m.created_at < p.t1
              AND ($4::uuid IS NULL OR lr.department_id = $4::uuid) AND ($5::uuid IS NULL OR m.user_id = $5::uuid)
            GROUP BY m.user_id)
     SELECT u.id AS agent_id, trim(u.first_name || ' ' || u.last_name) AS name, u.email::text AS email,
            COALESCE(a.rooms, 0) AS rooms, COALESCE(a.average_service_seconds, 0) AS average_service_seconds, COALESCE(m.n, 0) AS messages_sent
       FROM (SELECT agent_id AS id FROM a UNION SELECT user_id FROM m WHERE user_id IS NOT NULL) ids
       JOIN users u ON u.id = ids.id LEFT JOIN a ON a.agent_id = ids.id LEFT JOIN m ON m.user_id = ids.id
      ORDER BY rooms DESC, name, u.id`,
    b,
  );
  const days = await messagesPerDay(accountId, p);
  return { period: p, totals, tabulations, channels, agents, days };
}

/** Messages written per São Paulo day of the period (every day present), by visitors and by agents. */
async function messagesPerDay(accountId: string, p: ReportPeriod) {
  return rows<LiveReport["days"][number]>(
    `WITH p AS (SELECT ($2::date)::timestamp AT TIME ZONE ${TZ} AS t0, ($3::date + 1)::timestamp AT TIME ZONE ${TZ} AS t1),
     m AS (SELECT (m.created_at AT TIME ZONE ${TZ})::date AS day, m.author FROM live_messages m JOIN live_rooms lr ON lr.id = m.room_id, p
            WHERE m.account_id = $1 AND m.created_at >= p.t0 AND m.created_at < p.t1
              AND ($4::uuid IS NULL OR lr.department_id = $4::uuid) AND ($5::uuid IS NULL OR ${handledBy("lr", "$5::uuid")}))
     SELECT to_char(d, 'YYYY-MM-DD') AS day, count(m.author) FILTER (WHERE m.author = 'visitor')::int AS visitor,
            count(m.author) FILTER (WHERE m.author = 'agent')::int AS agent, count(m.author)::int AS total
       FROM generate_series($2::date, $3::date, interval '1 day') d LEFT JOIN m ON m.day = d::date
      GROUP BY d ORDER BY d`,
    binds(accountId, p),
  );
}

// ---- usage ------------------------------------------------------------------------------------------

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export type LiveUsage = {
  month: string;
  days: Array<{ day: string; rooms: number; messages: number }>;
  channels: Array<{ channel: string; rooms: number; messages: number }>;
  totals: { rooms: number; messages: number };
  plan: { name: string; price: number; currency: string; billing_cycle: string; starts_at: Date; ends_at: Date | null; permissions: Record<string, boolean> } | null;
};

/** /live/usage: conversations and messages per day and per channel of a month (YYYY-MM, default this one), and the live plan. */
export async function liveUsage(ctx: SignedInCtx, input: { month?: string | null }): Promise<LiveUsage> {
  assertPath(ctx, "/live/usage");
  const month = (input.month ?? "").trim() || saoPauloDay().slice(0, 7);
  if (!MONTH.test(month)) throw new AppError("VALIDATION", { fields: { month: ["validation.invalid"] } });
  const { accountId } = ctx.actor;
  const bounds = `p AS (SELECT ($2 || '-01')::date AS d0, (($2 || '-01')::date + interval '1 month')::date AS d1),
     b AS (SELECT d0::timestamp AT TIME ZONE ${TZ} AS t0, d1::timestamp AT TIME ZONE ${TZ} AS t1 FROM p)`;
  const days = await rows<LiveUsage["days"][number]>(
    `WITH ${bounds},
     r AS (SELECT (created_at AT TIME ZONE ${TZ})::date AS day, count(*)::int AS n FROM live_rooms, b WHERE account_id = $1 AND created_at >= b.t0 AND created_at < b.t1 GROUP BY 1),
     m AS (SELECT (created_at AT TIME ZONE ${TZ})::date AS day, count(*)::int AS n FROM live_messages, b WHERE account_id = $1 AND created_at >= b.t0 AND created_at < b.t1 GROUP BY 1)
     SELECT to_char(d, 'YYYY-MM-DD') AS day, COALESCE(r.n, 0) AS rooms, COALESCE(m.n, 0) AS messages
       FROM p, generate_series(p.d0, p.d1 - 1, interval '1 day') d LEFT JOIN r ON r.day = d::date LEFT JOIN m ON m.day = d::date ORDER BY d`,
    [accountId, month],
  );
  const channels = await rows<LiveUsage["channels"][number]>(
    `WITH ${bounds},
     r AS (SELECT channel, count(*)::int AS n FROM live_rooms, b WHERE account_id = $1 AND created_at >= b.t0 AND created_at < b.t1 GROUP BY 1),
     m AS (SELECT lr.channel, count(*)::int AS n FROM live_messages lm JOIN live_rooms lr ON lr.id = lm.room_id, b
            WHERE lm.account_id = $1 AND lm.created_at >= b.t0 AND lm.created_at < b.t1 GROUP BY 1)
     SELECT c AS channel, COALESCE(r.n, 0) AS rooms, COALESCE(m.n, 0) AS messages
       FROM unnest($3::text[]) c LEFT JOIN r ON r.channel = c LEFT JOIN m ON m.channel = c
      WHERE r.n IS NOT NULL OR m.n IS NOT NULL ORDER BY rooms DESC, messages DESC, c`,
    [accountId, month, [...LIVE_CHANNELS]],
  );
  const [plan] = await rows<NonNullable<LiveUsage["plan"]> & { price: string | number }>(
    `SELECT p.name, p.price, trim(p.currency) AS currency, p.billing_cycle, ap.starts_at, ap.ends_at, p.permissions
       FROM account_plans ap JOIN plans p ON p.id = ap.plan_id WHERE ap.account_id = $1 AND ap.service = 'omni' LIMIT 1`,
    [accountId],
  );
  const totals = days.reduce((s, d) => ({ rooms: s.rooms + d.rooms, messages: s.messages + d.messages }), { rooms: 0, messages: 0 });
  return { month, days, channels, totals, plan: plan ? { ...plan, price: Number(plan.price) } : null };
}

// ---- agents ----------------------------------------------------------------------------------------

export type LiveAgentRow = {
  id: string;
  name: string;
  email: string;
  role: string;
  department_id: string | null;
  status: string;
  status_date: Date | null;
  active: boolean;
  active_calls: number;
};

/** Reports readers, or attendants (who pick an agent to transfer to). */
function assertAgentsReader(ctx: SignedInCtx) {
  if (decide(ctx.actor, "/live/reports").allowed) return;
  assertPath(ctx, "/live");
}

/**
 * GET /omni/agents: the account's agents (members flagged agent, and owners, admins and managers,
 * who may attend too) with their status and its time; `active` = connected (not OFFLINE).
 * Ordered by status (AVAILABLE first … OFFLINE) then name, as the supervisor list.
 */
export async function listLiveAgents(ctx: SignedInCtx): Promise<LiveAgentRow[]> {
  assertAgentsReader(ctx);
  return primaryRows<LiveAgentRow>(
    `SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS name, u.email::text AS email, m.role, m.department_id,
            COALESCE(a.status, 'OFFLINE') AS status, a.status_at AS status_date, COALESCE(a.status, 'OFFLINE') <> 'OFFLINE' AS active,
            (SELECT count(*)::int FROM live_rooms r WHERE r.account_id = m.account_id AND r.agent_id = m.user_id AND r.status = 'OPEN') AS active_calls
       FROM memberships m JOIN users u ON u.id = m.user_id
       LEFT JOIN live_agents a ON a.account_id = m.account_id AND a.user_id = m.user_id
      WHERE m.account_id = $1 AND (m.is_agent OR m.role IN (${SUPERVISOR_ROLES_SQL}))
      ORDER BY array_position($2::text[], COALESCE(a.status, 'OFFLINE')), lower(trim(u.first_name || ' ' || u.last_name)), u.id`,
    [ctx.actor.accountId, [...AGENT_STATUSES]],
  );
}

export type AgentStatistic = {
  agent_id: string;
  begin: string;
  end: string;
  active_calls: number;
  total_calls: number;
  average_service_time: number;
  closed_calls: number;
  transferred_calls: number;
  messages_sent: number;
  days: Array<{ day: string; rooms: number; messages: number }>;
};

/** The room (alias) has an event of one of `types` whose actor is $5 (the agent). */
const actedOn = (room: string, types: string) => `EXISTS (SELECT 1 FROM live_room_events ae WHERE ae.room_id = ${room}.id AND ae.type IN (${types}) AND ae.actor_id = $5::uuid)`;
/** The agent's ($5) messages written in the period (`p`). */
const AGENT_MESSAGES = `SELECT m.created_at FROM live_messages m, p WHERE m.account_id = $1 AND m.author = 'agent' AND m.user_id = $5::uuid AND m.created_at >= p.t0 AND m.created_at < p.t1`;

/**
 * GET /omni/agents/{id}/statistic?begin&end (default today) and the /live/report screen: the
 * agent's open rooms now (active_calls); of the period's rooms they attended at some point
 * (total_calls, the agent's line of the report) their average service time in seconds, those they
 * closed and those they transferred away; the messages they wrote in the period; and per São Paulo
 * day (every day present) the attended rooms created that day and the messages written that day.
 * An agent reads their own; reports readers anyone's of the account.
 */
export async function agentStatistic(ctx: SignedInCtx, agentId: string, input: { begin?: string | null; end?: string | null }): Promise<AgentStatistic> {
  assertId(agentId);
  if (agentId !== ctx.actor.userId) assertReader(ctx);
  else assertAgentsReader(ctx);
  const p = parsePeriod({ begin: input.begin, end: input.end });
  const [member] = await rows(`SELECT 1 FROM memberships WHERE account_id = $1 AND user_id = $2`, [ctx.actor.accountId, agentId]);
  if (!member) throw new AppError("NOT_FOUND");
  const b = [ctx.actor.accountId, p.begin, p.end, null, agentId];
  const [s] = await rows<Omit<AgentStatistic, "agent_id" | "begin" | "end" | "days">>(
    `WITH ${PERIOD_ROOMS}
     SELECT count(*)::int AS total_calls, ${avg("service")} AS average_service_time,
            count(*) FILTER (WHERE ${actedOn("t", "'closed'")})::int AS closed_calls,
            count(*) FILTER (WHERE ${actedOn("t", "'transfer_agent','transfer_department'")})::int AS transferred_calls,
            (SELECT count(*)::int FROM (${AGENT_MESSAGES}) am) AS messages_sent,
            (SELECT count(*)::int FROM live_rooms WHERE account_id = $1 AND agent_id = $5::uuid AND status = 'OPEN') AS active_calls
       FROM t`,
    b,
  );
  const days = await rows<AgentStatistic["days"][number]>(
    `WITH ${PERIOD_ROOMS},
     rd AS (SELECT (lr.created_at AT TIME ZONE ${TZ})::date AS day, count(*)::int AS n FROM t JOIN live_rooms lr ON lr.id = t.id GROUP BY 1),
     md AS (SELECT (am.created_at AT TIME ZONE ${TZ})::date AS day, count(*)::int AS n FROM (${AGENT_MESSAGES}) am GROUP BY 1)
     SELECT to_char(d, 'YYYY-MM-DD') AS day, COALESCE(rd.n, 0) AS rooms, COALESCE(md.n, 0) AS messages
       FROM generate_series($2::date, $3::date, interval '1 day') d LEFT JOIN rd ON rd.day = d::date LEFT JOIN md ON md.day = d::date
      ORDER BY d`,
    b,
  );
  return { agent_id: agentId, begin: p.begin, end: p.end, ...s, days };
}

/**
 * The agents whose statistic the actor may read on /live/report: a reports reader picks any agent
 * of the account (the report filters' list); anyone else (an attendant) only themselves.
 */
export async function agentReportOptions(ctx: SignedInCtx): Promise<{ agents: Array<{ id: string; name: string }>; pick: boolean }> {
  if (decide(ctx.actor, "/live/reports").allowed) return { agents: (await reportFilterOptions(ctx)).agents, pick: true };
  assertAgentsReader(ctx);
  const self = await rows<{ id: string; name: string }>(
    `SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS name FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1 AND m.user_id = $2`,
    [ctx.actor.accountId, ctx.actor.userId],
  );
  return { agents: self, pick: false };
}

/** Departments and agents for the report filters. */
export async function reportFilterOptions(ctx: SignedInCtx) {
  assertReader(ctx);
  const departments = await rows<{ id: string; name: string }>(`SELECT id, name FROM departments WHERE account_id = $1 ORDER BY name, id`, [ctx.actor.accountId]);
  const agents = await rows<{ id: string; name: string }>(
    `SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS name FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.account_id = $1 AND (m.is_agent OR m.role IN (${SUPERVISOR_ROLES_SQL})) ORDER BY lower(trim(u.first_name || ' ' || u.last_name)), u.id`,
    [ctx.actor.accountId],
  );
  return { departments, agents };
}
