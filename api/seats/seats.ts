/**
 * Agent seats (issue 18, spec section 6: "Every level can be a chat agent; adding an agent is
 * charged"; ADR 047). A chat agent (a membership with is_agent) costs the account's price per
 * agent seat a month: its own `omni_prices` row (route 'agent') in its currency, else
 * AGENT_MONTHLY_PRICE. Months are São Paulo calendar months.
 *
 * Adding an agent (invited as agent, or the flag turned on) pays the rest of the current month,
 * pro rata by the second and rounded to the centavo (the plans' `prorate`), as an `agent` posting
 * of the ledger, in the transaction that makes the membership an agent: when the balance and
 * credit limit do not cover it the change is refused (402, field isAgent) and nothing changes. A
 * seat already paid for this month (charged_until after now: the flag turned off and on again)
 * costs nothing more; removing an agent returns nothing. `renewAgentSeats` (the worker) pays each
 * agent's next month at its start, once per seat and month; a seat whose month the balance cannot
 * pay stops being an agent (the person stays, the flag is off; turning it on pays again).
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models/db";
import { debitBalance } from "../accounts/balance";
import { revokeMembershipConnections } from "../auth/revocation";
import { AppError } from "../lib/errors";
import { row, rows } from "../lib/sql";
import { prorate } from "../plans/change";

/** The default price of one agent seat a month, in minor units of the account's currency: R$ 49,90. */
export const AGENT_MONTHLY_PRICE = 4990;

/** SQL: the São Paulo midnight that starts the month of `at` (a timestamptz expression). */
export const monthStartSql = (at: string) => `date_trunc('month', (${at}) AT TIME ZONE 'America/Sao_Paulo') AT TIME ZONE 'America/Sao_Paulo'`;
/** SQL: the São Paulo midnight that starts the month after the one of `at`. */
export const nextMonthStartSql = (at: string) => `(date_trunc('month', (${at}) AT TIME ZONE 'America/Sao_Paulo') + interval '1 month') AT TIME ZONE 'America/Sao_Paulo'`;

/** The São Paulo month that holds `now`: [start, end). */
export async function monthOf(now: Date, transaction?: Transaction): Promise<{ start: Date; end: Date }> {
  const r = await row<{ start: Date; end: Date }>(`SELECT ${monthStartSql("$1::timestamptz")} AS start, ${nextMonthStartSql("$1::timestamptz")} AS end`, [now], {
    transaction,
  });
  return { start: r!.start, end: r!.end };
}

/** The account's price of one agent seat a month and its currency: its own row in its currency, else the default. */
export async function agentPrice(accountId: string, transaction?: Transaction): Promise<{ price: number; currency: string; own: boolean }> {
  const r = await row<{ currency: string; price: string | null }>(
    `SELECT trim(a.currency) AS currency, p.price FROM accounts a LEFT JOIN omni_prices p ON p.account_id = a.id AND p.route = 'agent' AND trim(p.currency) = trim(a.currency)
      WHERE a.id = $1`,
    [accountId],
    { transaction },
  );
  if (!r) throw new AppError("NOT_FOUND");
  return r.price === null ? { price: AGENT_MONTHLY_PRICE, currency: r.currency, own: false } : { price: Number(r.price), currency: r.currency, own: true };
}

/**
 * The membership `membershipId` of `accountId` becomes an agent at `now`: pays the rest of the
 * month unless its seat is paid already, and marks it paid until the next month start. Its row is
 * locked until the transaction ends. INSUFFICIENT_BALANCE when not covered, on `refusal.field`
 * (isAgent; the invitation's form as a whole, "", whose invitee cannot top the account up).
 * Answers what was debited.
 */
