/**
 * The /rcs overview's figures (issue 21): this month's (São Paulo's calendar month) outbound RCS
 * messages of the account by status, with their cost in the account's currency (the price debited
 * at accept, integer minor units), and the agents with their status. Reads tolerate lag (replica).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { replicaRows } from "../lib/sql";
import { can } from "../policy/policy";
import { listAgents } from "./agents";

export type StatusFigure = { status: string; count: number; cost: number };
export type MonthFigures = { month: string; currency: string; statuses: StatusFigure[]; total: { count: number; cost: number } };

/** This month's outbound RCS messages of the account, by status (most first); the cost summed in the account's currency. */
export async function rcsMonthFigures(ctx: SignedInCtx, now = new Date()): Promise<MonthFigures> {
  if (!can(ctx.actor, "/rcs")) throw new AppError("FORBIDDEN");
  const found = await replicaRows<{ status: string; count: string; cost: string; currency: string }>(
    `WITH m AS (SELECT date_trunc('month', $2::timestamptz AT TIME ZONE 'America/Sao_Paulo') AT TIME ZONE 'America/Sao_Paulo' AS start)
     SELECT status, count(*)::text AS count, COALESCE(sum(price), 0)::text AS cost, min(currency) AS currency
       FROM messages, m
      WHERE account_id = $1 AND channel = 'rcs' AND direction = 'outbound' AND created_at >= m.start AND created_at <= $2::timestamptz
      GROUP BY status ORDER BY count(*) DESC, status`,
    [ctx.actor.accountId, now.toISOString()],
  );
  const statuses = found.map((r) => ({ status: r.status, count: Number(r.count), cost: Number(r.cost) }));
  const currency = found[0]?.currency ?? (await replicaRows<{ currency: string }>(`SELECT currency FROM accounts WHERE id = $1`, [ctx.actor.accountId]))[0]?.currency ?? "BRL";
  const month = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit" }).format(now).slice(0, 7);
  return {
    month,
    currency,
    statuses,
    total: { count: statuses.reduce((s, x) => s + x.count, 0), cost: statuses.reduce((s, x) => s + x.cost, 0) },
  };
}

/** The overview: the agents (when the actor sees them) and this month's figures. */
export async function rcsOverview(ctx: SignedInCtx) {
  const [figures, agents] = await Promise.all([rcsMonthFigures(ctx), can(ctx.actor, "/rcs/agents") ? listAgents(ctx).then((p) => p.data) : Promise.resolve(null)]);
  return { figures, agents };
}
