/**
 * E-mail insights (issue 17; spec section 7 POST /email/insights, /email/insights/events; screens
 * /mail/insights and platform staff's /admin/email/reports/insights; ADR 039).
 *
 * A period of São Paulo days {from, to} (at most 31 days, HISTORY_MAX_DAYS; default today), and
 * optionally one campaign:
 * - sent and delivered count the e-mails created in the period (sent: the relay took it, `sent_at`,
 *   or it went further; delivered: delivered, opened or clicked — an opened e-mail was delivered);
 * - opens and clicks count the engagement events of the period (every one, `email_engagements`), the
 *   unique ones the distinct e-mails among them; rates are unique opens (clicks) over delivered, and
 *   unique clicks over unique opens (click-to-open); 0 when there is nothing to divide by;
 * - by day (São Paulo), by the recipient's domain (the BY_DOMAIN with the most e-mails sent) and the
 *   click map (per link: clicks, unique; the CLICK_MAP most clicked).
 * Scope: the actor's account; platform staff's functions (`adminEmailInsights`) every account or one.
 * Lag-tolerant reads on the replica (ADR 030).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { replicaRow, replicaRows as rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { assertStaff } from "../messages/admin-reports";
import { can } from "../policy/policy";
import { HISTORY_TIME_ZONE } from "../sms/history";
import { daysOf, rangeSchema } from "../sms/reports";

export const BY_DOMAIN = 50;
export const CLICK_MAP = 100;
export const INSIGHTS_MAX_DAYS = 31;

export const EMAIL_INSIGHTS_SCREENS = { account: "/mail/insights", admin: "/admin/email/reports/insights" } as const;

type Figures = { sent: number; delivered: number; opens: number; unique_opens: number; clicks: number; unique_clicks: number };
export type InsightTotals = Figures & { open_rate: number; click_rate: number; click_to_open_rate: number };
export type InsightDay = Figures & { day: string };
export type InsightDomain = Figures & { domain: string };
export type ClickMapRow = { url: string; clicks: number; unique: number };
export type EmailInsights = {
  from: string;
  to: string;
  campaign_id: string | null;
  account: { id: string; name: string } | null;
  totals: InsightTotals;
  days: InsightDay[];
  domains: InsightDomain[];
  links: ClickMapRow[];
};
export type EngagementEvent = {
  id: string;
  message_id: string;
  campaign_id: string | null;
  kind: "open" | "click";
  url: string | null;
  recipient_domain: string;
  created_at: Date;
};

const TZ = `'${HISTORY_TIME_ZONE}'`;
const optionalUuid = () =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim() || null)
    .superRefine((v, ctx) => {
      if (v && !UUID.test(v)) ctx.addIssue({ code: "custom", message: "validation.invalid" });
    });
const filterSchema = z.object({ campaign_id: optionalUuid() });
const accountSchema = z.object({ account_id: optionalUuid() });
const eventsSchema = z.object({ kind: z.enum(["open", "click"], { message: "validation.option" }).optional(), ...pageInput });

/** Whose figures: one account's (null: every account, platform staff only) and optionally one campaign's. */
type Scope = { accountId: string | null; campaignId: string | null };

/** WHERE of the scope and period over a table (`at` its time column); binds $1 from, $2 to, then account and campaign. */
function where(scope: Scope, at: string, bind: unknown[]): string {
  const parts = [`${at} >= ($1::date)::timestamp AT TIME ZONE ${TZ}`, `${at} < ($2::date + 1)::timestamp AT TIME ZONE ${TZ}`];
  if (scope.accountId) {
    bind.push(scope.accountId);
    parts.push(`account_id = $${bind.length}`);
  }
  if (scope.campaignId) {
    bind.push(scope.campaignId);
    parts.push(`campaign_id = $${bind.length}`);
  }
  return parts.join(" AND ");
}

const SENT = `count(*) FILTER (WHERE sent_at IS NOT NULL OR status IN ('delivered','opened','clicked','read'))`;
const DELIVERED = `count(*) FILTER (WHERE status IN ('delivered','opened','clicked','read'))`;
const ENGAGED = `count(*) FILTER (WHERE kind = 'open') AS opens, count(DISTINCT message_id) FILTER (WHERE kind = 'open') AS unique_opens,
                 count(*) FILTER (WHERE kind = 'click') AS clicks, count(DISTINCT message_id) FILTER (WHERE kind = 'click') AS unique_clicks`;

type Counted = Partial<Record<keyof Figures, string | number>>;
const figures = (m?: Counted, e?: Counted): Figures => ({
  sent: Number(m?.sent ?? 0),
  delivered: Number(m?.delivered ?? 0),
  opens: Number(e?.opens ?? 0),
  unique_opens: Number(e?.unique_opens ?? 0),
  clicks: Number(e?.clicks ?? 0),
  unique_clicks: Number(e?.unique_clicks ?? 0),
});
const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : 0);

