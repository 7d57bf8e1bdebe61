/**
 * Changing an account's plan, and renewing the plans that renew (issue 18, ADR 045).
 *
 * A plan that renews (weekly, biweekly or monthly, with a price, not a trial) is paid at the start
 * of each period, [period_start, period_end) between São Paulo midnights, by a `plan_fee` posting
 * of the ledger. Changing plan inside a period pays the price difference for the part of the
 * period left (pro rata by the second, rounded to the centavo): an upgrade is debited (402 when
 * the balance and credit limit do not cover it), a downgrade returns the difference; the period
 * stays. From a plan that does not renew (a trial, a free or prepaid plan) the new plan's first
 * period starts now and is paid whole. A prepaid plan with a price is paid once, whole.
 * Everything happens in one transaction with the account's plan row locked: two changes at once
 * are one after the other, and the second to the same plan is PLAN_UNCHANGED.
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models/db";
import { debitBalance } from "../accounts/balance";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { row, rows } from "../lib/sql";
import { assertCanWrite, can } from "../policy/policy";
import { seesPlans } from "./services";

export type PlanRow = {
  id: string;
  name: string;
  service: string;
  price: number;
  currency: string;
  billing_cycle: "prepaid" | "weekly" | "biweekly" | "monthly";
  is_trial: boolean;
  active: boolean;
};

type HeldRow = { id: string; plan_id: string; period_start: Date | null; period_end: Date | null; price: number; renews: boolean; ends_at: Date | null };

/** Whether a plan is paid per period (and so has one). */
export const renews = (p: Pick<PlanRow, "billing_cycle" | "price" | "is_trial">) => p.billing_cycle !== "prepaid" && p.price > 0 && !p.is_trial;

/** SQL: the end of a period of `cycle` that starts at `start` (a timestamptz expression), in São Paulo wall time. */
export const periodEndSql = (start: string, cycle: string) =>
  `((${start}) AT TIME ZONE 'America/Sao_Paulo' + CASE ${cycle} WHEN 'weekly' THEN interval '7 days' WHEN 'biweekly' THEN interval '14 days' ELSE interval '1 month' END) AT TIME ZONE 'America/Sao_Paulo'`;
/** SQL: the São Paulo midnight that starts the day of `at`. */
export const dayStartSql = (at: string) => `date_trunc('day', (${at}) AT TIME ZONE 'America/Sao_Paulo') AT TIME ZONE 'America/Sao_Paulo'`;

/** What changing to `plan` costs now: positive is paid, negative is returned. */
export type Quote = { amount: number; currency: string; period_start: Date | null; period_end: Date | null; prorated: boolean };

async function planOf(id: string, transaction?: Transaction): Promise<PlanRow> {
  const p = await row<PlanRow>(`SELECT id, name, service, price, currency, billing_cycle, is_trial, active FROM plans WHERE id = $1 AND active`, [id], { transaction });
  if (!p) throw new AppError("NOT_FOUND");
  return p;
}

async function heldOf(accountId: string, service: string, transaction?: Transaction, lock = false): Promise<HeldRow | null> {
  return row<HeldRow>(
    `SELECT ap.id, ap.plan_id, ap.period_start, ap.period_end, p.price, ap.ends_at,
            (p.billing_cycle <> 'prepaid' AND p.price > 0 AND NOT p.is_trial) AS renews
       FROM account_plans ap JOIN plans p ON p.id = ap.plan_id
      WHERE ap.account_id = $1 AND ap.service = $2 ${lock ? "FOR UPDATE OF ap" : ""}`,
    [accountId, service],
    { transaction },
  );
}

/** Pro rata of `price` for the part of [start, end) left at `now`, to the centavo. */
export function prorate(price: number, start: Date, end: Date, now: Date): number {
  const whole = end.getTime() - start.getTime();
  const left = Math.min(Math.max(end.getTime() - now.getTime(), 0), whole);
  return Math.round((price * left) / whole);
}

