/**
 * GET /logs: the account's audit trail (sign-ins, people, settings), newest first, keyset
 * paged. Owner, admin and information security see everyone's; others only their own.
 */
import { Op, type WhereOptions } from "sequelize";
import { AuditLog, User, initModels } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { z } from "../lib/zod";
import { idParam, validate } from "../lib/validate";

export const AUDIT_PAGE = 50;

export const auditQuerySchema = z.object({
  before: idParam(),
  action: z.string().trim().max(60).regex(/^[a-z0-9_.]*$/, "validation.invalid").optional(),
});

const SEES_ALL = new Set(["owner", "admin", "security"]);

export async function listAuditLog(ctx: SignedInCtx, query: unknown) {
  initModels();
  const { before, action } = validate(auditQuerySchema, query ?? {});
  const where: WhereOptions<AuditLog> = {
    accountId: ctx.actor.accountId,
    ...(SEES_ALL.has(ctx.actor.role) ? {} : { userId: ctx.actor.userId }),
    ...(before ? { id: { [Op.lt]: before } } : {}),
    ...(action ? { action: action.endsWith(".") ? { [Op.startsWith]: action } : action } : {}),
  };
  const rows = await AuditLog.findAll({ where, order: [["id", "DESC"]], limit: AUDIT_PAGE + 1 });
  const users = await User.findAll({ where: { id: [...new Set(rows.map((r) => r.userId).filter(Boolean))] as string[] }, attributes: ["id", "email"] });
  const emails = new Map(users.map((u) => [u.id, u.email]));
  return {
    data: rows.slice(0, AUDIT_PAGE).map((r) => ({
      id: r.id, action: r.action, user_id: r.userId, user_email: r.userId ? emails.get(r.userId) ?? null : null,
      ip: r.ip, user_agent: r.userAgent, meta: r.meta, created_at: r.createdAt,
    })),
    next: rows.length > AUDIT_PAGE ? rows[AUDIT_PAGE - 1].id : null,
  };
}
