/**
 * In-app notifications: stored in PostgreSQL (the list), announced on the account's Redis
 * stream so the realtime service pushes them live.
 */
import { Op } from "sequelize";
import { Notification, initModels } from "../../models";
import type { Ctx, SignedInCtx } from "../lib/context";
import { key, redis } from "../lib/redis";
import { validate } from "../lib/validate";
import { listQuerySchema } from "./schemas";

export const NOTIFICATIONS_PAGE = 20;
export const notificationStream = (accountId: string) => key("account", accountId, "notifications");

export async function notify(ctx: Ctx, input: { accountId: string; userId?: string | null; kind: string; params?: Record<string, string | number>; link?: string | null }) {
  initModels();
  const n = await Notification.create(
    { accountId: input.accountId, userId: input.userId ?? null, kind: input.kind, params: input.params ?? {}, link: input.link ?? null },
    { transaction: ctx.transaction },
  );
  const publish = () =>
    redis()
      .xadd(notificationStream(input.accountId), "MAXLEN", "~", "10000", "*", "event", "new-notification", "id", String(n.id), "user", input.userId ?? "*")
      .then(() => undefined);
  if (ctx.transaction) ctx.transaction.afterCommit(() => void publish().catch(() => undefined));
  else await publish();
  return n;
}

function visible(ctx: SignedInCtx) {
  return { accountId: ctx.actor.accountId, [Op.or]: [{ userId: ctx.actor.userId }, { userId: null }] };
}

/** Keyset pagination: `before` is the last id seen. */
export async function listNotifications(ctx: SignedInCtx, opts: { before?: unknown; unreadOnly?: boolean } = {}) {
  initModels();
  const { before } = validate(listQuerySchema, { before: opts.before });
  const rows = await Notification.findAll({
    where: { ...visible(ctx), ...(before ? { id: { [Op.lt]: before } } : {}), ...(opts.unreadOnly ? { readAt: null } : {}) },
    order: [["id", "DESC"]],
    limit: NOTIFICATIONS_PAGE + 1,
  });
  const unread = await Notification.count({ where: { ...visible(ctx), readAt: null } });
  return {
    data: rows.slice(0, NOTIFICATIONS_PAGE).map((n) => ({ id: n.id, kind: n.kind, params: n.params, link: n.link, readAt: n.readAt, createdAt: n.createdAt })),
    next: rows.length > NOTIFICATIONS_PAGE ? rows[NOTIFICATIONS_PAGE - 1].id : null,
    unread,
  };
}

export async function unreadCount(ctx: SignedInCtx) {
  initModels();
  return Notification.count({ where: { ...visible(ctx), readAt: null } });
}

export async function markRead(ctx: SignedInCtx, ids: number[] | "all") {
  initModels();
  const where = ids === "all" ? { ...visible(ctx), readAt: null } : { ...visible(ctx), id: ids, readAt: null };
  const [n] = await Notification.update({ readAt: new Date() }, { where });
  return n;
}
