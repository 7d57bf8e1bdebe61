import { AuditLog } from "../../models";
import type { Ctx } from "../lib/context";

type AuditOptions = { userId?: string | null; accountId?: string | null; meta?: Record<string, unknown> };

/** The fields of one audit entry (who, where from, what): written by recordAudit, or set-based by a batch (api/sms/accept-batch.ts). */
export function auditFields(ctx: Ctx, action: string, opts: AuditOptions = {}) {
  return {
    action,
    userId: opts.userId ?? ctx.actor?.userId ?? null,
    accountId: opts.accountId ?? ctx.actor?.accountId ?? null,
    ip: ctx.ip ?? null,
    userAgent: ctx.userAgent?.slice(0, 500) ?? null,
    meta: opts.meta ?? {},
  };
}

/** Append one audit entry (sign-in events, permission changes…). Never throws into the caller's flow. */
export async function recordAudit(ctx: Ctx, action: string, opts: AuditOptions = {}) {
  await AuditLog.create(auditFields(ctx, action, opts), { transaction: ctx.transaction });
}
