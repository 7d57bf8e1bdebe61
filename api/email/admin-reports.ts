/**
 * Platform staff's e-mail reports (issue 17; spec section 2, admin "email reports (stat, history,
 * insights, usage)": /admin/email/reports/stat, /history, /usage and GET /api/admin/email/reports/...;
 * the insights are ./insights.ts adminEmailInsights): the customer reports' queries
 * (api/sms/reports.ts with a ReportScope, channel 'email') and the history's (./history.ts
 * emailMessagePage, emailMessageDetail) over every account, or one (`account_id`). Cross-tenant
 * by design, so each function first asks `assertEmailStaff` for its screen. What the WhatsApp
 * staff reports share with these is api/messages/admin-reports.ts. Money: an account's figures are
 * in its currency; a platform-wide cost is one amount per currency.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { replicaRow } from "../lib/sql";
import { validate } from "../lib/validate";
import { type AccountFigures, accountOf, costOf, type Money, type ReportAccount, topAccounts, type UsageDay, usageByDay } from "../messages/admin-reports";
import { perDayOf, rangeSchema, type ReportScope, statPeriod } from "../sms/reports";
import { type EmailHistoryRow, type EmailMessageDetail, emailMessageDetail, emailMessagePage } from "./history";
import { assertEmailStaff } from "./insights";

/** The staff screens (the policy's paths: /admin is the platform account's owners and admins). */
export const ADMIN_EMAIL_SCREENS = {
  stat: "/admin/email/reports/stat",
  history: "/admin/email/reports/history",
  usage: "/admin/email/reports/usage",
  insights: "/admin/email/reports/insights",
} as const;
type Screen = keyof typeof ADMIN_EMAIL_SCREENS;
const staff = (ctx: SignedInCtx, screen: Screen) => assertEmailStaff(ctx, ADMIN_EMAIL_SCREENS[screen]);
/** The e-mail screens' staff check, for their account field. */
export const emailStaffCheck = (screen: Screen) => (ctx: SignedInCtx) => staff(ctx, screen);

/** The per-account table's groups of e-mail statuses (an opened or clicked e-mail was delivered). */
export const EMAIL_ACCOUNT_GROUPS = {
  delivered: ["delivered", "opened", "clicked"],
  opened: ["opened", "clicked"],
  bounced: ["bounced", "blocked", "dropped", "failed"],
} as const;
export type EmailAccountFigures = AccountFigures<keyof typeof EMAIL_ACCOUNT_GROUPS>;

const input = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});
const scopeOf = (account: ReportAccount | null): ReportScope => ({ accountId: account?.id ?? null });

export type AdminEmailStat = {
  from: string;
  to: string;
  /** The account the figures are of; null: every account. */
  account: ReportAccount | null;
  /** Per day: outbound e-mails, per status. */
  data: Array<{ day: string; total: number; statuses: Partial<Record<string, number>> }>;
  totals: { total: number; statuses: Partial<Record<string, number>> };
  /** The period's cost, one amount per currency. */
  cost: Money[];
  /** The accounts with the most e-mails (at most TOP_ACCOUNTS). */
  accounts: EmailAccountFigures[];
};

/**
 * /admin/email/reports/stat: a period's (default the last 7 São Paulo days, at most 31) outbound
 * e-mails of every account (or `account_id`'s): per day per status, the cost per currency, and
 * per account (the most e-mails first: delivered, opened, bounced, cost in its currency).
 */
export async function adminEmailStat(ctx: SignedInCtx, raw: unknown = {}): Promise<AdminEmailStat> {
  staff(ctx, "stat");
  const { from, to } = statPeriod(input(raw));
  const account = await accountOf(raw);
  const scope = scopeOf(account);
  const [days, cost, accounts] = await Promise.all([
    perDayOf(scope, from, to, "email"),
    costOf(scope, from, to, "email"),
    topAccounts(scope, from, to, "email", EMAIL_ACCOUNT_GROUPS),
  ]);
  return {
    from,
    to,
    account,
    data: days.data.map((d) => ({ day: d.day, total: d.total, statuses: d.statuses })),
    totals: { total: days.totals.total, statuses: days.totals.statuses },
    cost,
    accounts,
  };
}

export type AdminEmailUsage = {
  from: string;
  to: string;
  account: ReportAccount | null;
  data: UsageDay[];
  totals: Omit<UsageDay, "day">;
  accounts: EmailAccountFigures[];
};

/** /admin/email/reports/usage: per São Paulo day of a period (default this month so far, at most 31), every account's (or `account_id`'s) e-mails and cost per currency, and per account. */
export async function adminEmailUsage(ctx: SignedInCtx, raw: unknown = {}): Promise<AdminEmailUsage> {
  staff(ctx, "usage");
  const o = input(raw);
  const { from, to } = validate(rangeSchema("month"), { from: o.from, to: o.to });
  const account = await accountOf(raw);
  const scope = scopeOf(account);
  const [usage, accounts] = await Promise.all([usageByDay(scope, from, to, "email"), topAccounts(scope, from, to, "email", EMAIL_ACCOUNT_GROUPS)]);
  return { from, to, account, ...usage, accounts };
}

/**
 * /admin/email/reports/history: every account's (or `account_id`'s) e-mails with the customer
 * history's filters (São Paulo days, at most 31, default today; id, status, from, to) and keyset
 * pages, each row naming its account.
 */
export async function adminEmailMessages(ctx: SignedInCtx, raw: unknown = {}): Promise<{ data: EmailHistoryRow[]; next_cursor: string | null }> {
  staff(ctx, "history");
  const { account_id: _a, ...rest } = input(raw);
  const account = await accountOf(raw);
  return emailMessagePage(account?.id ?? null, rest, true);
}

export type AdminEmailMessage = EmailMessageDetail & { account: { id: string; name: string } };

/** One e-mail of any account with its events, counts, content and account (the history's detail); not an e-mail's id: 404. */
export async function adminEmailMessage(ctx: SignedInCtx, id: string): Promise<{ data: AdminEmailMessage }> {
  staff(ctx, "history");
  const found = await emailMessageDetail(null, id);
  if (!found) throw new AppError("NOT_FOUND");
  const { account_id, ...m } = found;
  const account = await replicaRow<{ id: string; name: string }>(`SELECT id, name FROM accounts WHERE id = $1`, [account_id]);
  return { data: { ...m, account: account ?? { id: account_id, name: "" } } };
}