async function insightsOf(scope: Scope, from: string, to: string): Promise<Omit<EmailInsights, "account" | "campaign_id" | "from" | "to">> {
  const mb: unknown[] = [from, to];
  const mWhere = `${where(scope, "created_at", mb)} AND channel = 'email' AND direction = 'outbound'`;
  const eb: unknown[] = [from, to];
  const eWhere = where(scope, "created_at", eb);
  const day = `to_char((created_at AT TIME ZONE ${TZ})::date, 'YYYY-MM-DD')`;
  const [mDays, eDays, mDomains, eDomains, links] = await Promise.all([
    rows<Counted & { day: string }>(`SELECT ${day} AS day, ${SENT} AS sent, ${DELIVERED} AS delivered FROM messages WHERE ${mWhere} GROUP BY 1`, mb),
    rows<Counted & { day: string }>(`SELECT ${day} AS day, ${ENGAGED} FROM email_engagements WHERE ${eWhere} GROUP BY 1`, eb),
    rows<Counted & { domain: string }>(
      `SELECT split_part(recipient, '@', 2) AS domain, ${SENT} AS sent, ${DELIVERED} AS delivered FROM messages WHERE ${mWhere}
        GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${BY_DOMAIN}`,
      mb,
    ),
    rows<Counted & { domain: string }>(`SELECT recipient_domain AS domain, ${ENGAGED} FROM email_engagements WHERE ${eWhere} GROUP BY 1`, eb),
    rows<{ url: string; clicks: string; unique: string }>(
      `SELECT url, count(*) AS clicks, count(DISTINCT message_id) AS unique FROM email_engagements WHERE ${eWhere} AND kind = 'click'
        GROUP BY url ORDER BY 2 DESC, 3 DESC, url LIMIT ${CLICK_MAP}`,
      eb,
    ),
  ]);
  // Totals over the whole period (unique counts are not sums of the days').
  const [mTotal, eTotal] = await Promise.all([
    replicaRow<Counted>(`SELECT ${SENT} AS sent, ${DELIVERED} AS delivered FROM messages WHERE ${mWhere}`, mb),
    replicaRow<Counted>(`SELECT ${ENGAGED} FROM email_engagements WHERE ${eWhere}`, eb),
  ]);
  const total = figures(mTotal ?? undefined, eTotal ?? undefined);
  const mByDay = new Map(mDays.map((d) => [d.day, d]));
  const eByDay = new Map(eDays.map((d) => [d.day, d]));
  const eByDomain = new Map(eDomains.map((d) => [d.domain, d]));
  const domains = mDomains.map((d) => ({ domain: d.domain, ...figures(d, eByDomain.get(d.domain)) }));
  return {
    totals: {
      ...total,
      open_rate: ratio(total.unique_opens, total.delivered),
      click_rate: ratio(total.unique_clicks, total.delivered),
      click_to_open_rate: ratio(total.unique_clicks, total.unique_opens),
    },
    days: daysOf(from, to).map((d) => ({ day: d, ...figures(mByDay.get(d), eByDay.get(d)) })),
    domains,
    links: links.map((l) => ({ url: l.url, clicks: Number(l.clicks), unique: Number(l.unique) })),
  };
}

const obj = (input: unknown) => (input && typeof input === "object" ? (input as Record<string, unknown>) : {});

function periodOf(input: unknown) {
  const o = obj(input);
  return { ...validate(rangeSchema("today"), { from: o.from, to: o.to }), ...validate(filterSchema, { campaign_id: o.campaign_id }) };
}

/** POST /api/email/insights and /mail/insights: the account's figures of a period. */
export async function emailInsights(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: EmailInsights }> {
  if (!can(ctx.actor, EMAIL_INSIGHTS_SCREENS.account)) throw new AppError("FORBIDDEN");
  const { from, to, campaign_id } = periodOf(input);
  const scope = { accountId: ctx.actor.accountId, campaignId: campaign_id };
  return { data: { from, to, campaign_id, account: null, ...(await insightsOf(scope, from, to)) } };
}

/** FORBIDDEN unless the actor is platform staff who may open the admin screen (`path`: one of the e-mail staff screens, default the insights). */
export function assertEmailStaff(ctx: SignedInCtx, path: string = EMAIL_INSIGHTS_SCREENS.admin) {
  assertStaff(ctx, path);
}

/** Platform staff: the same figures over every account, or one (`account_id`; an unknown id is a field error). */
export async function adminEmailInsights(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: EmailInsights }> {
  assertEmailStaff(ctx);
  const { from, to, campaign_id } = periodOf(input);
  const { account_id } = validate(accountSchema, { account_id: obj(input).account_id });
  const account = account_id ? await replicaRow<{ id: string; name: string }>(`SELECT id, name FROM accounts WHERE id = $1`, [account_id]) : null;
  if (account_id && !account) throw new AppError("VALIDATION", { fields: { account_id: ["validation.option"] } });
  return { data: { from, to, campaign_id, account, ...(await insightsOf({ accountId: account_id, campaignId: campaign_id }, from, to)) } };
}

/** POST /api/email/insights/events: the account's opens and clicks of a period, newest first, a keyset page. */
export async function emailEngagementEvents(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: EngagementEvent[]; next_cursor: string | null }> {
  if (!can(ctx.actor, EMAIL_INSIGHTS_SCREENS.account)) throw new AppError("FORBIDDEN");
  const { from, to, campaign_id } = periodOf(input);
  const o = obj(input);
  const q = validate(eventsSchema, { kind: o.kind === "" || o.kind === null ? undefined : o.kind, cursor: o.cursor ?? undefined, limit: o.limit ?? undefined });
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const bind: unknown[] = [from, to];
  let sql = where({ accountId: ctx.actor.accountId, campaignId: campaign_id }, "created_at", bind);
  if (q.kind) {
    bind.push(q.kind);
    sql += ` AND kind = $${bind.length}`;
  }
  if (after) {
    bind.push(after[0], after[1]);
    sql += ` AND (created_at, id) < ($${bind.length - 1}::timestamptz, $${bind.length}::bigint)`;
  }
  bind.push(q.limit + 1);
  const found = await rows<EngagementEvent & { position: string }>(
    `SELECT id::text AS id, message_id, campaign_id, kind, url, recipient_domain, created_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
       FROM email_engagements WHERE ${sql} ORDER BY created_at DESC, id DESC LIMIT $${bind.length}`,
    bind,
  );
  return keyset(
    found,
    q.limit,
    (r) => [r.position, r.id],
    ({ position: _p, ...r }) => r,
  );
}
