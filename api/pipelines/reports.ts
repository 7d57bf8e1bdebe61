/**
 * Workflow board reports (issue 22; /pipelines/reports): in the account's currency, integer minor
 * units, days in America/Sao_Paulo.
 * - value per column and per owner: the live (not archived) deals' count, value and products total;
 * - won/lost by period: deals whose outcome was set in [from, to], grouped by day, week or month;
 * - average time in column: over the stays that ended in [from, to] (pipeline_deal_moves), with
 *   how many deals are in the column now.
 * Filters: a board (else every board of the account), an owner.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { rows, row } from "../lib/sql";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { reportSchema } from "./schemas";

export type ColumnValue = {
  board_id: string;
  board_name: string;
  column_id: string;
  column_name: string;
  position: number;
  deals: number;
  value_cents: number;
  products_cents: number;
};
export type OwnerValue = { owner_id: string | null; owner_name: string | null; deals: number; value_cents: number; products_cents: number };
export type OutcomePeriod = { period: string; sold: number; sold_cents: number; lost: number; lost_cents: number };
export type ColumnTime = { board_id: string; column_id: string; column_name: string; position: number; stays: number; average_seconds: number | null; current: number };
export type BoardReports = {
  currency: string;
  filters: { board_id: string | null; owner_id: string | null; from: string; to: string; group: "day" | "week" | "month" };
  by_column: ColumnValue[];
  by_owner: OwnerValue[];
  outcomes: OutcomePeriod[];
  totals: { sold: number; sold_cents: number; lost: number; lost_cents: number };
  time_in_column: ColumnTime[];
};

const TZ = "America/Sao_Paulo";
const day = (offsetDays: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(Date.now() + offsetDays * 86_400_000));

export async function boardReports(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: BoardReports }> {
  if (!can(ctx.actor, "/pipelines/reports")) throw new AppError("FORBIDDEN");
  const f = validate(reportSchema, input ?? {});
  const a = ctx.actor.accountId;
  const from = f.from ?? day(-29);
  const to = f.to ?? day(0);
  if (from > to) throw new AppError("VALIDATION", { fields: { to: ["validation.dateOrder"] } });
  if (f.board_id && !(await row(`SELECT 1 AS one FROM pipeline_boards WHERE id = $1 AND account_id = $2`, [f.board_id, a]))) throw new AppError("NOT_FOUND");
  const board = f.board_id;
  const owner = f.owner_id;
  const lines = `(SELECT deal_id, sum(unit_price_cents * quantity - discount_cents) AS cents FROM pipeline_deal_products WHERE account_id = $1 GROUP BY deal_id)`;
  const [acc, byColumn, byOwner, outcomes, times] = await Promise.all([
    row<{ currency: string }>(`SELECT currency FROM accounts WHERE id = $1`, [a]),
    rows<ColumnValue>(
      `SELECT b.id AS board_id, b.name AS board_name, c.id AS column_id, c.name AS column_name, c.position,
              count(d.id)::int AS deals, coalesce(sum(d.value_cents), 0)::bigint AS value_cents, coalesce(sum(p.cents), 0)::bigint AS products_cents
         FROM pipeline_columns c JOIN pipeline_boards b ON b.id = c.board_id
         LEFT JOIN pipeline_deals d ON d.column_id = c.id AND d.account_id = $1 AND d.archived_at IS NULL AND ($3::uuid IS NULL OR d.owner_id = $3)
         LEFT JOIN ${lines} p ON p.deal_id = d.id
        WHERE c.account_id = $1 AND ($2::uuid IS NULL OR c.board_id = $2)
        GROUP BY b.id, b.name, b.created_at, c.id, c.name, c.position ORDER BY b.created_at, b.id, c.position, c.id`,
      [a, board, owner],
    ),
    rows<OwnerValue>(
      `SELECT d.owner_id, NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS owner_name,
              count(*)::int AS deals, coalesce(sum(d.value_cents), 0)::bigint AS value_cents, coalesce(sum(p.cents), 0)::bigint AS products_cents
         FROM pipeline_deals d LEFT JOIN users u ON u.id = d.owner_id LEFT JOIN ${lines} p ON p.deal_id = d.id
        WHERE d.account_id = $1 AND d.archived_at IS NULL AND ($2::uuid IS NULL OR d.board_id = $2) AND ($3::uuid IS NULL OR d.owner_id = $3)
        GROUP BY d.owner_id, u.first_name, u.last_name ORDER BY value_cents DESC, owner_name NULLS LAST`,
      [a, board, owner],
    ),
    rows<OutcomePeriod>(
      `SELECT to_char(date_trunc($6::text, d.outcome_at AT TIME ZONE '${TZ}'), 'YYYY-MM-DD') AS period,
              count(*) FILTER (WHERE d.outcome = 'sold')::int AS sold, coalesce(sum(d.value_cents) FILTER (WHERE d.outcome = 'sold'), 0)::bigint AS sold_cents,
              count(*) FILTER (WHERE d.outcome = 'lost')::int AS lost, coalesce(sum(d.value_cents) FILTER (WHERE d.outcome = 'lost'), 0)::bigint AS lost_cents
         FROM pipeline_deals d
        WHERE d.account_id = $1 AND d.outcome IS NOT NULL AND ($2::uuid IS NULL OR d.board_id = $2) AND ($3::uuid IS NULL OR d.owner_id = $3)
          AND d.outcome_at >= ($4::date::timestamp AT TIME ZONE '${TZ}') AND d.outcome_at < (($5::date + 1)::timestamp AT TIME ZONE '${TZ}')
        GROUP BY 1 ORDER BY 1`,
      [a, board, owner, from, to, f.group],
    ),
    rows<ColumnTime>(
      `SELECT c.board_id, c.id AS column_id, c.name AS column_name, c.position,
              count(m.id)::int AS stays, (avg(extract(epoch FROM m.left_at - m.entered_at)))::float8 AS average_seconds,
              (SELECT count(*) FROM pipeline_deals x WHERE x.account_id = $1 AND x.column_id = c.id AND x.archived_at IS NULL AND ($3::uuid IS NULL OR x.owner_id = $3))::int AS current
         FROM pipeline_columns c JOIN pipeline_boards b ON b.id = c.board_id
         LEFT JOIN pipeline_deal_moves m ON m.to_column_id = c.id AND m.account_id = $1 AND m.left_at IS NOT NULL
              AND m.left_at >= ($4::date::timestamp AT TIME ZONE '${TZ}') AND m.left_at < (($5::date + 1)::timestamp AT TIME ZONE '${TZ}')
              AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM pipeline_deals o WHERE o.id = m.deal_id AND o.owner_id = $3))
        WHERE c.account_id = $1 AND ($2::uuid IS NULL OR c.board_id = $2)
        GROUP BY c.board_id, b.created_at, c.id, c.name, c.position ORDER BY b.created_at, c.board_id, c.position, c.id`,
      [a, board, owner, from, to],
    ),
  ]);
  const totals = outcomes.reduce((s, o) => ({ sold: s.sold + o.sold, sold_cents: s.sold_cents + o.sold_cents, lost: s.lost + o.lost, lost_cents: s.lost_cents + o.lost_cents }), {
    sold: 0,
    sold_cents: 0,
    lost: 0,
    lost_cents: 0,
  });
  return {
    data: {
      currency: acc?.currency ?? "BRL",
      filters: { board_id: board, owner_id: owner, from, to, group: f.group },
      by_column: byColumn,
      by_owner: byOwner,
      outcomes,
      totals,
      time_in_column: times,
    },
  };
}
