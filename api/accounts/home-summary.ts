import { Op } from "sequelize";
import { AuditLog, Membership } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { replicaRows, rows } from "../lib/sql";
import { unreadCount } from "../notifications/services";
import { seesAll } from "../policy/policy";
import { HOME_STATUS_GROUPS, type HomePeriod } from "./home-constants";
import { accountInfo } from "./services";

const SINCE: Record<HomePeriod, string> = {
  today: `date_trunc('day', now() AT TIME ZONE 'America/Sao_Paulo') AT TIME ZONE 'America/Sao_Paulo'`,
  "7d": `now() - interval '7 days'`,
  "30d": `now() - interval '30 days'`,
};

/**
 * The account's messages since the start of `period`, by channel and status group: delivered
 * (delivered, read, received), sent (sent), pending (pending, queued, sending, scheduled), failed
 * (failed, rejected, unavailable, optout). Read from the replica (a few seconds behind at most).
 */
async function messageFigures(accountId: string, period: HomePeriod) {
  const found = await replicaRows<{ channel: string; status_group: (typeof HOME_STATUS_GROUPS)[number]; n: number }>(
    `SELECT channel,
            CASE WHEN status IN ('delivered', 'read', 'received') THEN 'delivered' WHEN status = 'sent' THEN 'sent'
                 WHEN status IN ('failed', 'rejected', 'unavailable', 'optout') THEN 'failed' ELSE 'pending' END AS status_group,
            count(*)::int AS n
       FROM messages WHERE account_id = $1 AND created_at >= ${SINCE[period]}
      GROUP BY 1, 2`,
    [accountId],
  );
  const channels = [...new Set(found.map((r) => r.channel))].sort();
  return channels.map((channel) => {
    const counts = Object.fromEntries(HOME_STATUS_GROUPS.map((g) => [g, found.find((r) => r.channel === channel && r.status_group === g)?.n ?? 0])) as Record<
      (typeof HOME_STATUS_GROUPS)[number],
      number
    >;
    return { channel, ...counts, total: HOME_STATUS_GROUPS.reduce((s, g) => s + counts[g], 0) };
  });
}

/**
 * The home screen: balance, role, team size, unread notifications, the messages of `period` by
 * channel and status, open live rooms (queued or attended), recent activity (own, or all for
 * owner/admin) with who did it.
 */
export async function homeSummary(ctx: SignedInCtx, period: HomePeriod = "today") {
  const all = seesAll(ctx.actor, "activity");
  const [account, members, unread, recent, messages, rooms] = await Promise.all([
    accountInfo(ctx),
    Membership.count({ where: { accountId: ctx.actor.accountId } }),
    unreadCount(ctx),
    AuditLog.findAll({
      where: { accountId: ctx.actor.accountId, ...(all ? {} : { userId: ctx.actor.userId }), action: { [Op.ne]: "auth.login_failed" } },
      order: [["id", "DESC"]],
      limit: 8,
    }),
    messageFigures(ctx.actor.accountId, period),
    rows<{ n: number }>(`SELECT count(*)::int AS n FROM live_rooms WHERE account_id = $1 AND status IN ('QUEUE', 'OPEN', 'BOT')`, [ctx.actor.accountId]),
  ]);
  const ids = [...new Set(recent.map((r) => r.userId).filter((x): x is string => !!x))];
  const names = ids.length
    ? await rows<{ id: string; name: string }>(
        `SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS name FROM users u JOIN memberships m ON m.user_id = u.id AND m.account_id = $1 WHERE u.id = ANY($2::uuid[])`,
        [ctx.actor.accountId, ids],
      )
    : [];
  return {
    account: { name: account.name, balance: account.balance, limit: account.limit, currency: account.currency, role: account.role, plans: account.plans },
    members,
    unread,
    period,
    messages,
    openRooms: rooms[0]?.n ?? 0,
    recent: recent.map((r) => ({ id: r.id, action: r.action, at: r.createdAt, by: names.find((n) => n.id === r.userId)?.name ?? null })),
  };
}
