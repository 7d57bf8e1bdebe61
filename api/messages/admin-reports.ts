/**
 * What platform staff's reports of every channel share (the WhatsApp ones, api/whatsapp/admin-reports.ts;
 * the e-mail ones, api/email/admin-reports.ts): the staff check of a screen, the account field (a
 * name search, an `account_id` read), a period's cost per currency, amounts added per currency, a
 * period's outbound messages per day and currency, and the accounts with the most messages.
 * Cross-tenant by design: every caller checks the staff (`assertStaff` or its channel's wrapper)
 * before it reads. Money: an account's figures are in its currency; a platform-wide cost is one
 * amount per currency. Lag-tolerant reads on the replica (ADR 030).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { escapeLike, replicaRow, replicaRows as rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { HISTORY_TIME_ZONE } from "../sms/history";
import { channelLiteral, type ReportChannel } from "../sms/report-constants";
import { daysOf, period, periodBind, periodOptions, type ReportScope } from "../sms/reports";

/** FORBIDDEN unless the actor is platform staff who may open the screen (`path`, a policy path under /admin). */
export function assertStaff(ctx: SignedInCtx, path: string) {
  if (ctx.actor.accountType !== "platform" || !can(ctx.actor, path)) throw new AppError("FORBIDDEN");
}
/** A channel's staff check, as the account search asks it. */
export type StaffCheck = (ctx: SignedInCtx) => void;

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
export async function searchReportAccounts(ctx: SignedInCtx, q: string, check: StaffCheck): Promise<ReportAccount[]> {
  check(ctx);
  const text = q.trim();
  if (!text) return [];
  return rows<ReportAccount>(
    `SELECT id, name, trim(currency) AS currency FROM accounts WHERE name ILIKE $1
      ORDER BY lower(name) = lower($2) DESC, name, id LIMIT ${ACCOUNT_MATCHES}`,
    [`%${escapeLike(text)}%`, text],
  );
}

/** The input's `account_id` as the account it names (null: every account); an unknown id is a field error. Call after the staff check. */
export async function accountOf(input: unknown): Promise<ReportAccount | null> {
  const { account_id } = validate(accountSchema, input && typeof input === "object" ? input : {});
  if (!account_id) return null;
  const found = await replicaRow<ReportAccount>(`SELECT id, name, trim(currency) AS currency FROM accounts WHERE id = $1`, [account_id]);
  if (!found) throw new AppError("VALIDATION", { fields: { account_id: ["validation.option"] } });
  return found;
}

/** A period's outbound cost of one channel, one amount per currency (by currency). */
export async function costOf(scope: ReportScope, from: string, to: string, channel: ReportChannel): Promise<Money[]> {
  const found = await rows<{ currency: string; amount: string }>(
    `SELECT trim(currency) AS currency, coalesce(sum(price), 0) AS amount FROM messages
      WHERE ${period(channel, periodOptions(scope))} AND direction = 'outbound' GROUP BY 1 ORDER BY 1`,
    periodBind(scope, from, to),
  );
  return found.map((r) => ({ currency: r.currency, amount: Number(r.amount) }));
}

/** Amounts added per currency, by currency. */
export function addMoney(list: Money[]): Money[] {
  const by = new Map<string, number>();
  for (const m of list) by.set(m.currency, (by.get(m.currency) ?? 0) + m.amount);
  return [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ currency, amount }));
}

export type UsageDay = { day: string; messages: number; cost: Money[] };

/** Per São Paulo day of a period, one channel's outbound messages and their cost per currency (every day of the period, oldest first), with totals. */
export async function usageByDay(scope: ReportScope, from: string, to: string, channel: ReportChannel): Promise<{ data: UsageDay[]; totals: Omit<UsageDay, "day"> }> {
  const found = await rows<{ day: string; currency: string; n: string; cost: string }>(
    `SELECT to_char((created_at AT TIME ZONE '${HISTORY_TIME_ZONE}')::date, 'YYYY-MM-DD') AS day, trim(currency) AS currency, count(*) AS n, coalesce(sum(price), 0) AS cost
       FROM messages WHERE ${period(channel, periodOptions(scope))} AND direction = 'outbound' GROUP BY 1, 2`,
    periodBind(scope, from, to),
  );
  const data = daysOf(from, to).map((day) => {
    const of = found.filter((r) => r.day === day);
    return { day, messages: of.reduce((n, r) => n + Number(r.n), 0), cost: addMoney(of.map((r) => ({ currency: r.currency, amount: Number(r.cost) }))) };
  });
  return { data, totals: { messages: data.reduce((n, d) => n + d.messages, 0), cost: addMoney(data.flatMap((d) => d.cost)) } };
}

/** Named groups of statuses a channel's per-account table counts (e.g. WhatsApp's delivered = delivered or read). */
export type StatusGroups<K extends string> = Record<K, readonly string[]>;

export type AccountFigures<K extends string> = { account: { id: string; name: string }; messages: number; cost: number; currency: string } & Record<K, number>;

const sqlList = (statuses: readonly string[]) => statuses.map((s) => `'${s.replace(/[^a-z_]/g, "")}'`).join(",");

/** The accounts with the most outbound messages of one channel in a period (TOP_ACCOUNTS), each group of statuses counted, cost in the account's currency. */
export async function topAccounts<K extends string>(scope: ReportScope, from: string, to: string, channel: ReportChannel, groups: StatusGroups<K>): Promise<AccountFigures<K>[]> {
  const keys = Object.keys(groups) as K[];
  const counts = keys.map((k) => `count(*) FILTER (WHERE status IN (${sqlList(groups[k])})) AS "${k.replace(/[^a-z_]/g, "")}"`).join(", ");
  const found = await rows<Record<string, string>>(
    `SELECT a.id, a.name, trim(a.currency) AS currency, m.*
       FROM (SELECT account_id, count(*) AS n, ${counts}, coalesce(sum(price), 0) AS cost
               FROM messages WHERE ${period(channelLiteral(channel) as ReportChannel, periodOptions(scope))} AND direction = 'outbound'
              GROUP BY account_id) m
       JOIN accounts a ON a.id = m.account_id
      ORDER BY m.n DESC, a.name, a.id
      LIMIT ${TOP_ACCOUNTS}`,
    periodBind(scope, from, to),
  );
  return found.map(
    (r) =>
      ({
        account: { id: r.id, name: r.name },
        messages: Number(r.n),
        ...Object.fromEntries(keys.map((k) => [k, Number(r[k])])),
        cost: Number(r.cost),
        currency: r.currency,
      }) as AccountFigures<K>,
  );
}
