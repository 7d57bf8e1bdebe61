/**
 * The /settings screen: the current account (editable by owner/admin, read-only otherwise), its
 * API token (owner/admin only), its plans, and the settings groups the acting role may open.
 */
import type { SignedInCtx } from "../lib/context";
import { can, settingsGroups, type SettingsGroup, type Subject } from "../policy/policy";
import { accountInfo, canEditAccount, listCurrencies } from "./services";

/**
 * The screen each settings group opens. Groups whose screens do not exist yet are left out of
 * this table, so the hub never offers a link to nowhere.
 */
const GROUP_SCREENS: Partial<Record<SettingsGroup, string>> = {
  account: "/accounts",
  users: "/users",
  departments: "/departments",
  settings: "/settings",
  resources: "/settings/resources",
  messages: "/settings/messages",
  whitelabel: "/admin/whitelabel",
};

export type SettingsHubCard = { group: SettingsGroup; href: string };

/**
 * The cards of the settings hub: the role's settings groups (spec section 6) that have a screen
 * the subject may open under the permission policy (role, path allow-list, plan, staff area).
 */
export function settingsHub(subject: Subject): SettingsHubCard[] {
  return settingsGroups(subject.role).flatMap((group) => {
    const href = GROUP_SCREENS[group];
    return href && can(subject, href) ? [{ group, href }] : [];
  });
}

/** Everything /settings shows for the acting person. */
export async function accountSettings(ctx: SignedInCtx) {
  const account = await accountInfo(ctx);
  const editable = canEditAccount(ctx.actor.role);
  const currencies = editable ? (await listCurrencies()).map((c) => ({ code: c.code, name: c.name })) : [];
  const plans = Object.entries(account.plans).map(([service, p]) => ({ service, name: p.name ?? service, endsAt: p.ends_at, trial: p.trial }));
  return {
    account: { id: account.id, name: account.name, type: account.type, status: account.status, currency: account.currency, timezone: account.timezone, address: account.address },
    editable,
    /** Only owner and admin receive the token at all (accountInfo leaves it out for other roles). */
    authToken: account.auth_token ?? null,
    currencies,
    plans,
    hub: settingsHub(ctx.actor),
  };
}
