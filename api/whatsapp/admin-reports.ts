/**
 * Platform staff's WhatsApp reports (issue 16; spec section 2, admin "whatsapp reports (stat,
 * history, insights)": /admin/whatsapp/reports/stat, /history, /insights and GET
 * /api/admin/whatsapp/...): the customer reports' queries (./reports.ts, api/sms/reports.ts with a
 * ReportScope) and the history's (./history.ts whatsappMessagePage) over every account, or over
 * one (`account_id`). Cross-tenant by design, so each function first asks `assertWhatsappStaff`:
 * the platform account and the policy's staff roles for the screen, as the other admin services.
 * Money: an account's figures are in its currency; a platform-wide cost is one amount per
 * currency (accounts may use different ones). Lag-tolerant reads on the replica (ADR 030).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { replicaRow } from "../lib/sql";
import {
  type AccountFigures as AccountFiguresOf,
  accountOf,
  addMoney,
  assertStaff,
  costOf,
  type Money,
  type ReportAccount,
  searchReportAccounts as searchAccounts,
  topAccounts,
} from "../messages/admin-reports";
import { type ChartDay, perDayOf, periodTotals, type ReportScope, statPeriod } from "../sms/reports";
import { EVENTS_SQL, type EventRow, eventsOf, type WhatsappHistoryRow, type WhatsappMessageDetail, whatsappMessagePage } from "./history";
import { categoriesByCurrency, insightFigures, insightsPeriod, WHATSAPP_CATEGORIES, type WhatsappCategory } from "./reports";

export { ACCOUNT_MATCHES, type Money, type ReportAccount, TOP_ACCOUNTS } from "../messages/admin-reports";

/** The staff screens (the policy's paths: /admin is the platform account's owners and admins). */
export const ADMIN_WHATSAPP_SCREENS = {
  stat: "/admin/whatsapp/reports/stat",
  history: "/admin/whatsapp/reports/history",
  insights: "/admin/whatsapp/reports/insights",
} as const;
type Screen = keyof typeof ADMIN_WHATSAPP_SCREENS;

/** FORBIDDEN unless the actor is platform staff who may open the screen. */
export function assertWhatsappStaff(ctx: SignedInCtx, screen: Screen) {
  assertStaff(ctx, ADMIN_WHATSAPP_SCREENS[screen]);
}

/** The accounts whose name holds `q` (any case), an exact name first, then by name: what the screens' account field offers. */
export const searchReportAccounts = (ctx: SignedInCtx, q: string) => searchAccounts(ctx, q, (c) => assertWhatsappStaff(c, "stat"));

/** A day's outbound messages as the staff tables show them, with the statuses for the chart. */
export type DayFigures = { day: string; messages: number; delivered: number; read: number; failed: number; statuses: ChartDay["statuses"] };
const figuresOf = (d: Pick<ChartDay, "total" | "statuses">) => ({
  messages: d.total,
  delivered: (d.statuses.delivered ?? 0) + (d.statuses.read ?? 0),
  read: d.statuses.read ?? 0,
  failed: d.statuses.failed ?? 0,
});

async function daysOf(scope: ReportScope, from: string, to: string) {
  const { data, totals } = await perDayOf(scope, from, to, "whatsapp");
  return { data: data.map((d): DayFigures => ({ day: d.day, ...figuresOf(d), statuses: d.statuses })), totals: figuresOf(totals) };
}

/** The per-account table's groups: delivered (or read), read, failed. */
const ACCOUNT_GROUPS = { delivered: ["delivered", "read"], read: ["read"], failed: ["failed"] } as const;
export type AccountFigures = AccountFiguresOf<keyof typeof ACCOUNT_GROUPS>;

export type AdminCategoryRow = { category: WhatsappCategory; messages: number; cost: Money[] };

export type AdminWhatsappStat = {
  from: string;
  to: string;
  /** The account the figures are of; null: every account. */
  account: ReportAccount | null;
  data: DayFigures[];
  totals: Omit<DayFigures, "day" | "statuses">;
  categories: AdminCategoryRow[];
  category_totals: { messages: number; cost: Money[] };
  /** The accounts with the most messages (at most TOP_ACCOUNTS). */
  accounts: AccountFigures[];
};

