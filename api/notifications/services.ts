/**
 * In-app notifications: stored in PostgreSQL (the list), announced on the account's Redis
 * stream so the realtime service pushes them live.
 */
import { Op } from "sequelize";
import { Notification } from "../../models";
import type { Ctx, SignedInCtx } from "../lib/context";
import { translate } from "../lib/i18n";
import { decodeCursor, keyset } from "../lib/page";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";
import { validate } from "../lib/validate";
import { listQuerySchema } from "./schemas";

export const NOTIFICATIONS_PAGE = 20;
export const notificationStream = (accountId: string) => keys.notificationStream(accountId);

export async function notify(ctx: Ctx, input: { accountId: string; userId?: string | null; kind: string; params?: Record<string, string | number>; link?: string | null }) {
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

/**
 * Newest first (id DESC), `limit` a page by keyset: after `cursor` (the `next_cursor` of the
 * previous page), or after `before` (the last id seen: the screen's, a deprecated alias in the API).
 */
export async function listNotifications(ctx: SignedInCtx, opts: { before?: unknown; cursor?: unknown; limit?: unknown; unreadOnly?: boolean } = {}) {
  const { before, cursor, limit } = validate(listQuerySchema, { before: opts.before, cursor: opts.cursor, limit: opts.limit ?? NOTIFICATIONS_PAGE });
  const after = decodeCursor(cursor, ["number"]);
  const below = after ? Number(after[0]) : before;
  const rows = await Notification.findAll({
    where: { ...visible(ctx), ...(below ? { id: { [Op.lt]: below } } : {}), ...(opts.unreadOnly ? { readAt: null } : {}) },
    order: [["id", "DESC"]],
    limit: limit + 1,
  });
  const unread = await Notification.count({ where: { ...visible(ctx), readAt: null } });
  const page = keyset(
    rows,
    limit,
    (n) => [n.id],
    (n) => ({ id: n.id, kind: n.kind, params: n.params, link: n.link, readAt: n.readAt, createdAt: n.createdAt }),
  );
  return { ...page, next: rows.length > limit ? rows[limit - 1].id : null, unread };
}

/** What a person reads for a notification, in `locale` (the screen's text for its kind). */
export function notificationMessage(locale: string, n: { kind: string; params: Record<string, string | number> }) {
  return translate(locale, `common:notifications.types.${n.kind}`, { ...n.params, defaultValue: translate(locale, "settings:notifications.generic") });
}

export async function unreadCount(ctx: SignedInCtx) {
  return Notification.count({ where: { ...visible(ctx), readAt: null } });
}

export async function markRead(ctx: SignedInCtx, ids: number[] | "all") {
  const where = ids === "all" ? { ...visible(ctx), readAt: null } : { ...visible(ctx), id: ids, readAt: null };
  const [n] = await Notification.update({ readAt: new Date() }, { where });
  return n;
}
