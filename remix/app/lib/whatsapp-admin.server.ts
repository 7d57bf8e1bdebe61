/**
 * What platform staff's WhatsApp report screens (routes/admin/_app.admin.whatsapp.reports.*.tsx)
 * share on the server: the account field. Staff type a name; the account it names (one whose name
 * is exactly that, else the only one that contains it) filters the figures, and the links keep it
 * by id (`account_id`, kept while the name field still reads its name). Several matches are
 * offered as links, none is a field error. The rules of the figures are api/whatsapp/admin-reports.ts's
 * (and api/email/admin-reports.ts's: the e-mail staff screens use the same field).
 */
import type { SignedInCtx } from "~api/lib/context";
import { type ReportAccount, type StaffCheck, searchReportAccounts } from "~api/messages/admin-reports";
import { assertWhatsappStaff } from "~api/whatsapp/admin-reports";

export type AccountFilter = {
  /** The name field as typed. */
  name: string;
  /** The account the figures are of (null: every account, or none chosen yet). */
  account: ReportAccount | null;
  /** Several accounts hold the name: the ones to choose from. */
  matches: ReportAccount[];
  errors: string[];
};

/** The account field of the URL (`account`, `account_id`) resolved; `check` is the screen's staff check (default WhatsApp's; the e-mail screens pass theirs). */
export async function accountFilter(ctx: SignedInCtx, params: URLSearchParams, check: StaffCheck = (c) => assertWhatsappStaff(c, "stat")): Promise<AccountFilter> {
  const name = params.get("account")?.trim() ?? "";
  if (!name) return { name, account: null, matches: [], errors: [] };
  const found = await searchReportAccounts(ctx, name, check);
  const id = params.get("account_id")?.trim() ?? "";
  const exact = found.filter((a) => a.name.toLowerCase() === name.toLowerCase());
  const account = found.find((a) => a.id === id) ?? (exact.length === 1 ? exact[0] : found.length === 1 ? found[0] : null);
  return { name, account, matches: account ? [] : found, errors: found.length ? [] : ["validation.accountName"] };
}

/** The filter's URL parameters, for the screens' links (pager, days, a row's detail). */
export function accountParams(filter: Pick<AccountFilter, "account">): Record<string, string> {
  return filter.account ? { account: filter.account.name, account_id: filter.account.id } : {};
}

/** Whether the figures can be shown: no account asked for, or the one asked for found. */
export const accountReady = (filter: AccountFilter) => !filter.name || filter.account !== null;