/**
 * /admin/whatsapp/reports/stat: a period's (default the last 7 São Paulo days, at most 31)
 * outbound WhatsApp messages of every account (or `account_id`'s): per day messages, delivered,
 * read and failed; per Meta pricing category count and cost; per account (the most messages first).
 */
export async function adminWhatsappStat(ctx: SignedInCtx, input: unknown = {}): Promise<AdminWhatsappStat> {
  assertWhatsappStaff(ctx, "stat");
  const { from, to } = statPeriod(input);
  const account = await accountOf(input);
  const scope: ReportScope = { accountId: account?.id ?? null };
  const [days, categories, accounts] = await Promise.all([
    daysOf(scope, from, to),
    categoriesByCurrency(scope, from, to),
    topAccounts(scope, from, to, "whatsapp", ACCOUNT_GROUPS),
  ]);
  const perCategory = WHATSAPP_CATEGORIES.map((category): AdminCategoryRow => {
    const of = categories.filter((r) => r.category === category);
    return { category, messages: of.reduce((n, r) => n + r.messages, 0), cost: addMoney(of.map((r) => ({ currency: r.currency, amount: r.cost }))) };
  });
  return {
    from,
    to,
    account,
    ...days,
    categories: perCategory,
    category_totals: { messages: perCategory.reduce((n, r) => n + r.messages, 0), cost: addMoney(perCategory.flatMap((r) => r.cost)) },
    accounts,
  };
}

export type AdminWhatsappInsights = ReturnType<typeof insightFigures> & {
  days: number;
  from: string;
  to: string;
  account: ReportAccount | null;
  cost: Money[];
  data: DayFigures[];
};

/** /admin/whatsapp/reports/insights: /whatsapp/insights's last 7 or 30 São Paulo days for every account (or `account_id`'s). */
export async function adminWhatsappInsights(ctx: SignedInCtx, input: unknown = {}): Promise<AdminWhatsappInsights> {
  assertWhatsappStaff(ctx, "insights");
  const { days, from, to } = insightsPeriod(input);
  const account = await accountOf(input);
  const scope: ReportScope = { accountId: account?.id ?? null };
  const [t, cost, chart] = await Promise.all([periodTotals(scope, from, to, "whatsapp"), costOf(scope, from, to, "whatsapp"), daysOf(scope, from, to)]);
  return { days, from, to, account, ...insightFigures(t), cost, data: chart.data };
}

/**
 * /admin/whatsapp/reports/history: every account's (or `account_id`'s) WhatsApp messages with the
 * customer history's filters (São Paulo days, at most 31, default today; status, from, to) and
 * keyset pages, each row naming its account.
 */
export async function adminWhatsappMessages(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: WhatsappHistoryRow[]; next_cursor: string | null }> {
  assertWhatsappStaff(ctx, "history");
  const { account_id: _a, integration: _i, ...rest } = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const account = await accountOf(input);
  return whatsappMessagePage(account?.id ?? null, rest, true);
}

export type AdminWhatsappMessage = WhatsappMessageDetail & { account: { id: string; name: string } };

/** One WhatsApp message of any account with its events and account (the history's detail); not a WhatsApp message's id: 404. */
export async function adminWhatsappMessage(ctx: SignedInCtx, id: string): Promise<{ data: AdminWhatsappMessage }> {
  assertWhatsappStaff(ctx, "history");
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const found = await replicaRow<Omit<AdminWhatsappMessage, "events" | "account"> & { account_id: string; account_name: string; events: EventRow[] }>(
    `SELECT m.id, m.sender AS "from", m.recipient AS "to", m.type, m.body, m.status, m.price::int AS price, trim(m.currency) AS currency,
            m.provider_message_id, m.error_code, m.error_message, m.created_at, m.sent_at, m.delivered_at, m.read_at, m.failed_at,
            m.direction, m.account_id, a.name AS account_name, ${EVENTS_SQL} AS events
       FROM messages m JOIN accounts a ON a.id = m.account_id
      WHERE m.id = $1 AND m.channel = 'whatsapp'`,
    [id],
  );
  if (!found) throw new AppError("NOT_FOUND");
  const { account_id, account_name, events, ...m } = found;
  return { data: { ...m, account: { id: account_id, name: account_name }, events: eventsOf(events) } };
}
