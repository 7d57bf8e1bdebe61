/**
 * What agents and numbers cost (issue 18, ADR 047), read-only: GET /api/live/billing and the
 * /live/billing screen (the account's chat agents, the price per seat, the month's total, what the
 * ledger charged for agents this São Paulo month and the next renewal), GET /api/numbers/active
 * and the /numbers/active screen (the account's short codes and WhatsApp numbers with their status
 * and monthly price, and the total). Scoped by the actor's account; each checks its screen's rule.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { row, rows } from "../lib/sql";
import { can } from "../policy/policy";
import { agentPrice, monthStartSql, nextMonthStartSql } from "./seats";

export async function liveBilling(ctx: SignedInCtx, now = new Date()) {
  if (!can(ctx.actor, "/live/billing")) throw new AppError("FORBIDDEN");
  const accountId = ctx.actor.accountId;
  const [price, agents, month] = await Promise.all([
    agentPrice(accountId),
    rows<{ membership_id: string; user_id: string; name: string; email: string; role: string; agent_since: Date | null; charged_until: Date | null }>(
      `SELECT m.id AS membership_id, u.id AS user_id, trim(u.first_name || ' ' || u.last_name) AS name, u.email, m.role, m.agent_since, m.charged_until
         FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = $1 AND m.is_agent ORDER BY lower(trim(u.first_name || ' ' || u.last_name)), m.id`,
      [accountId],
    ),
    row<{ start: Date; end: Date; charged: string }>(
      `SELECT ${monthStartSql("$2::timestamptz")} AS start, ${nextMonthStartSql("$2::timestamptz")} AS end,
              coalesce((SELECT -sum(amount) FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND kind = 'agent'
                          AND created_at >= ${monthStartSql("$2::timestamptz")} AND created_at < ${nextMonthStartSql("$2::timestamptz")}), 0)::bigint AS charged`,
      [accountId, now],
    ),
  ]);
  return {
    currency: price.currency,
    price_per_agent: price.price,
    own_price: price.own,
    agents: agents.map((a) => ({ ...a })),
    monthly_total: price.price * agents.length,
    month_start: month!.start,
    charged_this_month: Number(month!.charged),
    next_renewal: month!.end,
  };
}
export type LiveBilling = Awaited<ReturnType<typeof liveBilling>>;

export async function activeNumbers(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/numbers/active")) throw new AppError("FORBIDDEN");
  const accountId = ctx.actor.accountId;
  const [account, shortCodes, whatsapp] = await Promise.all([
    row<{ currency: string }>(`SELECT trim(currency) AS currency FROM accounts WHERE id = $1`, [accountId]),
    rows<{ id: string; number: string; nickname: string; status: string; monthly_price: string; since: Date }>(
      `SELECT id, number, nickname, status, monthly_price, created_at AS since FROM short_codes WHERE account_id = $1 ORDER BY number`,
      [accountId],
    ),
    rows<{ id: string; number: string; name: string; status: string; monthly_price: string; since: Date }>(
      `SELECT id, display_phone_number AS number, verified_name AS name, quality_rating AS status, monthly_price, created_at AS since
         FROM whatsapp_numbers WHERE account_id = $1 ORDER BY display_phone_number, id`,
      [accountId],
    ),
  ]);
  if (!account) throw new AppError("NOT_FOUND");
  const short_codes = shortCodes.map((s) => ({ ...s, monthly_price: Number(s.monthly_price) }));
  const whatsapp_numbers = whatsapp.map((w) => ({ ...w, monthly_price: Number(w.monthly_price) }));
  // An inactive short code is not charged.
  const monthly_total = short_codes.filter((s) => s.status === "active").reduce((n, s) => n + s.monthly_price, 0) + whatsapp_numbers.reduce((n, w) => n + w.monthly_price, 0);
  return { currency: account.currency, short_codes, whatsapp_numbers, monthly_total };
}
export type ActiveNumbers = Awaited<ReturnType<typeof activeNumbers>>;
