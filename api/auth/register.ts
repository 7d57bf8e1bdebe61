import { randomUUID } from "node:crypto";
import { UniqueConstraintError } from "sequelize";
import { Account, AccountPlan, Membership, Plan, User, sequelize, type Locale } from "../../models";
import { recordAudit } from "../audit/record";
import { notify } from "../notifications/services";
import type { Ctx } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { validate } from "../lib/validate";
import { hashPassword } from "./passwords";
import { mayNoticeExisting, registerAttempt } from "./rate-limit";
import { registerSchema } from "./schemas";
import { issueUserToken } from "./user-tokens";
import { enqueueMail } from "../mail/enqueue";
import type { z } from "../lib/zod";
import { foundingAgentSeat } from "../seats/seats";
import { creditTrial } from "../onboarding/services";

type RegisterData = z.infer<typeof registerSchema>;

export const TRIAL_DAYS = 30;

/** What a sign-up answers: the same shape whether or not the address was free. */
export type Registered = { user: { id: string; email: string }; account: { id: string; name: string } };

/**
 * Register a person and their company: user + account (owner) in one transaction, then the
 * verification e-mail. `trial` also attaches the 30-day experience plan. Limited per IP.
 *
 * An address that already has a user gets the same answer (random ids that name nothing) and the
 * same work (a password hash, one e-mail), so a sign-up never tells whether someone is a customer;
 * the e-mail goes to the owner of the address, who can sign in or reset the password.
 */
export async function register(ctx: Ctx, input: unknown, opts: { trial?: boolean; whitelabelId?: string | null } = {}): Promise<Registered> {
  const data = validate(registerSchema, input);
  await registerAttempt(ctx.ip);
  try {
    return await createOrNotify(ctx, data, opts);
  } catch (e) {
    // Two sign-ups of one new address at once: the loser answers like any taken address.
    if (e instanceof UniqueConstraintError) return decoy(data);
    throw e;
  }
}

const decoy = (data: RegisterData): Registered => ({ user: { id: randomUUID(), email: data.email }, account: { id: randomUUID(), name: data.companyName } });

async function createOrNotify(ctx: Ctx, data: RegisterData, opts: { trial?: boolean; whitelabelId?: string | null }): Promise<Registered> {
  return sequelize().transaction(async (transaction) => {
    const existing = await User.findOne({ where: { email: data.email }, transaction });
    if (existing) {
      const tctx: Ctx = { ...ctx, transaction, actor: undefined };
      await hashPassword(data.password);
      if (await mayNoticeExisting(existing.email)) {
        await enqueueMail(tctx, existing.email, existing.locale, "registerExisting", { name: existing.firstName, path: "/login" });
      }
      await recordAudit(tctx, "auth.register_existing", { userId: existing.id, accountId: existing.currentAccountId });
      return decoy(data);
    }
    const user = await User.create(
      {
        email: data.email,
        firstName: data.firstName,
        lastName: data.lastName,
        mobile: data.mobile || null,
        passwordHash: await hashPassword(data.password),
        locale: data.locale as Locale,
      },
      { transaction },
    );
    const account = await Account.create({ name: data.companyName, authToken: randomToken(24), whitelabelId: opts.whitelabelId ?? null }, { transaction });
    const founder = await Membership.create({ accountId: account.id, userId: user.id, role: "owner", isAgent: true }, { transaction });
    // The founding owner attends: its agent seat is paid until the next month start (ADR 047).
    await foundingAgentSeat(founder.id, new Date(), transaction);
    await user.update({ currentAccountId: account.id }, { transaction });
    if (opts.trial) {
      const plan = await Plan.findOne({ where: { isTrial: true, active: true }, transaction });
      if (plan) {
        await AccountPlan.create({ accountId: account.id, planId: plan.id, service: plan.service, endsAt: new Date(Date.now() + TRIAL_DAYS * 86_400_000) }, { transaction });
        // The trial's credit for the first test messages, through the ledger, once per account (api/onboarding/services.ts).
        await creditTrial(account.id, transaction, user.id);
      }
    }
    const tctx: Ctx = { ...ctx, transaction, actor: undefined };
    const token = await issueUserToken(tctx, user.id, "email_verify");
    await enqueueMail(tctx, user.email, user.locale, "verifyEmail", { name: user.firstName, path: `/email-verify/${token}` });
    await recordAudit(tctx, opts.trial ? "auth.register_trial" : "auth.register", { userId: user.id, accountId: account.id });
    await notify(tctx, { accountId: account.id, userId: user.id, kind: "welcome" });
    return { user, account };
  });
}