function quoteFor(plan: PlanRow, held: HeldRow | null, now: Date, periodEnd: Date | null, dayStart: Date): Quote {
  const activeHeld = held && (held.ends_at === null || held.ends_at > now) ? held : null;
  if (activeHeld?.renews && activeHeld.period_start && activeHeld.period_end && activeHeld.period_end > now && renews(plan)) {
    const amount = prorate(plan.price, activeHeld.period_start, activeHeld.period_end, now) - prorate(activeHeld.price, activeHeld.period_start, activeHeld.period_end, now);
    return { amount, currency: plan.currency, period_start: activeHeld.period_start, period_end: activeHeld.period_end, prorated: true };
  }
  // A new period (or a one-off price) from now; what the old plan had paid is not returned when the new one does not renew.
  if (!renews(plan)) return { amount: plan.price, currency: plan.currency, period_start: null, period_end: null, prorated: false };
  return { amount: plan.price, currency: plan.currency, period_start: dayStart, period_end: periodEnd, prorated: false };
}

/** The first period of `plan` if it started at `now`: from today's São Paulo midnight to the cycle's end (the part of today before now is a gift). */
async function newPeriod(plan: PlanRow, now: Date, transaction?: Transaction): Promise<{ start: Date; end: Date | null }> {
  const r = await row<{ start: Date; end: Date }>(
    `SELECT ${dayStartSql("$1::timestamptz")} AS start, ${periodEndSql(dayStartSql("$1::timestamptz"), "$2::text")} AS end`,
    [now, plan.billing_cycle],
    {
      transaction,
    },
  );
  return { start: r!.start, end: renews(plan) ? r!.end : null };
}

/** What changing the actor's account to `planId` would cost now (for the plan's page). */
export async function quotePlanChange(ctx: SignedInCtx, planId: string, now = new Date()): Promise<Quote & { current: boolean }> {
  if (!seesPlans(ctx.actor)) throw new AppError("FORBIDDEN");
  const plan = await planOf(planId);
  const held = await heldOf(ctx.actor.accountId, plan.service);
  const period = await newPeriod(plan, now);
  const current = held?.plan_id === plan.id && (held.ends_at === null || held.ends_at > now);
  return { ...quoteFor(plan, held, now, period.end, period.start), current };
}

/**
 * Changes the actor's account to `planId` (its service's plan), paying or returning the difference
 * through the ledger. PLAN_UNCHANGED when it is already the account's plan; INSUFFICIENT_BALANCE
 * when the balance and credit limit do not cover what it costs now; VALIDATION on currency when the
 * plan is priced in another currency than the account's.
 */
export async function changePlan(ctx: SignedInCtx, planId: string, now = new Date()) {
  if (!can(ctx.actor, "/billing/upgrade")) throw new AppError("FORBIDDEN");
  assertCanWrite(ctx.actor, "plans");
  return switchPlan(ctx, ctx.actor.accountId, planId, { action: "billing.plan_changed", meta: {} }, now);
}

/**
 * The change itself, for the account's own change (above) and the staff's assignment of a plan to a
 * customer (./customer-plans.ts, ADR 064): the same rules, the same ledger posting (by the person
 * acting), the audit entry `audit.action` with `audit.meta` added. The caller checked who may.
 */
