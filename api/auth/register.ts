import { Account, AccountPlan, Membership, Plan, User, initModels, sequelize, type Locale } from "../../models";
import { recordAudit } from "../audit/record";
import { notify } from "../notifications/services";
import type { Ctx } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { hashPassword } from "./passwords";
import { registerSchema } from "./schemas";
import { issueUserToken } from "./user-tokens";
import { enqueueMail } from "../mail/enqueue";

export const TRIAL_DAYS = 30;

/**
 * Register a person and their company: user + account (owner) in one transaction, then the
 * verification e-mail. `trial` also attaches the 30-day experience plan.
 */
export async function register(ctx: Ctx, input: unknown, opts: { trial?: boolean; whitelabelId?: string | null } = {}) {
  initModels();
  const data = validate(registerSchema, input);
  return sequelize().transaction(async (transaction) => {
    if (await User.findOne({ where: { email: data.email }, transaction })) {
      throw new AppError("EMAIL_TAKEN", { fields: { email: ["errors.EMAIL_TAKEN"] } });
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
    const account = await Account.create(
      { name: data.companyName, authToken: randomToken(24), whitelabelId: opts.whitelabelId ?? null },
      { transaction },
    );
    await Membership.create({ accountId: account.id, userId: user.id, role: "owner", isAgent: true }, { transaction });
    await user.update({ currentAccountId: account.id }, { transaction });
    if (opts.trial) {
      const plan = await Plan.findOne({ where: { isTrial: true, active: true }, transaction });
      if (plan) {
        await AccountPlan.create(
          { accountId: account.id, planId: plan.id, service: plan.service, endsAt: new Date(Date.now() + TRIAL_DAYS * 86_400_000) },
          { transaction },
        );
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
