import { Op } from "sequelize";
import { AuditLog, Membership } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { unreadCount } from "../notifications/services";
import { seesAll } from "../policy/policy";
import { accountInfo } from "./services";

/** The home screen: balance, role, team size, unread notifications, recent activity (own, or all for owner/admin). */
export async function homeSummary(ctx: SignedInCtx) {
  const all = seesAll(ctx.actor, "activity");
  const [account, members, unread, recent] = await Promise.all([
    accountInfo(ctx),
    Membership.count({ where: { accountId: ctx.actor.accountId } }),
    unreadCount(ctx),
    AuditLog.findAll({
      where: { accountId: ctx.actor.accountId, ...(all ? {} : { userId: ctx.actor.userId }), action: { [Op.ne]: "auth.login_failed" } },
      order: [["id", "DESC"]],
      limit: 8,
    }),
  ]);
  return {
    account: { name: account.name, balance: account.balance, limit: account.limit, currency: account.currency, role: account.role, plans: account.plans },
    members,
    unread,
    recent: recent.map((r) => ({ id: r.id, action: r.action, at: r.createdAt })),
  };
}
