/**
 * RCS figures (issue 21; spec section 2 /rcs/insights, /rcs/reports; section 7 POST
 * /rcs/messages/list, GET /rcs/messages/charts?days=, POST /rcs/messages/insights). RCS messages
 * are rows of `messages` with channel 'rcs' (ADR 055): `type` the content's type, `sender` the
 * agent's Google id (rcs_agents.rbm_agent_id), `price` in the account currency's minor units. The
 * SMS reports' period rules are kept (api/sms/reports.ts: São Paulo days, at most 31, charts of 7
 * or 30 days) and so are the history's filters (api/sms/history.ts smsHistorySchema), with RCS's
 * own: `agent` (an rcs_agents id) and `type`.
 *
 * Every figure of a period comes from one grouped read (`rcsCube`): outbound RCS messages per São
 * Paulo day, status, type, agent, price class and currency, which the insights, the report and
 * platform staff's reports (./admin-reports.ts) add up as they need. Price class is the one the
 * accept priced (`route` basic|rich when it recorded it), else the rule of api/rcs/content.ts
 * priceClass read off the stored content. An SMS leg that stood in for an RCS message
 * (`fallback_of`) is an SMS (priced as SMS): counted apart as `fallback_sms`.
 * Lag-tolerant reads on the replica (ADR 030).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { replicaRow, replicaRows as rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { historyKeysetPage, historyPageSql } from "../messages/history-query";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { HISTORY_TIME_ZONE, saoPauloToday, smsHistorySchema } from "../sms/history";
import { accountCurrency, addDays, allow, daysOf, daysSchema, period, periodBind, periodOptions, type ReportScope, statPeriod } from "../sms/reports";
import { RCS_LIMITS, RCS_TYPES, type RcsType } from "./content";

export const RCS_CLASSES = ["basic", "rich"] as const;
export type RcsClass = (typeof RCS_CLASSES)[number];

/** The customer screens (the policy's paths). */
export const RCS_REPORT_SCREENS = { insights: "/rcs/insights", reports: "/rcs/reports", history: "/rcs/history" } as const;

/** The price class of a row `messages` (see the module's comment): SQL text. */
export const PRICE_CLASS_SQL = `CASE WHEN route IN ('basic','rich') THEN route
            WHEN type = 'text' AND coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(content->'suggestions') = 'array' THEN content->'suggestions' END), 0) = 0
                 AND char_length(coalesce(content->>'messageText', body)) < ${RCS_LIMITS.basicChars} THEN 'basic'
            ELSE 'rich' END`;

const optional = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => (v ?? "").trim());
/** RCS's own filters: one agent (its id here) and one content type. */
const rcsFilterSchema = z.object({
  agent: optional.superRefine((v, ctx) => {
    if (v && !UUID.test(v)) ctx.addIssue({ code: "custom", message: "validation.invalid" });
  }),
  type: optional.superRefine((v, ctx) => {
    if (v && !(RCS_TYPES as readonly string[]).includes(v)) ctx.addIssue({ code: "custom", message: "validation.option" });
  }),
});
export type RcsFilter = { agentId: string | null; sender: string | null; type: RcsType | null; none: boolean };

/**
 * The input's `agent` and `type` (validated). The agent is looked up in `accountId`'s agents
 * (null: any account's, platform staff) and stands for its Google id, the messages' sender;
 * an agent never launched has sent nothing (`none`); another account's agent is a field error.
 */
export async function rcsFilterOf(accountId: string | null, input: unknown): Promise<RcsFilter> {
  const raw = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const { agent, type } = validate(rcsFilterSchema, { agent: raw.agent, type: raw.type });
  if (!agent) return { agentId: null, sender: null, type: (type || null) as RcsType | null, none: false };
  const found = await replicaRow<{ rbm_agent_id: string | null }>(`SELECT rbm_agent_id FROM rcs_agents WHERE id = $1 AND ($2::uuid IS NULL OR account_id = $2)`, [
    agent,
    accountId,
  ]);
  if (!found) throw new AppError("VALIDATION", { fields: { agent: ["validation.option"] } });
  return { agentId: agent, sender: found.rbm_agent_id, type: (type || null) as RcsType | null, none: !found.rbm_agent_id };
}

