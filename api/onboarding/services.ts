/**
 * The onboarding checklist of a new account (issue 19, ADR 050): six steps, each computed from the
 * account's real data (never from flags the checklist sets), each linking to the screen that does
 * it. The list can be dismissed per account and is hidden once every step is done. Starting the
 * trial attaches the trial plan and credits TRIAL_CREDIT through the ledger, once per account.
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models/db";
import { adjustBalance } from "../accounts/balance";
import { recordAudit } from "../audit/record";
import { TRIAL_DAYS } from "../auth/register";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { exec, row } from "../lib/sql";
import { assertCanWrite } from "../policy/policy";

/** What the trial credits (minor units): 25 SMS segments at the default R$ 0,08, enough for the test messages. */
export const TRIAL_CREDIT = 200;
/** The ledger reference of the trial credit (a unique index keeps it once per account, migration 0067). */
export const TRIAL_CREDIT_REFERENCE = "trial_credit";

export const ONBOARDING_STEPS = ["email", "plan", "balance", "testSms", "channel", "widget"] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** The screen that does each step. */
export const STEP_HREF: Record<OnboardingStep, string> = {
  email: "/email-verify",
  plan: "/billing/upgrade",
  balance: "/new-invoice",
  testSms: "/sms/send",
  channel: "/channels",
  widget: "/widget/config",
};

type Flags = Record<OnboardingStep, boolean> & { dismissed: boolean; mobile: string | null };

/**
 * The steps as one query, all scoped by the account (and the signed-in person for the e-mail):
 * e-mail verified on the user; a plan or trial row; a positive balance or a paid top-up; an
 * outbound SMS of the account to the person's own mobile (any outbound SMS when the person has no
 * mobile) that did not fail; a connected WhatsApp number or live channel (Telegram, Messenger,
 * Instagram, Google); a webchat room (the widget was loaded on a page and a visitor wrote).
 */
async function flags(ctx: SignedInCtx): Promise<Flags> {
  const r = await row<Flags>(
    `WITH u AS (SELECT email_verified_at, NULLIF(regexp_replace(coalesce(mobile, ''), '\\D', '', 'g'), '') AS mobile FROM users WHERE id = $2)
     SELECT (SELECT email_verified_at IS NOT NULL FROM u) AS email,
            EXISTS (SELECT 1 FROM account_plans WHERE account_id = $1) AS plan,
            (EXISTS (SELECT 1 FROM account_balances WHERE account_id = $1 AND balance > 0)
              OR EXISTS (SELECT 1 FROM invoices WHERE account_id = $1 AND kind = 'topup' AND status = 'paid')) AS balance,
            EXISTS (SELECT 1 FROM messages m WHERE m.account_id = $1 AND m.channel = 'sms' AND m.direction = 'outbound'
                       AND m.status NOT IN ('failed', 'rejected', 'optout', 'unavailable')
                       AND ((SELECT mobile FROM u) IS NULL
                         OR regexp_replace(m.recipient, '\\D', '', 'g') IN ((SELECT mobile FROM u), '55' || (SELECT mobile FROM u)))) AS "testSms",
            (EXISTS (SELECT 1 FROM whatsapp_numbers WHERE account_id = $1)
              OR EXISTS (SELECT 1 FROM live_channel_connections WHERE account_id = $1)) AS channel,
            EXISTS (SELECT 1 FROM live_rooms WHERE account_id = $1 AND channel = 'webchat') AS widget,
            (SELECT onboarding_dismissed_at IS NOT NULL FROM accounts WHERE id = $1) AS dismissed,
            (SELECT mobile FROM u) AS mobile`,
    [ctx.actor.accountId, ctx.actor.userId],
  );
  if (!r) throw new AppError("NOT_FOUND");
  return r;
}

/** The checklist: each step done or not and where to do it; `visible` unless dismissed or all done. */
export async function onboarding(ctx: SignedInCtx) {
  const f = await flags(ctx);
  const steps = ONBOARDING_STEPS.map((key) => ({ key, done: f[key] === true, href: key === "testSms" && f.mobile ? `/sms/send?to=${f.mobile}` : STEP_HREF[key] }));
  const done = steps.filter((s) => s.done).length;
  return { steps, done, total: steps.length, dismissed: f.dismissed, visible: !f.dismissed && done < steps.length, mobile: f.mobile };
}

/** Hides the checklist for everyone of the account (the people who manage the account). */
export async function dismissOnboarding(ctx: SignedInCtx) {
  assertCanWrite(ctx.actor, "account");
  await exec(`UPDATE accounts SET onboarding_dismissed_at = coalesce(onboarding_dismissed_at, now()) WHERE id = $1`, [ctx.actor.accountId]);
  return onboarding(ctx);
}

/**
 * The trial credit of `accountId`, once: the balance row is locked first (concurrent starts wait
 * for each other), a credit already posted is not posted again; the unique index of migration
 * 0067 is the last guard. Answers whether it credited now.
 */
export async function creditTrial(accountId: string, transaction: Transaction, by: string | null = null): Promise<boolean> {
  await row(`SELECT account_id FROM account_balances WHERE account_id = $1 FOR UPDATE`, [accountId], { transaction });
  const given = await row(`SELECT 1 AS x FROM ledger_entries WHERE account_id = $1 AND reference = $2 AND book = 'customer' LIMIT 1`, [accountId, TRIAL_CREDIT_REFERENCE], {
    transaction,
  });
  if (given) return false;
  await adjustBalance(accountId, TRIAL_CREDIT, transaction, { kind: "adjustment", reference: TRIAL_CREDIT_REFERENCE, reason: "trial credit", by });
  return true;
}

/**
 * Starts the trial of an account that never had a plan: the trial plan for TRIAL_DAYS and the trial
 * credit. An account that already has (or had) a plan gets no second trial (VALIDATION on plan); a
 * retry of a trial already started answers the same and credits nothing more.
 */
export async function startTrial(ctx: SignedInCtx, now = new Date()) {
  assertCanWrite(ctx.actor, "plans");
  const accountId = ctx.actor.accountId;
  const credited = await sequelize().transaction(async (transaction) => {
    // One start at a time per account: the account's row is the lock.
    await row(`SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [accountId], { transaction });
    const plan = await row<{ id: string; service: string }>(`SELECT id, service FROM plans WHERE is_trial AND active ORDER BY created_at LIMIT 1`, [], { transaction });
    if (!plan) throw new AppError("NOT_FOUND");
    const held = await row<{ plan_id: string }>(`SELECT plan_id FROM account_plans WHERE account_id = $1 ORDER BY created_at LIMIT 1`, [accountId], { transaction });
    if (held && held.plan_id !== plan.id) throw new AppError("VALIDATION", { fields: { plan: ["plans.errors.trialUsed"] } });
    if (!held) {
      await exec(
        `INSERT INTO account_plans (account_id, plan_id, service, starts_at, ends_at) VALUES ($1, $2, $3, $4, $4::timestamptz + $5 * interval '1 day')`,
        [accountId, plan.id, plan.service, now, TRIAL_DAYS],
        { transaction },
      );
    }
    const c = await creditTrial(accountId, transaction, ctx.actor.userId);
    if (!held) await recordAudit({ ...ctx, transaction }, "billing.trial_started", { meta: { plan: plan.id, credit: c ? TRIAL_CREDIT : 0 } });
    return c;
  });
  return { ...(await onboarding(ctx)), credited: credited ? TRIAL_CREDIT : 0 };
}
