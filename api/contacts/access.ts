/** Who may do what with contacts: the screen's policy rule, and owner/admin for the sensitive acts. */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { can, canWrite } from "../policy/policy";

/** The use-case refuses what the screen at `path` refuses (FORBIDDEN). */
export function assertCan(ctx: SignedInCtx, path = "/contacts") {
  if (!can(ctx.actor, path)) throw new AppError("FORBIDDEN");
}

/**
 * Owner and admin: see sensitive custom values, define custom fields, export and erase a person's
 * data (LGPD). Everyone else who reaches /contacts sees sensitive values masked.
 */
export function isPrivileged(ctx: SignedInCtx) {
  return canWrite(ctx.actor, "contacts");
}

export function assertPrivileged(ctx: SignedInCtx, path = "/contacts") {
  assertCan(ctx, path);
  if (!isPrivileged(ctx)) throw new AppError("FORBIDDEN");
}

export { assertId } from "../lib/owned";

/** Display name of a contact: its names, else its e-mail, else its number. */
export function displayName(c: { first_name?: string | null; last_name?: string | null; email?: string | null }, mobile?: string) {
  return `${c.first_name ?? ""} ${c.last_name ?? ""}`.trim() || c.email || mobile || "";
}