export type CubeRow = { day: string; account_id: string; status: string; type: string; sender: string; class: RcsClass; currency: string; n: number; sent: number; cost: number };

/**
 * The period's outbound RCS messages of a scope grouped by São Paulo day, account, status, type,
 * sender (agent), price class and currency, with `filter`'s agent and type.
 */
export async function rcsCube(scope: ReportScope, from: string, to: string, filter?: RcsFilter): Promise<CubeRow[]> {
  if (filter?.none) return [];
  const bind = periodBind(scope, from, to);
  const extra: string[] = [];
  if (filter?.sender) extra.push(`sender = $${bind.push(filter.sender)}`);
  if (filter?.type) extra.push(`type = $${bind.push(filter.type)}`);
  const found = await rows<Record<string, string>>(
    `SELECT to_char((created_at AT TIME ZONE '${HISTORY_TIME_ZONE}')::date, 'YYYY-MM-DD') AS day, account_id, status, type, sender,
            ${PRICE_CLASS_SQL} AS class, trim(currency) AS currency,
            count(*) AS n, count(*) FILTER (WHERE sent_at IS NOT NULL) AS sent, coalesce(sum(price), 0) AS cost
       FROM messages
      WHERE ${period("rcs", periodOptions(scope))} AND direction = 'outbound'${extra.map((e) => ` AND ${e}`).join("")}
      GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    bind,
  );
  return found.map((r) => ({ ...(r as unknown as CubeRow), n: Number(r.n), sent: Number(r.sent), cost: Number(r.cost) }));
}

/** The period's inbound RCS messages (the contacts' own; to `filter`'s agent) and the SMS legs that stood in for RCS messages (count and cost per currency). */
export async function rcsSideCounts(scope: ReportScope, from: string, to: string, filter?: RcsFilter) {
  if (filter?.none) return { received: 0, fallback: [] as Array<{ currency: string; messages: number; cost: number }> };
  const o = periodOptions(scope);
  const inBind = periodBind(scope, from, to);
  // An inbound message's recipient is the agent; a contact's message has no content type to filter by.
  const toAgent = filter?.sender ? ` AND recipient = $${inBind.push(filter.sender)}` : "";
  const legBind = periodBind(scope, from, to);
  const of: string[] = [];
  if (filter?.sender) of.push(`r.sender = $${legBind.push(filter.sender)}`);
  if (filter?.type) of.push(`r.type = $${legBind.push(filter.type)}`);
  const [inbound, legs] = await Promise.all([
    filter?.type ? Promise.resolve([{ n: "0" }]) : rows<{ n: string }>(`SELECT count(*) AS n FROM messages WHERE ${period("rcs", o)} AND direction = 'inbound'${toAgent}`, inBind),
    rows<{ currency: string; n: string; cost: string }>(
      // The RCS message a leg stands for is of the same account and at most a day older (its failure came first): its partition is found by created_at.
      `SELECT trim(currency) AS currency, count(*) AS n, coalesce(sum(price), 0) AS cost FROM messages l
        WHERE ${period("sms", o)} AND fallback_of IS NOT NULL
          ${of.length ? `AND EXISTS (SELECT 1 FROM messages r WHERE r.id = l.fallback_of AND r.account_id = l.account_id AND r.channel = 'rcs' AND r.created_at <= l.created_at AND r.created_at > l.created_at - interval '1 day' AND ${of.join(" AND ")})` : ""}
        GROUP BY 1`,
      legBind,
    ),
  ]);
  return {
    received: Number(inbound[0]?.n ?? 0),
    fallback: legs.map((r) => ({ currency: r.currency, messages: Number(r.n), cost: Number(r.cost) })),
  };
}

export type Figures = {
  /** Outbound RCS messages created in the period, whatever their status. */
  messages: number;
  /** Handed to Google (sent_at set). */
  sent: number;
  /** Delivered or read. */
  delivered: number;
  read: number;
  failed: number;
  /** Not yet handed to Google: pending, scheduled, queued, sending. */
  waiting: number;
  /** delivered / sent, read / delivered, failed / messages: 0..1 with 4 decimals, 0 when the divisor is 0. */
  delivery_rate: number;
  read_rate: number;
  failure_rate: number;
  /** Messages per status. */
  statuses: Record<string, number>;
  basic: number;
  rich: number;
};

const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 10_000) / 10_000 : 0);
const WAITING = ["pending", "scheduled", "queued", "sending"];

/** Counts and rates of some cube rows. */
export function figuresOf(list: CubeRow[]): Figures {
  const statuses: Record<string, number> = {};
  let messages = 0;
  let sent = 0;
  let basic = 0;
  for (const r of list) {
    statuses[r.status] = (statuses[r.status] ?? 0) + r.n;
    messages += r.n;
    sent += r.sent;
    if (r.class === "basic") basic += r.n;
  }
  const s = (k: string) => statuses[k] ?? 0;
  const delivered = s("delivered") + s("read");
  return {
    messages,
    sent,
    delivered,
    read: s("read"),
    failed: s("failed"),
    waiting: WAITING.reduce((n, k) => n + s(k), 0),
    delivery_rate: ratio(delivered, sent),
    read_rate: ratio(s("read"), delivered),
    failure_rate: ratio(s("failed"), messages),
    statuses,
    basic,
    rich: messages - basic,
  };
}

const costSum = (list: CubeRow[]) => list.reduce((n, r) => n + r.cost, 0);
/** Cube rows grouped by a key, in the order of `keys` (each key present, empty when none). */
export function groupBy<K extends string>(list: CubeRow[], keyOf: (r: CubeRow) => K, keys?: readonly K[]): Map<K, CubeRow[]> {
  const by = new Map<K, CubeRow[]>((keys ?? []).map((k) => [k, []]));
  for (const r of list) by.set(keyOf(r), [...(by.get(keyOf(r)) ?? []), r]);
  return by;
}

export type AgentRef = { id: string | null; name: string; rbm_agent_id: string };
/** The agents named by Google ids (any account's: ids are unique): their id and name; an id no agent holds any more keeps itself as its name. */
export async function agentsOf(senders: string[]): Promise<Map<string, AgentRef>> {
  const found = senders.length
    ? await rows<{ id: string; name: string; rbm_agent_id: string }>(`SELECT id, name, rbm_agent_id FROM rcs_agents WHERE rbm_agent_id = ANY($1::text[])`, [senders])
    : [];
  const by = new Map(senders.map((s) => [s, { id: null, name: s, rbm_agent_id: s } as AgentRef]));
  for (const a of found) by.set(a.rbm_agent_id, a);
  return by;
}

export type DayRow = { day: string; cost: number } & Figures;
export type TypeRow = { type: RcsType; messages: number; delivered: number; read: number; failed: number; cost: number };
export type AgentRow = { agent: AgentRef; messages: number; delivered: number; read: number; failed: number; cost: number };
export type ClassRow = { class: RcsClass; messages: number; cost: number };

/** A period's figures of one currency's cube rows: totals, per day (every day of the period), per type, per agent, per price class. */
export async function breakdown(list: CubeRow[], from: string, to: string) {
  const short = (of: CubeRow[]) => {
    const f = figuresOf(of);
    return { messages: f.messages, delivered: f.delivered, read: f.read, failed: f.failed, cost: costSum(of) };
  };
  const bySender = groupBy(list, (r) => r.sender);
  const agents = await agentsOf([...bySender.keys()]);
  return {
    totals: { ...figuresOf(list), cost: costSum(list) },
    data: [...groupBy(list, (r) => r.day, daysOf(from, to)).entries()].map(([day, of]): DayRow => ({ day, ...figuresOf(of), cost: costSum(of) })),
    types: [...groupBy(list, (r) => r.type as RcsType, RCS_TYPES).entries()].map(([type, of]): TypeRow => ({ type, ...short(of) })),
    agents: [...bySender.entries()]
      .map(([sender, of]): AgentRow => ({ agent: agents.get(sender) as AgentRef, ...short(of) }))
      .sort((a, b) => b.messages - a.messages || a.agent.name.localeCompare(b.agent.name)),
    classes: [...groupBy(list, (r) => r.class, RCS_CLASSES).entries()].map(([c, of]): ClassRow => ({ class: c, messages: figuresOf(of).messages, cost: costSum(of) })),
  };
}

export type RcsInsights = Figures & {
  from: string;
  to: string;
  currency: string;
  cost: number;
  /** Inbound RCS messages (the contacts' own). */
  received: number;
  /** SMS legs sent for RCS messages a handset could not take (priced as SMS). */
  fallback_sms: number;
  fallback_cost: number;
  data: DayRow[];
  types: TypeRow[];
  agents: AgentRow[];
  classes: ClassRow[];
  filters: { agent: string | null; type: RcsType | null };
};

/**
 * The insights' and the report's period: `days` (7 or 30, ending today) when given, else
 * {from, to} (default the last 7 São Paulo days, at most 31).
 */
export function rcsPeriod(input: unknown): { from: string; to: string } {
  const raw = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  if (raw.days !== undefined && raw.days !== "" && raw.days !== null) {
    const { days } = validate(daysSchema, { days: raw.days });
    const to = saoPauloToday();
    return { from: addDays(to, -(days - 1)), to };
  }
  return statPeriod({ from: raw.from, to: raw.to });
}

/** A scope's RCS insights of a period (the account's currency: one account's messages share it). */
export async function insightsOf(scope: ReportScope & { accountId: string }, input: unknown): Promise<RcsInsights> {
  const { from, to } = rcsPeriod(input);
  const filter = await rcsFilterOf(scope.accountId, input);
  const [cube, side, currency] = await Promise.all([rcsCube(scope, from, to, filter), rcsSideCounts(scope, from, to, filter), accountCurrency(scope.accountId)]);
  const b = await breakdown(cube, from, to);
  return {
    from,
    to,
    currency,
    ...b.totals,
    received: side.received,
    fallback_sms: side.fallback.reduce((n, r) => n + r.messages, 0),
    fallback_cost: side.fallback.reduce((n, r) => n + r.cost, 0),
    data: b.data,
    types: b.types,
    agents: b.agents,
    classes: b.classes,
    filters: { agent: filter.agentId, type: filter.type },
  };
}

/**
 * POST /api/rcs/messages/insights and /rcs/insights: a period's (`days` 7 or 30, or {from, to}:
 * default the last 7 São Paulo days, at most 31) outbound RCS messages of the account — totals by
 * status, delivery and read rates, cost, per day, per type, per agent, basic and rich — its inbound
 * messages and its fallback SMS legs; `agent` and `type` narrow it.
 */
export async function rcsInsights(ctx: SignedInCtx, input: unknown = {}): Promise<RcsInsights> {
  allow(ctx, RCS_REPORT_SCREENS.insights);
  return insightsOf({ accountId: ctx.actor.accountId }, input);
}

/** /rcs/reports: the insights' figures of a period with filters (the report screen's summary and its per-day, per-type, per-agent tables). */
export async function rcsReport(ctx: SignedInCtx, input: unknown = {}): Promise<RcsInsights> {
  allow(ctx, RCS_REPORT_SCREENS.reports);
  return insightsOf({ accountId: ctx.actor.accountId }, input);
}

export type RcsChartDay = { day: string; total: number; cost: number; statuses: Record<string, number> };

/** GET /api/rcs/messages/charts?days=: per São Paulo day of the last 7 or 30 days (today included), outbound RCS messages per status and cost. */
export async function rcsCharts(ctx: SignedInCtx, query: unknown = {}) {
  allow(ctx, RCS_REPORT_SCREENS.insights);
  const { days } = validate(daysSchema, query ?? {});
  const to = saoPauloToday();
  const from = addDays(to, -(days - 1));
  const [cube, currency] = await Promise.all([rcsCube({ accountId: ctx.actor.accountId }, from, to), accountCurrency(ctx.actor.accountId)]);
  const b = await breakdown(cube, from, to);
  const chart = (d: Figures & { cost: number }) => ({ total: d.messages, cost: d.cost, statuses: d.statuses });
  return { days, from, to, currency, data: b.data.map((d): RcsChartDay => ({ day: d.day, ...chart(d) })), totals: chart(b.totals) };
}

export type RcsHistoryItem = {
  id: string;
  direction: "outbound" | "inbound";
  type: string;
  /** The agent's Google id (outbound) or the contact (inbound). */
  from: string;
  to: string;
  body: string;
  content: Record<string, unknown> | null;
  status: string;
  price: number;
  currency: string;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  failed_at: Date | null;
};
export type RcsHistoryRow = RcsHistoryItem & { account_id: string; account_name: string };

const cursorSchema = z.object({ cursor: z.string().max(1000, "validation.invalid").optional() });

/**
 * One keyset page of RCS messages (both directions) of a range of São Paulo days (at most 31,
 * default today), newest first (`order=asc` oldest first), filtered as the SMS history (id,
 * status, from, to) and by `agent` and `type`; `accountId` null: every account's (platform staff
 * only, after their check, `named`: each row's account name). The cursor must come back with the same filters.
 */
export async function rcsMessagePage(accountId: string | null, input: unknown = {}, named = false): Promise<{ data: RcsHistoryRow[]; next_cursor: string | null }> {
  const { cursor, page: _numbered, agent, type, account_id: _a, ...filters } = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const q = validate(smsHistorySchema, filters);
  const filter = await rcsFilterOf(accountId, { agent, type });
  const after = timeIdCursor(validate(cursorSchema, { cursor: cursor === "" || cursor === null ? undefined : cursor }).cursor);
  if (filter.none) return { data: [], next_cursor: null };
  const lte = q.created_at.lte || saoPauloToday();
  const gte = q.created_at.gte || lte;
  const { sql, bind } = historyPageSql(
    { accountId, channel: "rcs", gte, lte, id: q.id, status: q.status, from: filter.sender ?? q.from, to: q.to, type: filter.type },
    `id, direction, type, sender, recipient, body, content, status, price, currency, error_code, error_message,
            created_at, sent_at, delivered_at, read_at, failed_at, ${POSITION_SQL("created_at")} AS position, account_id,
            ${named ? "(SELECT a.name FROM accounts a WHERE a.id = messages.account_id)" : "NULL"} AS account_name`,
    { after, desc: q.order !== "asc", limit: q.limit },
  );
  const found = await rows<
    Omit<RcsHistoryRow, "from" | "to" | "price" | "account_name"> & { sender: string; recipient: string; price: string; position: string; account_name: string | null }
  >(sql, bind);
  return historyKeysetPage(found, q.limit);
}

/** POST /api/rcs/messages/list: the account's RCS messages, filtered, one keyset page (rcsMessagePage). */
export async function listRcsMessages(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: RcsHistoryItem[]; next_cursor: string | null }> {
  allow(ctx, RCS_REPORT_SCREENS.history);
  const page = await rcsMessagePage(ctx.actor.accountId, input);
  return { ...page, data: page.data.map(({ account_id: _a, account_name: _n, ...m }) => m) };
}

/** The account's agents (id, name, Google id), by name: what the screens' agent filter offers. */
export async function rcsAgentOptions(ctx: SignedInCtx): Promise<Array<{ id: string; name: string }>> {
  allow(ctx, RCS_REPORT_SCREENS.insights);
  return rows<{ id: string; name: string }>(`SELECT id, name FROM rcs_agents WHERE account_id = $1 ORDER BY lower(name), id`, [ctx.actor.accountId]);
}
