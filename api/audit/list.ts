/**
 * GET /logs: the account's audit trail (sign-ins, people, settings), newest first, keyset
 * paged. Owner, admin and information security see everyone's; others only their own.
 */
import { Op, type WhereOptions } from "sequelize";
import { AuditLog, User } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { z } from "../lib/zod";
import { translate } from "../lib/i18n";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { idParam, validate } from "../lib/validate";
import { seesAll } from "../policy/policy";

export const auditQuerySchema = z.object({
  before: idParam(),
  ...pageInput,
  action: z
    .string()
    .trim()
    .max(60)
    .regex(/^[a-z0-9_.]*$/, "validation.invalid")
    .optional(),
});

/** An audit action as a person reads it, in `locale` (the action code when it has no text). */
export const auditDescription = (locale: string, action: string) => translate(locale, `common:audit.${action}`, { defaultValue: action });

/**
 * Newest first (id DESC), `limit` a page by keyset after `cursor` (or the deprecated `before`, the
 * last id seen); each row's action also in `locale`.
 */
export async function listAuditLog(ctx: SignedInCtx, query: unknown, locale = "pt-BR") {
  const { before, action, cursor, limit } = validate(auditQuerySchema, query ?? {});
  const after = decodeCursor(cursor, ["number"]);
  const below = after ? Number(after[0]) : before;
  const where: WhereOptions<AuditLog> = {
    accountId: ctx.actor.accountId,
    ...(seesAll(ctx.actor, "audit") ? {} : { userId: ctx.actor.userId }),
    ...(below ? { id: { [Op.lt]: below } } : {}),
    ...(action ? { action: action.endsWith(".") ? { [Op.startsWith]: action } : action } : {}),
  };
  const rows = await AuditLog.findAll({ where, order: [["id", "DESC"]], limit: limit + 1 });
  const users = await User.findAll({ where: { id: [...new Set(rows.map((r) => r.userId).filter(Boolean))] as string[] }, attributes: ["id", "email"] });
  const emails = new Map(users.map((u) => [u.id, u.email]));
  return keyset(
    rows,
    limit,
    (r) => [r.id],
    (r) => ({
      id: r.id,
      action: r.action,
      description: auditDescription(locale, r.action),
      user_id: r.userId,
      user_email: r.userId ? (emails.get(r.userId) ?? null) : null,
      ip: r.ip,
      user_agent: r.userAgent,
      meta: r.meta,
      created_at: r.createdAt,
    }),
  );
}
