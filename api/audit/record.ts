import { AuditLog } from "../../models";
import type { Ctx } from "../lib/context";

/** Append one audit entry (sign-in events, permission changes…). Never throws into the caller's flow. */
export async function recordAudit(ctx: Ctx, action: string, opts: { userId?: string | null; accountId?: string | null; meta?: Record<string, unknown> } = {}) {
  await AuditLog.create(
    {
      action,
      userId: opts.userId ?? ctx.actor?.userId ?? null,
      accountId: opts.accountId ?? ctx.actor?.accountId ?? null,
      ip: ctx.ip ?? null,
      userAgent: ctx.userAgent?.slice(0, 500) ?? null,
      meta: opts.meta ?? {},
    },
    { transaction: ctx.transaction },
  );
}
