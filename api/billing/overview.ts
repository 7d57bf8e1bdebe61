/**
 * The account's billing at a glance (GET /api/billing, the /billing screen; issue 18): balance,
 * credit limit and what may still be spent, the plans held now (with the period paid and when it
 * renews or ends; a trial's end), the products hired for it (credits left, renewal; ADR 048), the
 * next invoice to pay and the money of the last 30 days by kind (from the ledger, ADR 042).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { row, rows } from "../lib/sql";
import { can } from "../policy/policy";
import { heldProducts, seesProducts } from "../products/products";

export async function billingOverview(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/billing")) throw new AppError("FORBIDDEN");
  const accountId = ctx.actor.accountId;
  const [account, plans, next, recent, trialEnded, products] = await Promise.all([
    row<{ currency: string; balance: number; credit_limit: number; status: string }>(
      `SELECT a.currency, b.balance, a.credit_limit, a.status FROM accounts a JOIN account_balances b ON b.account_id = a.id WHERE a.id = $1`,
      [accountId],
    ),
    rows<{
      plan_id: string;
      service: string;
      name: string;
      price: number;
      currency: string;
      billing_cycle: string;
      is_trial: boolean;
      period_start: Date | null;
      period_end: Date | null;
      ends_at: Date | null;
    }>(
      `SELECT ap.plan_id, ap.service, p.name, p.price, p.currency, p.billing_cycle, p.is_trial, ap.period_start, ap.period_end, ap.ends_at
         FROM account_plans ap JOIN plans p ON p.id = ap.plan_id
        WHERE ap.account_id = $1 AND ap.starts_at <= now() AND (ap.ends_at IS NULL OR ap.ends_at > now())
        ORDER BY ap.service`,
      [accountId],
    ),
    row<{ id: string; kind: string; status: string; amount: number; currency: string; due_at: Date }>(
      `SELECT id, kind, status, amount, currency, due_at FROM invoices WHERE account_id = $1 AND status IN ('pending', 'fail') ORDER BY (status = 'fail') DESC, due_at LIMIT 1`,
      [accountId],
    ),
    rows<{ kind: string; amount: number }>(
      `SELECT kind, sum(amount)::bigint AS amount FROM ledger_entries
        WHERE account_id = $1 AND book = 'customer' AND kind <> 'opening' AND created_at >= now() - interval '30 days'
        GROUP BY kind ORDER BY kind`,
      [accountId],
    ),
    // A trial that ended with no plan of its service since: the account is asked to choose one (nothing was deleted).
    row<{ ended_at: Date; service: string }>(
      `SELECT ap.ends_at AS ended_at, ap.service FROM account_plans ap JOIN plans p ON p.id = ap.plan_id
        WHERE ap.account_id = $1 AND p.is_trial AND ap.ends_at <= now() ORDER BY ap.ends_at DESC LIMIT 1`,
      [accountId],
    ),
    // The products hired for the account (ADR 048), for those who may see them.
    seesProducts(ctx.actor) ? heldProducts(accountId) : Promise.resolve([]),
  ]);
  if (!account) throw new AppError("NOT_FOUND");
  return {
    currency: account.currency,
    balance: Number(account.balance),
    credit_limit: Number(account.credit_limit),
    available: Number(account.balance) + Number(account.credit_limit),
    status: account.status as "active" | "inactive" | "suspended",
    plans: plans.map((p) => ({ ...p, price: Number(p.price), renews_at: p.period_end, ends_at: p.ends_at })),
    next_invoice: next ? { ...next, amount: Number(next.amount) } : null,
    last_30_days: recent.map((r) => ({ kind: r.kind, amount: Number(r.amount) })),
    trial_ended: trialEnded,
    products,
  };
}
