/**
 * Who sees which accounts' figures on the platform-wide SMS screens and the analytics (issue 23,
 * ADR 065): platform staff (owner or admin of the platform account) see every account; a
 * reseller's owner or admin see only their own customers (accounts whose parent is the reseller)
 * on the screens the policy opens to resellers (/admin/sms/reports, /dashboard, /sales); anyone
 * else is refused (403). The SQL fragment `scopeSql` keeps a query to the scope, with $1 the
 * reseller (null: every account) and $2 one account asked for (null: all in reach).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { replicaRow } from "../lib/sql";
import { can } from "../policy/policy";

export const ADMIN_SMS_SCREENS = {
  reports: "/admin/sms/reports",
  dashboard: "/admin/sms/dashboard",
  monitor: "/admin/sms/monitor",
  sales: "/admin/sms/sales",
  analytics: "/admin/analytics",
} as const;
export type AdminSmsScreen = keyof typeof ADMIN_SMS_SCREENS;

/** `parent`: the reseller whose customers count (null: every account, platform staff). */
export type Reach = { parent: string | null; platform: boolean };

/** The actor's reach for a screen, or FORBIDDEN. */
export function reachOf(ctx: SignedInCtx, screen: AdminSmsScreen): Reach {
  if (!can(ctx.actor, ADMIN_SMS_SCREENS[screen])) throw new AppError("FORBIDDEN");
  if (ctx.actor.accountType === "platform") return { parent: null, platform: true };
  if (ctx.actor.accountType === "reseller") return { parent: ctx.actor.accountId, platform: false };
  throw new AppError("FORBIDDEN");
}

/** The messages (alias `m`) of accounts in reach: $1 the reseller or null, $2 one account or null. */
export const scopeSql = (alias = "m") =>
  `($1::uuid IS NULL OR ${alias}.account_id IN (SELECT id FROM accounts WHERE parent_account_id = $1::uuid)) AND ($2::uuid IS NULL OR ${alias}.account_id = $2::uuid)`;

export type ScopedAccount = { id: string; name: string; currency: string };

/** The input's `account_id` as an account in reach (null: none asked for); unknown or out of reach: a field error (its existence is not told). */
export async function accountInReach(reach: Reach, input: unknown): Promise<ScopedAccount | null> {
  const raw = input && typeof input === "object" ? (input as Record<string, unknown>).account_id : undefined;
  const id = typeof raw === "string" ? raw.trim() : "";
  if (!id) return null;
  if (!UUID.test(id)) throw new AppError("VALIDATION", { fields: { account_id: ["validation.invalid"] } });
  const found = await replicaRow<ScopedAccount>(`SELECT id, name, trim(currency) AS currency FROM accounts WHERE id = $2 AND ($1::uuid IS NULL OR parent_account_id = $1::uuid)`, [
    reach.parent,
    id,
  ]);
  if (!found) throw new AppError("VALIDATION", { fields: { account_id: ["validation.option"] } });
  return found;
}