export async function startAgentSeat(
  accountId: string,
  membershipId: string,
  by: string | null,
  now: Date,
  transaction: Transaction,
  refusal: { field: string; key: string } = { field: "isAgent", key: "seats.errors.balance" },
): Promise<number> {
  const m = await row<{ charged_until: Date | null }>(`SELECT charged_until FROM memberships WHERE id = $1 AND account_id = $2 FOR UPDATE`, [membershipId, accountId], {
    transaction,
  });
  if (!m) throw new AppError("NOT_FOUND");
  let amount = 0;
  if (!m.charged_until || m.charged_until <= now) {
    const [{ price }, month] = await Promise.all([agentPrice(accountId, transaction), monthOf(now, transaction)]);
    amount = prorate(price, month.start, month.end, now);
    const paid = await debitBalance(accountId, amount, transaction, { kind: "agent", reference: `agent:${membershipId}`, reason: "agent seat, pro rata", by });
    if (!paid) throw new AppError("INSUFFICIENT_BALANCE", { fields: { [refusal.field]: [refusal.key] } });
    await rows(`UPDATE memberships SET charged_until = $2 WHERE id = $1 RETURNING id`, [membershipId, month.end], { transaction });
  }
  await rows(`UPDATE memberships SET agent_since = $2 WHERE id = $1 RETURNING id`, [membershipId, now], { transaction });
  return amount;
}

/**
 * The founding owner of a new account (registration, a new account of a person): an agent whose
 * seat is paid until the next São Paulo month start (the rest of the first month is not charged;
 * from then on it renews like any seat).
 */
export async function foundingAgentSeat(membershipId: string, now: Date, transaction: Transaction): Promise<void> {
  await rows(`UPDATE memberships SET charged_until = ${nextMonthStartSql("$2::timestamptz")}, agent_since = $2 WHERE id = $1 AND is_agent RETURNING id`, [membershipId, now], {
    transaction,
  });
}

/**
 * Pays the month that holds `now` for every agent seat paid only until then (the worker runs it;
 * tests pass their own `now`): the account's price, whole, as an `agent` posting, and the seat is
 * paid until the next month start. A seat the balance and credit limit no longer cover stops
 * being an agent. Rows are locked and skipped by a concurrent run (SKIP LOCKED): once per seat and month.
 * `only` limits the run to one account (tests, whose clock must not renew other accounts' seats).
 */
export async function renewAgentSeats(now = new Date(), only?: { accountId: string }): Promise<{ renewed: number; lapsed: number }> {
  let renewed = 0;
  let lapsed = 0;
  const revoke: Array<{ user_id: string; account_id: string }> = [];
  for (;;) {
    const done = await sequelize().transaction(async (transaction) => {
      const due = await rows<{ id: string; account_id: string; user_id: string }>(
        `SELECT id, account_id, user_id FROM memberships WHERE is_agent AND charged_until <= $1 AND ($2::uuid IS NULL OR account_id = $2)
          ORDER BY charged_until, id LIMIT 100 FOR UPDATE SKIP LOCKED`,
        [now, only?.accountId ?? null],
        { transaction },
      );
      if (!due.length) return 0;
      const month = await monthOf(now, transaction);
      const prices = new Map<string, number>();
      for (const d of due) {
        if (!prices.has(d.account_id)) prices.set(d.account_id, (await agentPrice(d.account_id, transaction)).price);
        const paid = await debitBalance(d.account_id, prices.get(d.account_id)!, transaction, { kind: "agent", reference: `agent:${d.id}`, reason: "agent seat, month" });
        if (paid) {
          await rows(`UPDATE memberships SET charged_until = $2 WHERE id = $1 RETURNING id`, [d.id, month.end], { transaction });
          renewed++;
        } else {
          await rows(`UPDATE memberships SET is_agent = false, agent_since = NULL, updated_at = now() WHERE id = $1 RETURNING id`, [d.id], { transaction });
          revoke.push(d);
          lapsed++;
        }
      }
      return due.length;
    });
    if (done < 100) break;
  }
  // Their open realtime connections chose their streams as agents: they reconnect as what they are now.
  for (const r of revoke) await revokeMembershipConnections(r.user_id, r.account_id, "role_changed");
  return { renewed, lapsed };
}
