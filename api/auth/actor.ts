import type { AccountType, PlanPermission, Role } from "../../models";
import type { Actor } from "../lib/context";
import { AppError } from "../lib/errors";
import { prepared, preparedRows } from "../lib/prepared";

/**
 * Build the acting identity for a user in an account (the wanted one, else the user's current
 * one, else the first). Fails with ACCOUNT_INFO_FAILED when the user belongs to none of them,
 * or, with `strict`, when the user does not belong to the wanted account.
 */
type MembershipRow = {
  email: string;
  current_account_id: string | null;
  account_id: string | null;
  role: Role;
  is_agent: boolean;
  type: AccountType;
  status: "active" | "inactive" | "suspended";
  billing_suspended: boolean;
  plans: Array<{ service: string; permissions: Partial<Record<PlanPermission, boolean>> }>;
};

/**
 * Every request resolves its actor, so this is one round trip: the person, each membership with
 * its account, and each account's active plans (a prepared statement: planned once per connection).
 */
const ACTOR_SQL = prepared(
  "actor",
  `
  SELECT u.email, u.current_account_id, m.account_id, m.role, m.is_agent, a.type, a.status, a.billing_suspended_at IS NOT NULL AS billing_suspended,
         COALESCE((SELECT json_agg(json_build_object('service', ap.service, 'permissions', p.permissions))
                     FROM account_plans ap JOIN plans p ON p.id = ap.plan_id
                    WHERE ap.account_id = m.account_id AND ap.starts_at <= now() AND (ap.ends_at IS NULL OR ap.ends_at > now())), '[]') AS plans
    FROM users u
    LEFT JOIN memberships m ON m.user_id = u.id
    LEFT JOIN accounts a ON a.id = m.account_id
   WHERE u.id = $1
   ORDER BY m.created_at ASC`,
);

/**
 * `billing`: an account suspended for an unpaid invoice (ADR 044: accounts.billing_suspended_at)
 * still answers, its actor marked `suspended` — the policy (decide) then lets it reach only its
 * billing screens and API, to pay. Without it (realtime, SMPP, re-validation) it is CLIENT_INACTIVE,
 * as is any other suspended or inactive account.
 */
export async function loadActor(userId: string, wantedAccountId?: string | null, opts: { strict?: boolean; billing?: boolean } = {}): Promise<Actor> {
  if (!UUID.test(userId)) throw new AppError("UNAUTHENTICATED");
  const rows = await preparedRows<MembershipRow>(ACTOR_SQL, [userId]);
  if (!rows.length) throw new AppError("UNAUTHENTICATED");
  const memberships = rows.filter((r) => r.account_id);
  // An account asked for explicitly (the API's X-Account-Id header) is that one or nothing.
  if (opts.strict && wantedAccountId) {
    const wanted = memberships.find((x) => x.account_id === wantedAccountId);
    if (!wanted) throw new AppError("ACCOUNT_INFO_FAILED");
    if (wanted.status !== "active" && !(opts.billing && payable(wanted))) throw inactive(wanted);
  }
  const usable = memberships.filter((m) => m.status !== "inactive");
  const m = usable.find((x) => x.account_id === wantedAccountId) ?? usable.find((x) => x.account_id === rows[0].current_account_id) ?? usable[0];
  if (!m) throw new AppError("ACCOUNT_INFO_FAILED");
  const suspended = m.status === "suspended";
  if (suspended && !(opts.billing && payable(m))) throw inactive(m);
  const services = [...new Set(m.plans.map((p) => p.service))];
  const permissions: Partial<Record<PlanPermission, boolean>> = {};
  for (const p of m.plans) for (const [k, v] of Object.entries(p.permissions ?? {})) if (v) permissions[k as PlanPermission] = true;
  return {
    userId,
    email: rows[0].email,
    accountId: m.account_id!,
    role: m.role,
    isAgent: m.is_agent,
    accountType: m.type,
    services,
    permissions,
    ...(suspended ? { suspended: true } : {}),
  };
}

/**
 * CLIENT_INACTIVE, saying why when the account is suspended: by the platform's staff (`suspended`:
 * nothing of it works or is sent until they activate it, ADR 063/069) or for an unpaid invoice
 * (`unpaid`, where billing is not reachable: SMPP, realtime, another account's token).
 */
function inactive(m: MembershipRow): AppError {
  if (m.status !== "suspended") return new AppError("CLIENT_INACTIVE");
  return new AppError("CLIENT_INACTIVE", { params: { context: m.billing_suspended ? "unpaid" : "suspended" } });
}

/** Suspended by the billing job for an unpaid invoice: still let in to pay it. */
const payable = (m: MembershipRow) => m.status === "suspended" && m.billing_suspended;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
