/**
 * Postpaid cycles and overdue invoices (issue 18, ADR 044): the worker's billing job.
 *
 * A postpaid account (billing_cycle weekly, biweekly or monthly) spends against its credit limit
 * (its balance goes negative at accept: api/accounts/balance.ts). Its open cycle starts at
 * `cycle_started_at`, a São Paulo midnight; it ends 7 days, 14 days or one calendar month later
 * in São Paulo wall time (date-fns-tz), so the end is a São Paulo midnight whatever the offset.
 *
 * `closeCycles(now)` closes every cycle whose end is <= now, oldest first, each in a transaction of
 * its own that locks the account row (FOR NO KEY UPDATE SKIP LOCKED: another process closing at the
 * same time skips it; sends, whose foreign keys take KEY SHARE, are not blocked):
 *  - the period's usage is the customer book's legs of kinds message, refund, plan_fee and agent
 *    with created_at in [start, end), negated (a debit is a negative leg): one line per kind;
 *  - positive usage becomes ONE `cycle` invoice for [start, end) — unique per (account, period
 *    start), so a second close of the same period can never write another — charged as a Pix charge
 *    at the payment provider (as a top-up is), due INVOICE_DUE_DAYS after the end; none is written
 *    for a period without usage;
 *  - cycle_started_at moves to the end (a cycle many periods behind is closed period by period).
 *
 * `markOverdue(now)` fails every pending invoice whose due date plus OVERDUE_GRACE_DAYS is <= now;
 * a failed cycle invoice suspends its account (billing_suspended_at set: paying reactivates it,
 * api/billing/payments.ts), in the same transaction; its people's open connections are then closed.
 * An unpaid top-up only fails (its charge expired): nothing was owed.
 *
 * `now` is a parameter so tests choose the instant; the worker passes the wall clock minus
 * CLOSE_SETTLE_MS, so a send whose transaction began before midnight (its ledger leg's created_at)
 * but committed just after is still in the period that closes.
 */
import { randomBytes } from "node:crypto";
import { addDays, addMonths } from "date-fns";
import { formatInTimeZone, fromZonedTime } from "date-fns-tz";
import { revokeAccountConnections } from "../auth/revocation";
import { rows } from "../lib/sql";
import { sequelize } from "../../models";
import { defaultPaymentProvider } from "./payment-provider";

export const TZ = "America/Sao_Paulo";
/** A cycle invoice is due this many days after its period ends. */
export const INVOICE_DUE_DAYS = 10;
/** An invoice still unpaid this many days after its due date fails (and a cycle invoice suspends its account). */
export const OVERDUE_GRACE_DAYS = 5;
/** The worker closes with the clock this far back (see above). */
export const CLOSE_SETTLE_MS = 60_000;

export type BillingCycle = "weekly" | "biweekly" | "monthly";
/** The kinds of usage a cycle invoices, in the order of its lines. */
export const USAGE_KINDS = ["message", "refund", "plan_fee", "agent"] as const;

/** The end of a cycle that starts at `start` (a São Paulo midnight): the São Paulo midnight 7 days, 14 days or one calendar month later. */
export function cycleEnd(start: Date, cycle: BillingCycle): Date {
  // The start's São Paulo calendar day, moved on the calendar (a Date at UTC midnight is only a calendar day here).
  const day = new Date(`${formatInTimeZone(start, TZ, "yyyy-MM-dd")}T00:00:00Z`);
  const next = cycle === "monthly" ? addMonths(day, 1) : addDays(day, cycle === "weekly" ? 7 : 14);
  return startOfDay(next.toISOString().slice(0, 10));
}

/** The first instant of a São Paulo calendar day (yyyy-MM-dd). */
function startOfDay(date: string): Date {
  const midnight = fromZonedTime(`${date}T00:00:00`, TZ);
  if (formatInTimeZone(midnight, TZ, "yyyy-MM-dd") === date) return midnight;
  // A day whose clocks went forward at midnight (Brazil's daylight saving, until 2019) began at 01:00.
  return fromZonedTime(`${date}T01:00:00`, TZ);
}

/** The São Paulo midnight that starts the day `at` falls in (São Paulo time). */
export function saoPauloMidnight(at: Date): Date {
  return startOfDay(formatInTimeZone(at, TZ, "yyyy-MM-dd"));
}

const newTxid = () => `MSG${randomBytes(11).toString("hex").toUpperCase()}`;
const day = (d: Date) => formatInTimeZone(d, TZ, "dd/MM/yyyy");

export type ClosedPeriod = { account_id: string; period_start: string; period_end: string; invoice_id: string | null; amount: number };

/**
 * Closes one due period of one account, if it still is due and nobody else holds it: answers what
 * it did, or null (not due, not postpaid, or locked by another closer).
 */
