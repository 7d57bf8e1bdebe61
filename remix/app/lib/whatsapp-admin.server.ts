/**
 * What platform staff's WhatsApp report screens (routes/admin/_app.admin.whatsapp.reports.*.tsx)
 * share on the server: the account field. Staff type a name; the account it names (one whose name
 * is exactly that, else the only one that contains it) filters the figures, and the links keep it
 * by id (`account_id`, kept while the name field still reads its name). Several matches are
 * offered as links, none is a field error. The rules of the figures are api/whatsapp/admin-reports.ts's
 * (and api/email/admin-reports.ts's: the e-mail staff screens use the same field).
 */
import type { SignedInCtx } from "~api/lib/context";
import { isAppError } from "~api/lib/errors";
import { type ReportAccount, type StaffCheck, searchReportAccounts } from "~api/messages/admin-reports";
import { assertWhatsappStaff } from "~api/whatsapp/admin-reports";
import { requireRoute } from "./auth.server";

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

/**
 * A staff report of a period with the account field (/admin/whatsapp/reports/stat, the e-mail staff
 * screens): the URL's `from`/`to` and account resolved, then `run` over them — its figures, or its
 * validation errors (by field). `check` is the screen's staff check.
 */
export async function staffPeriodReport<T>(request: Request, check: StaffCheck, run: (ctx: SignedInCtx, input: { from: string; to: string; account_id?: string }) => Promise<T>) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  const filter = await accountFilter(ctx, params, check);
  let report: T | null = null;
  let errors: Record<string, string[]> = {};
  if (accountReady(filter)) {
    try {
      report = await run(ctx, { ...values, account_id: filter.account?.id });
    } catch (e) {
      if (!isAppError(e) || e.code !== "VALIDATION") throw e;
      errors = e.fields ?? {};
    }
  }
  return { report, values, filter, errors };
}
