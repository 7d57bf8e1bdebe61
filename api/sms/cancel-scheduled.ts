/**
 * Cancels one scheduled SMS of the acting account before its release (our SMPP server's cancel_sm):
 * it becomes `failed` with error_code `canceled` and its price returns to the balance, in one
 * transaction with the audit entry (failUnsent, the one place a message is failed before the
 * provider took it). Only a `scheduled` message: a queued one may be in a provider's hands the
 * next moment. Needs /sms/send (who may send may stop a send).
 */
import { failUnsent } from "../dispatch/dispatcher";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { can } from "../policy/policy";

/** error_message of a scheduled message canceled on request (a locale key, like accept's reasons). */
export const MESSAGE_CANCELED_REASON = "errors.MESSAGE_CANCELED";

/** True when it was canceled; false when the account has no such message or it is no longer scheduled. */
export async function cancelScheduledSms(ctx: SignedInCtx, messageId: string): Promise<boolean> {
  if (!can(ctx.actor, "/sms/send")) throw new AppError("FORBIDDEN");
  return failUnsent(messageId, "canceled", MESSAGE_CANCELED_REASON, {
    accountId: ctx.actor.accountId,
    from: ["scheduled"],
    also: (transaction) => recordAudit({ ...ctx, transaction }, "sms.canceled", { meta: { message_id: messageId } }),
  });
}
