import { Op } from "sequelize";
import { Account, AccountPlan, Membership, Plan, User, initModels, type PlanPermission } from "../../models";
import type { Actor } from "../lib/context";
import { AppError } from "../lib/errors";

/** Active plans of an account: the services they cover and the union of their permissions. */
export async function accountPlans(accountId: string) {
  initModels();
  const rows = await AccountPlan.findAll({
    where: { accountId, startsAt: { [Op.lte]: new Date() }, [Op.or]: [{ endsAt: null }, { endsAt: { [Op.gt]: new Date() } }] },
    include: [{ model: Plan, as: "plan" }],
  });
  const services = [...new Set(rows.map((r) => r.service))];
  const permissions: Partial<Record<PlanPermission, boolean>> = {};
  for (const r of rows) for (const [k, v] of Object.entries(r.plan?.permissions ?? {})) if (v) permissions[k as PlanPermission] = true;
  return { services, permissions, rows };
}

/**
 * Build the acting identity for a user in an account (the wanted one, else the user's current
 * one, else the first). Fails with ACCOUNT_INFO_FAILED when the user belongs to none of them,
 * or, with `strict`, when the user does not belong to the wanted account.
 */
export async function loadActor(userId: string, wantedAccountId?: string | null, opts: { strict?: boolean } = {}): Promise<Actor> {
  initModels();
  const user = await User.findByPk(userId);
  if (!user) throw new AppError("UNAUTHENTICATED");
  const memberships = await Membership.findAll({ where: { userId }, include: [{ model: Account, as: "account" }], order: [["createdAt", "ASC"]] });
  // An account asked for explicitly (the API's X-Account-Id header) is that one or nothing.
  if (opts.strict && wantedAccountId) {
    const wanted = memberships.find((x) => x.accountId === wantedAccountId && x.account);
    if (!wanted) throw new AppError("ACCOUNT_INFO_FAILED");
    if (wanted.account!.status !== "active") throw new AppError("CLIENT_INACTIVE");
  }
  const usable = memberships.filter((m) => m.account && m.account.status !== "inactive");
  const m =
    usable.find((x) => x.accountId === wantedAccountId) ??
    usable.find((x) => x.accountId === user.currentAccountId) ??
    usable[0];
  if (!m || !m.account) throw new AppError("ACCOUNT_INFO_FAILED");
  if (m.account.status === "suspended") throw new AppError("CLIENT_INACTIVE");
  const { services, permissions } = await accountPlans(m.accountId);
  return {
    userId,
    email: user.email,
    accountId: m.accountId,
    role: m.role,
    isAgent: m.isAgent,
    accountType: m.account.type,
    services,
    permissions,
  };
}