async function closeOne(accountId: string, now: Date): Promise<ClosedPeriod | null> {
  const provider = defaultPaymentProvider();
  return sequelize().transaction(async (transaction) => {
    const [account] = await rows<{ id: string; name: string; billing_cycle: BillingCycle | "prepaid"; cycle_started_at: Date | null; currency: string }>(
      `SELECT id, name, billing_cycle, cycle_started_at, btrim(currency) AS currency FROM accounts
        WHERE id = $1 AND billing_cycle <> 'prepaid' AND cycle_started_at IS NOT NULL FOR NO KEY UPDATE SKIP LOCKED`,
      [accountId],
      { transaction },
    );
    if (!account?.cycle_started_at || account.billing_cycle === "prepaid") return null;
    const start = new Date(account.cycle_started_at);
    const end = cycleEnd(start, account.billing_cycle);
    if (end.getTime() > now.getTime()) return null;
    const usage = await rows<{ kind: string; quantity: number; amount: string }>(
      `SELECT kind, count(*)::int AS quantity, (-sum(amount))::bigint AS amount FROM ledger_entries
        WHERE account_id = $1 AND book = 'customer' AND kind = ANY($2::text[]) AND created_at >= $3 AND created_at < $4
        GROUP BY kind`,
      [accountId, USAGE_KINDS, start, end],
      { transaction },
    );
    const lines = USAGE_KINDS.map((kind) => usage.find((u) => u.kind === kind))
      .filter((u): u is NonNullable<typeof u> => Boolean(u) && Number(u!.amount) !== 0)
      .map((u) => ({ description: `billing.lines.${u.kind}`, quantity: u.quantity, amount: Number(u.amount) }));
    const total = lines.reduce((s, l) => s + l.amount, 0);
    let invoiceId: string | null = null;
    // A period that already has its invoice (closed before, cycle_started_at then moved back by hand) is not charged twice.
    const [existing] = await rows<{ id: string }>(`SELECT id FROM invoices WHERE account_id = $1 AND kind = 'cycle' AND period_start = $2`, [accountId, start], { transaction });
    if (existing) invoiceId = existing.id;
    else if (total > 0) {
      const txid = newTxid();
      const dueAt = addDays(end, INVOICE_DUE_DAYS);
      const charge = await provider.createCharge({
        txid,
        amount: total,
        currency: account.currency,
        description: `Fatura ${day(start)}-${day(addDays(end, -1))} ${account.name}`.slice(0, 60),
        dueAt,
      });
      const [created] = await rows<{ id: string }>(
        `INSERT INTO invoices (account_id, kind, amount, currency, due_at, provider, provider_charge_id, txid, pix_payload, pay_url, period_start, period_end, created_at)
         VALUES ($1, 'cycle', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [accountId, total, account.currency, dueAt, provider.name, charge.chargeId, txid, charge.pixPayload, charge.payUrl, start, end, now],
        { transaction },
      );
      invoiceId = created.id;
      await rows(
        `INSERT INTO invoice_lines (invoice_id, account_id, position, description, quantity, amount)
         SELECT $1, $2, l.ordinality, l.description, l.quantity, l.amount
           FROM unnest($3::text[], $4::int[], $5::bigint[]) WITH ORDINALITY AS l(description, quantity, amount, ordinality)`,
        [invoiceId, accountId, lines.map((l) => l.description), lines.map((l) => l.quantity), lines.map((l) => l.amount)],
        { transaction },
      );
    }
    await rows(`UPDATE accounts SET cycle_started_at = $2, updated_at = now() WHERE id = $1`, [accountId, end], { transaction });
    return { account_id: accountId, period_start: start.toISOString(), period_end: end.toISOString(), invoice_id: invoiceId, amount: existing ? 0 : Math.max(total, 0) };
  });
}

/** Closes every due cycle (see above); answers the periods it closed. A failure of one account (its provider down) is logged and the others go on. */
export async function closeCycles(now: Date, log: (msg: string, e: unknown) => void = console.error): Promise<ClosedPeriod[]> {
  // The shortest cycle is 7 days: an open cycle younger than 6 (a day of slack for any offset change) cannot be due.
  const due = await rows<{ id: string }>(
    `SELECT id FROM accounts WHERE billing_cycle <> 'prepaid' AND cycle_started_at <= $1::timestamptz - interval '6 days' ORDER BY cycle_started_at, id`,
    [now],
  );
  const closed: ClosedPeriod[] = [];
  for (const { id } of due) {
    // Period by period until the open cycle ends after now.
    for (let i = 0; i < 1000; i++) {
      let done: ClosedPeriod | null;
      try {
        done = await closeOne(id, now);
      } catch (e) {
        log(`billing cycle of account ${id} not closed`, e);
        break;
      }
      if (!done) break;
      closed.push(done);
    }
  }
  return closed;
}

export type Overdue = { invoice_id: string; account_id: string; kind: string; suspended: boolean };

/** Fails the invoices unpaid OVERDUE_GRACE_DAYS after their due date and suspends the accounts of failed cycle invoices (see above). */
export async function markOverdue(now: Date): Promise<Overdue[]> {
  const failed = await sequelize().transaction(async (transaction) => {
    const invoices = await rows<{ id: string; account_id: string; kind: string }>(
      `UPDATE invoices i SET status = 'fail', failed_at = $1, updated_at = now()
        WHERE i.id IN (SELECT id FROM invoices WHERE status = 'pending' AND due_at + make_interval(days => $2) <= $1 ORDER BY due_at FOR UPDATE SKIP LOCKED)
          AND i.status = 'pending'
        RETURNING i.id, i.account_id, i.kind`,
      [now, OVERDUE_GRACE_DAYS],
      { transaction },
    );
    const owing = [...new Set(invoices.filter((i) => i.kind === "cycle").map((i) => i.account_id))].sort();
    const suspended = owing.length
      ? await rows<{ id: string }>(
          `UPDATE accounts SET status = 'suspended', billing_suspended_at = $2, updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'active' RETURNING id`,
          [owing, now],
          { transaction },
        )
      : [];
    const ids = new Set(suspended.map((a) => a.id));
    return invoices.map((i) => ({ invoice_id: i.id, account_id: i.account_id, kind: i.kind, suspended: i.kind === "cycle" && ids.has(i.account_id) }));
  });
  // After the commit: every open connection of a suspended account's people closes.
  for (const accountId of new Set(failed.filter((f) => f.suspended).map((f) => f.account_id))) await revokeAccountConnections(accountId, "account_suspended_unpaid");
  return failed;
}

/** The worker's billing job: due cycles closed, then overdue invoices failed. */
export async function runBilling(now: Date) {
  const closed = await closeCycles(now);
  const overdue = await markOverdue(now);
  return { closed, overdue };
}
