import { listAccounts, accountInfo } from "~api/accounts/services";
import { env } from "~api/lib/env";
import { unreadCount } from "~api/notifications/services";
import { redisMs } from "~api/live/streams";
import { can, hasFeature } from "~api/policy/policy";
import { getProfile } from "~api/users/services";
import { NAV } from "~/components/shell/nav";
import { requireRoute } from "./auth.server";

/** Everything the app shell shows: who, which account, what the sidebar may offer. */
const WEEK_MS = 7 * 86_400_000;

/** What the shell says about the trial, if anything; `canChoose`: the person may open the plans' comparison. */
export function trialNotice(plans: Record<string, { ends_at: string | null; trial: boolean }>, endedAt: string | null, canChoose: boolean, now = Date.now()) {
  const active = Object.values(plans).find((p) => p.trial && p.ends_at);
  if (active?.ends_at && Date.parse(active.ends_at) - now <= WEEK_MS) return { state: "ending" as const, at: active.ends_at, canChoose };
  if (!active && endedAt) return { state: "ended" as const, at: endedAt, canChoose };
  return null;
}

export async function shellData(request: Request) {
  const ctx = await requireRoute(request);
  const production = env().NODE_ENV === "production";
  const [profile, accounts, account, unread] = await Promise.all([getProfile(ctx.actor.userId), listAccounts(ctx.actor.userId), accountInfo(ctx), unreadCount(ctx)]);
  // The policy's /live is who attends (an agent of any role, or a supervisor) with the omni plan.
  const live = can(ctx.actor, "/live");
  // What the person may open (role and plan gates of the policy), in the areas the account's plans include.
  const nav = NAV.filter((g) => !g.feature || hasFeature(ctx.actor, g.feature))
    .map((g) => ({
      key: g.key,
      items: g.items.filter((i) => can(ctx.actor, i.href) && !(production && i.href.startsWith("/dev/"))),
    }))
    .filter((g) => g.items.length > 0);
  return {
    user: { id: profile.id, name: `${profile.firstName} ${profile.lastName}`.trim(), email: profile.email, locale: profile.locale },
    account: { id: account.id, name: account.name, balance: account.balance, currency: account.currency, role: account.role, plans: account.plans },
    // The trial: ending within a week, or ended with no plan chosen since (the account is asked to choose one).
    trial: trialNotice(account.plans, account.trial_ended_at, can(ctx.actor, "/billing/upgrade")),
    accounts: accounts.map((a) => ({ id: a.id, name: a.name, role: a.role })),
    unread,
    nav,
    // The live connection starts only for those who attend: omni plan, and an agent or a supervising role (spec section 4).
    live,
    // The Redis clock when this page's data was read: the live socket starts from there.
    liveMark: live ? await redisMs() : null,
  };
}
