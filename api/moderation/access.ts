/**
 * Who may do what in moderation (ADR 012):
 *  - platform staff (an owner or admin of the platform account: the /admin/antifraud area) keep
 *    the words/URLs under review and decide approvals of every account — the anti-fraud review is
 *    the platform's, an account cannot approve its own held messages;
 *  - an account's admin and sales (the /sms/antifraude screen of the policy) see their own
 *    approvals and held messages, ask for a term ahead and add their justification.
 */
import type { Actor, SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { can } from "../policy/policy";

export function isModerationStaff(actor: Actor): boolean {
  return actor.accountType === "platform" && can(actor, "/admin/antifraud");
}

export function assertStaff(ctx: SignedInCtx) {
  if (!isModerationStaff(ctx.actor)) throw new AppError("FORBIDDEN");
}

/** Staff, or the account's /sms/antifraude roles; answers whether the actor sees every account. */
export function assertReader(ctx: SignedInCtx): { all: boolean } {
  if (isModerationStaff(ctx.actor)) return { all: true };
  if (!can(ctx.actor, "/sms/antifraude")) throw new AppError("FORBIDDEN");
  return { all: false };
}

export function assertAccountSide(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/sms/antifraude")) throw new AppError("FORBIDDEN");
}
