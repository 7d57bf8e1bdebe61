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
import { escapeLike, replicaRow, replicaRows as rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { type ChartDay, period, periodBind, periodOptions, perDayOf, periodTotals, type ReportScope, statPeriod } from "../sms/reports";
import { EVENTS_SQL, type EventRow, eventsOf, type WhatsappHistoryRow, type WhatsappMessageDetail, whatsappMessagePage } from "./history";
import { categoriesByCurrency, insightFigures, insightsPeriod, WHATSAPP_CATEGORIES, type WhatsappCategory } from "./reports";

/** The staff screens (the policy's paths: /admin is the platform account's owners and admins). */
export const ADMIN_WHATSAPP_SCREENS = {
  stat: "/admin/whatsapp/reports/stat",
  history: "/admin/whatsapp/reports/history",
  insights: "/admin/whatsapp/reports/insights",
} as const;
type Screen = keyof typeof ADMIN_WHATSAPP_SCREENS;

/** FORBIDDEN unless the actor is platform staff who may open the screen. */
export function assertWhatsappStaff(ctx: SignedInCtx, screen: Screen) {
  if (ctx.actor.accountType !== "platform" || !can(ctx.actor, ADMIN_WHATSAPP_SCREENS[screen])) throw new AppError("FORBIDDEN");
}

export type ReportAccount = { id: string; name: string; currency: string };
/** An amount in one currency's minor units. */
export type Money = { currency: string; amount: number };

/** How many accounts the stat's per-account table lists (the most messages first). */
export const TOP_ACCOUNTS = 20;
/** How many accounts a name search offers. */
export const ACCOUNT_MATCHES = 20;

const accountSchema = z.object({
  account_id: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim())
    .superRefine((v, ctx) => {
      if (v && !UUID.test(v)) ctx.addIssue({ code: "custom", message: "validation.invalid" });
    }),
});

/** The accounts whose name holds `q` (any case), an exact name first, then by name: what the screens' account field offers. */
export async function searchReportAccounts(ctx: SignedInCtx, q: string): Promise<ReportAccount[]> {
  assertWhatsappStaff(ctx, "stat");
  const text = q.trim();
  if (!text) return [];
  return rows<ReportAccount>(
    `SELECT id, name, trim(currency) AS currency FROM accounts WHERE name ILIKE $1
      ORDER BY lower(name) = lower($2) DESC, name, id LIMIT ${ACCOUNT_MATCHES}`,
    [`%${escapeLike(text)}%`, text],
  );
}

/** The input's `account_id` as the account it names (null: every account); an unknown id is a field error. */
async function accountOf(input: unknown): Promise<ReportAccount | null> {
  const { account_id } = validate(accountSchema, input && typeof input === "object" ? input : {});
  if (!account_id) return null;
  const found = await replicaRow<ReportAccount>(`SELECT id, name, trim(currency) AS currency FROM accounts WHERE id = $1`, [account_id]);
  if (!found) throw new AppError("VALIDATION", { fields: { account_id: ["validation.option"] } });
  return found;
}

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

/** A period's outbound cost, one amount per currency (by currency). */
async function costOf(scope: ReportScope, from: string, to: string): Promise<Money[]> {
  const found = await rows<{ currency: string; amount: string }>(
    `SELECT trim(currency) AS currency, coalesce(sum(price), 0) AS amount FROM messages
      WHERE ${period("whatsapp", periodOptions(scope))} AND direction = 'outbound' GROUP BY 1 ORDER BY 1`,
    periodBind(scope, from, to),
  );
  return found.map((r) => ({ currency: r.currency, amount: Number(r.amount) }));
}

/** Amounts added per currency, by currency. */
function addMoney(list: Money[]): Money[] {
  const by = new Map<string, number>();
  for (const m of list) by.set(m.currency, (by.get(m.currency) ?? 0) + m.amount);
  return [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount }));
}

export type AccountFigures = { account: { id: string; name: string }; messages: number; delivered: number; read: number; failed: number; cost: number; currency: string };

/** The accounts with the most outbound WhatsApp messages of a period (TOP_ACCOUNTS), with their figures and cost in their currency. */
async function topAccounts(scope: ReportScope, from: string, to: string): Promise<AccountFigures[]> {
  const found = await rows<{ id: string; name: string; currency: string; n: string; delivered: string; read: string; failed: string; cost: string }>(
    `SELECT a.id, a.name, trim(a.currency) AS currency, m.n, m.delivered, m.read, m.failed, m.cost
       FROM (SELECT account_id, count(*) AS n,
                    count(*) FILTER (WHERE status IN ('delivered','read')) AS delivered,
                    count(*) FILTER (WHERE status = 'read') AS read,
                    count(*) FILTER (WHERE status = 'failed') AS failed,
                    coalesce(sum(price), 0) AS cost
               FROM messages WHERE ${period("whatsapp", periodOptions(scope))} AND direction = 'outbound'
              GROUP BY account_id) m
       JOIN accounts a ON a.id = m.account_id
      ORDER BY m.n DESC, a.name, a.id
      LIMIT ${TOP_ACCOUNTS}`,
    periodBind(scope, from, to),
  );
  return found.map((r) => ({
    account: { id: r.id, name: r.name },
    messages: Number(r.n),
    delivered: Number(r.delivered),
    read: Number(r.read),
    failed: Number(r.failed),
    cost: Number(r.cost),
    currency: r.currency,
  }));
}

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
  const [days, categories, accounts] = await Promise.all([daysOf(scope, from, to), categoriesByCurrency(scope, from, to), topAccounts(scope, from, to)]);
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
  const [t, cost, chart] = await Promise.all([periodTotals(scope, from, to, "whatsapp"), costOf(scope, from, to), daysOf(scope, from, to)]);
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
