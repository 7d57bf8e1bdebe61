/**
 * /admin/audit and /admin/audit/insights (issue 23, ADR 062): the audit trail of every account the
 * person administers — platform staff every account, a reseller's owner or admin its own and its
 * customers' (parent_account_id), anyone else 403 — filtered by account, user, action and São
 * Paulo days, newest first by keyset; each entry's before/after as a readable list of changes.
 * Insights: entries per São Paulo day, per action type and per user, over a range of days.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { keyset, pageInput, decodeCursor } from "../lib/page";
import { rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can, isPlatformStaff } from "../policy/policy";
import { addDays, daysOf, rangeSchema } from "../sms/reports";
import { HISTORY_TIME_ZONE } from "../sms/history";
import { auditDescription } from "../audit/list";
import { POSITION_SQL } from "../sms/cursor";

const TZ = `'${HISTORY_TIME_ZONE}'`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day (2026-02-31 is not). */
const isDay = (v: string) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Whose entries the actor reads: every account's (platform staff), or a reseller's own and its customers'. */
export type AuditScope = { reseller: string | null };

export function auditScope(ctx: SignedInCtx): AuditScope {
  if (!can(ctx.actor, "/admin/audit")) throw new AppError("FORBIDDEN");
  if (isPlatformStaff(ctx.actor)) return { reseller: null };
  if (ctx.actor.accountType === "reseller") return { reseller: ctx.actor.accountId };
  throw new AppError("FORBIDDEN");
}

/** The accounts a reseller scope covers, as SQL on `col` with the reseller id bound at `$n` (always true for staff: $n null). */
const scopeSql = (col: string, n: number) => `($${n}::uuid IS NULL OR ${col} IN (SELECT id FROM accounts WHERE id = $${n}::uuid OR parent_account_id = $${n}::uuid))`;

const optionalText = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim())
    .refine((v) => v.length <= max, { message: `validation.max::${max}` });

const filters = {
  account: optionalText(36).refine((v) => !v || UUID.test(v), { message: "validation.invalid" }),
  /** An e-mail (exact, any case) or a user id. */
  user: optionalText(254),
  /** One action (users.invited), or every action under a prefix ending in a dot (auth.). */
  action: optionalText(60).refine((v) => /^[a-z0-9_.]*$/.test(v), { message: "validation.invalid" }),
};

const optionalDay = optionalText(10).refine((v) => !v || isDay(v), { message: "validation.date" });

export const adminAuditQuerySchema = z
  .object({ ...filters, from: optionalDay, to: optionalDay, ...pageInput })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { path: ["to"], message: "validation.invalid" });

export type AuditChange = { field: string; before: string | null; after: string | null };

const show = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
};

/**
 * An entry's meta as changes (field, before, after), the way it was written: `before`/`after`
 * objects (the fields that differ), `changes` ({field: {from, to}}), `from`/`to`, a `previousX`
 * beside its `X`; every other field is a fact of the action (before empty).
 */
export function auditChanges(meta: Record<string, unknown> | null | undefined): AuditChange[] {
  const m = { ...(meta ?? {}) };
  const out: AuditChange[] = [];
  const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
  const before = obj(m.before);
  const after = obj(m.after);
  if (before || after) {
    for (const k of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
      const b = show(before?.[k]);
      const a = show(after?.[k]);
      if (b !== a) out.push({ field: k, before: b, after: a });
    }
    delete m.before;
    delete m.after;
  }
  const changes = obj(m.changes);
  if (changes) {
    for (const [k, v] of Object.entries(changes)) {
      const c = obj(v);
      out.push(c && ("from" in c || "to" in c) ? { field: k, before: show(c.from), after: show(c.to) } : { field: k, before: null, after: show(v) });
    }
    delete m.changes;
  }
  if ("from" in m || "to" in m) {
    out.push({ field: "value", before: show(m.from), after: show(m.to) });
    delete m.from;
    delete m.to;
  }
  for (const k of Object.keys(m)) {
    const p = /^previous([A-Z].*)$/.exec(k);
    if (!p) continue;
    const field = p[1][0].toLowerCase() + p[1].slice(1);
    out.push({ field, before: show(m[k]), after: show(m[field]) });
    delete m[k];
    delete m[field];
  }
  for (const [k, v] of Object.entries(m)) out.push({ field: k, before: null, after: show(v) });
  return out;
}

type EntryRow = {
  id: string;
  action: string;
  account_id: string | null;
  account_name: string | null;
  user_id: string | null;
  user_email: string | null;
  ip: string | null;
  meta: Record<string, unknown>;
  created_at: Date;
  position: string;
};

/** The user filter's SQL: an id, or an e-mail (any case); $n bound to it. */
const userSql = (n: number) => `(a.user_id::text = $${n} OR a.user_id IN (SELECT id FROM users WHERE lower(email) = lower($${n})))`;