export async function switchPlan(ctx: SignedInCtx, accountId: string, planId: string, audit: { action: string; meta: Record<string, unknown> }, now = new Date()) {
  return sequelize().transaction(async (transaction) => {
    const plan = await planOf(planId, transaction);
    const [account] = await rows<{ currency: string }>(`SELECT currency FROM accounts WHERE id = $1`, [accountId], { transaction });
    if (plan.price > 0 && account.currency !== plan.currency) throw new AppError("VALIDATION", { fields: { plan: [`plans.errors.currency::${plan.currency}`] } });
    if (plan.is_trial) throw new AppError("VALIDATION", { fields: { plan: ["plans.errors.trial"] } });
    const held = await heldOf(accountId, plan.service, transaction, true);
    if (held?.plan_id === plan.id && (held.ends_at === null || held.ends_at > now)) throw new AppError("PLAN_UNCHANGED");
    const period = await newPeriod(plan, now, transaction);
    const quote = quoteFor(plan, held, now, period.end, period.start);
    const reference = `plan:${plan.id}`;
    if (
      quote.amount !== 0 &&
      !(await debitBalance(accountId, quote.amount, transaction, { kind: "plan_fee", reference, reason: quote.prorated ? "plan change, pro rata" : "plan", by: ctx.actor.userId }))
    ) {
      throw new AppError("INSUFFICIENT_BALANCE", { fields: { plan: ["plans.errors.balance"] } });
    }
    const periodStart = quote.prorated ? held!.period_start : quote.period_start;
    const periodEnd = quote.prorated ? held!.period_end : quote.period_end;
    if (held) {
      await rows(
        `UPDATE account_plans SET plan_id = $2, starts_at = $3, ends_at = NULL, period_start = $4, period_end = $5, updated_at = now() WHERE id = $1 RETURNING id`,
        [held.id, plan.id, now, periodStart, periodEnd],
        { transaction },
      );
    } else {
      await rows(
        `INSERT INTO account_plans (account_id, plan_id, service, starts_at, period_start, period_end) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [accountId, plan.id, plan.service, now, periodStart, periodEnd],
        { transaction },
      );
    }
    await recordAudit({ ...ctx, transaction }, audit.action, { meta: { ...audit.meta, from: held?.plan_id ?? null, to: plan.id, amount: quote.amount, currency: plan.currency } });
    return { plan_id: plan.id, service: plan.service, charged: quote.amount, currency: plan.currency, period_start: periodStart, period_end: periodEnd };
  });
}

/**
 * Renews every plan whose period ended by `now` (the worker runs it; tests pass their own `now`):
 * the next period's fee is debited and the period moves on. A plan whose fee the balance and credit
 * limit no longer cover ends at its period's end (its features close; nothing is deleted, and
 * choosing a plan again starts a new period). Each plan row is locked and skipped by a concurrent
 * run, so a period is paid once.
 */
export async function renewPlans(now = new Date()): Promise<{ renewed: number; lapsed: number }> {
  let renewed = 0;
  let lapsed = 0;
  for (;;) {
    const done = await sequelize().transaction(async (transaction) => {
      const due = await rows<{ id: string; account_id: string; plan_id: string; price: number; billing_cycle: string; period_end: Date }>(
        `SELECT ap.id, ap.account_id, ap.plan_id, p.price, p.billing_cycle, ap.period_end
           FROM account_plans ap JOIN plans p ON p.id = ap.plan_id
          WHERE ap.period_end <= $1 AND ap.ends_at IS NULL
          ORDER BY ap.period_end LIMIT 100 FOR UPDATE OF ap SKIP LOCKED`,
        [now],
        { transaction },
      );
      for (const d of due) {
        const paid = await debitBalance(d.account_id, d.price, transaction, { kind: "plan_fee", reference: `plan:${d.plan_id}`, reason: "plan renewal" });
        if (paid) {
          await rows(
            `UPDATE account_plans SET period_start = period_end, period_end = ${periodEndSql("period_end", "$2::text")}, updated_at = now() WHERE id = $1 RETURNING id`,
            [d.id, d.billing_cycle],
            {
              transaction,
            },
          );
          renewed++;
        } else {
          await rows(`UPDATE account_plans SET ends_at = period_end, period_start = NULL, period_end = NULL, updated_at = now() WHERE id = $1 RETURNING id`, [d.id], {
            transaction,
          });
          lapsed++;
        }
      }
      return due.length;
    });
    if (done < 100) return { renewed, lapsed };
  }
}