export async function listAdminAudit(ctx: SignedInCtx, query: unknown, locale = "pt-BR") {
  const scope = auditScope(ctx);
  const q = validate(adminAuditQuerySchema, query ?? {});
  const after = decodeCursor(q.cursor, ["string", "number"]);
  if (after && !POSITION.test(String(after[0]))) throw new AppError("VALIDATION", { fields: { cursor: ["validation.invalid"] } });
  const bind: unknown[] = [scope.reseller];
  const where = [scopeSql("a.account_id", 1)];
  // Platform staff also see entries of no account (a failed sign-in of an unknown e-mail); a reseller only its accounts'.
  if (scope.reseller) where.push("a.account_id IS NOT NULL");
  const add = (sql: (n: number) => string, v: unknown) => {
    bind.push(v);
    where.push(sql(bind.length));
  };
  if (q.account) add((n) => `a.account_id = $${n}::uuid`, q.account);
  if (q.user) add(userSql, q.user);
  if (q.action) add((n) => (q.action.endsWith(".") ? `starts_with(a.action, $${n})` : `a.action = $${n}`), q.action);
  if (q.from) add((n) => `a.created_at >= ($${n}::date)::timestamp AT TIME ZONE ${TZ}`, q.from);
  if (q.to) add((n) => `a.created_at < ($${n}::date + 1)::timestamp AT TIME ZONE ${TZ}`, q.to);
  if (after) {
    bind.push(after[0], after[1]);
    where.push(`(a.created_at, a.id) < ($${bind.length - 1}::timestamptz, $${bind.length}::bigint)`);
  }
  bind.push(q.limit + 1);
  const found = await rows<EntryRow>(
    `SELECT a.id, a.action, a.account_id, acc.name AS account_name, a.user_id, u.email AS user_email, host(a.ip) AS ip, a.meta, a.created_at, ${POSITION_SQL("a.created_at")} AS position
     FROM audit_logs a LEFT JOIN accounts acc ON acc.id = a.account_id LEFT JOIN users u ON u.id = a.user_id
     WHERE ${where.join(" AND ")} ORDER BY a.created_at DESC, a.id DESC LIMIT $${bind.length}`,
    bind,
  );
  return keyset(
    found,
    q.limit,
    (r) => [r.position, Number(r.id)],
    (r) => ({
      id: Number(r.id),
      action: r.action,
      description: auditDescription(locale, r.action),
      account_id: r.account_id,
      account_name: r.account_name,
      user_id: r.user_id,
      user_email: r.user_email,
      ip: r.ip,
      changes: auditChanges(r.meta),
      created_at: new Date(r.created_at).toISOString(),
    }),
  );
}

/** Insights: at most this many action types and users (the busiest), the rest summed as "others". */
export const INSIGHTS_TOP = 20;

export const insightsFilterSchema = z.object({ account: filters.account, user: filters.user });
const insightsRange = rangeSchema("last30");

type Series = { key: string; label: string; counts: number[]; total: number };

function series(list: Array<{ key: string; label: string; day: string; n: string | number }>, days: string[]): { top: Series[]; others: Series | null } {
  const index = new Map(days.map((d, i) => [d, i]));
  const by = new Map<string, Series>();
  for (const r of list) {
    const s = by.get(r.key) ?? { key: r.key, label: r.label, counts: days.map(() => 0), total: 0 };
    const i = index.get(r.day);
    if (i !== undefined) {
      s.counts[i] += Number(r.n);
      s.total += Number(r.n);
    }
    by.set(r.key, s);
  }
  const all = [...by.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  const rest = all.slice(INSIGHTS_TOP);
  const others = rest.length ? { key: "", label: "", counts: days.map((_, i) => rest.reduce((s, r) => s + r.counts[i], 0)), total: rest.reduce((s, r) => s + r.total, 0) } : null;
  return { top: all.slice(0, INSIGHTS_TOP), others };
}

/** Entries per São Paulo day of a range (at most 31 days, the last 30 by default): in total, per action type, per user. */
export async function auditInsights(ctx: SignedInCtx, query: unknown, locale = "pt-BR") {
  const scope = auditScope(ctx);
  const q = { ...validate(insightsFilterSchema, query ?? {}), ...validate(insightsRange, query ?? {}) };
  const bind: unknown[] = [scope.reseller, q.from, q.to];
  const where = [scopeSql("a.account_id", 1), `a.created_at >= ($2::date)::timestamp AT TIME ZONE ${TZ}`, `a.created_at < ($3::date + 1)::timestamp AT TIME ZONE ${TZ}`];
  if (scope.reseller) where.push("a.account_id IS NOT NULL");
  if (q.account) {
    bind.push(q.account);
    where.push(`a.account_id = $${bind.length}::uuid`);
  }
  if (q.user) {
    bind.push(q.user);
    where.push(userSql(bind.length));
  }
  // One scan, two groupings (per day and action; per day and user): 57k rows at 500k entries a
  // month instead of 190k of every (day, action, user) (bench/admin-reports.mjs).
  const found = await rows<{ day: string; action: string | null; user_id: string | null; email: string | null; by_user: number; n: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, action, user_id, email, GROUPING(action) AS by_user, count(*) AS n
       FROM (SELECT (a.created_at AT TIME ZONE ${TZ})::date AS day, a.action, a.user_id, u.email
               FROM audit_logs a LEFT JOIN users u ON u.id = a.user_id
              WHERE ${where.join(" AND ")}) x
      GROUP BY GROUPING SETS ((day, action), (day, user_id, email))`,
    bind,
  );
  const days = daysOf(q.from, q.to);
  const byAction = found.filter((r) => Number(r.by_user) === 0);
  const byUserRows = found.filter((r) => Number(r.by_user) === 1);
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const perDay = days.map(() => 0);
  for (const r of byAction) {
    const i = dayIndex.get(r.day);
    if (i !== undefined) perDay[i] += Number(r.n);
  }
  const byType = series(
    byAction.map((r) => ({ key: r.action ?? "", label: auditDescription(locale, r.action ?? ""), day: r.day, n: r.n })),
    days,
  );
  const byUser = series(
    byUserRows.map((r) => ({ key: r.user_id ?? "", label: r.email ?? "", day: r.day, n: r.n })),
    days,
  );
  return { from: q.from, to: q.to, days, per_day: perDay, total: perDay.reduce((s, n) => s + n, 0), by_type: byType, by_user: byUser, account: q.account, user: q.user };
}

export { addDays };
