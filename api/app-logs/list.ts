/**
 * /admin/logs (issue 23, ADR 062): the application errors and provider failures of app_logs,
 * newest first by keyset, searchable by text (code or message), source, account and São Paulo
 * days. Platform staff only (policy route /admin/logs).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { escapeLike, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { HISTORY_TIME_ZONE } from "../sms/history";
import { APP_LOG_SOURCES } from "./constants";

const TZ = `'${HISTORY_TIME_ZONE}'`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day (2026-02-31 is not). */
const isDay = (v: string) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

const text = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim())
    .refine((v) => v.length <= max, { message: `validation.max::${max}` });
const day = text(10).refine((v) => !v || isDay(v), { message: "validation.date" });

export const appLogQuerySchema = z
  .object({
    q: text(100),
    source: text(20).refine((v) => !v || (APP_LOG_SOURCES as readonly string[]).includes(v), { message: "validation.option" }),
    account: text(36).refine((v) => !v || UUID.test(v), { message: "validation.invalid" }),
    from: day,
    to: day,
    ...pageInput,
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { path: ["to"], message: "validation.invalid" });

export function assertLogsReader(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/admin/logs")) throw new AppError("FORBIDDEN");
}

type LogRow = {
  id: string;
  source: string;
  code: string;
  message: string;
  account_id: string | null;
  account_name: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
};

export async function listAppLogs(ctx: SignedInCtx, query: unknown) {
  assertLogsReader(ctx);
  const q = validate(appLogQuerySchema, query ?? {});
  const after = decodeCursor(q.cursor, ["number"]);
  const bind: unknown[] = [];
  const where: string[] = ["true"];
  const add = (sql: (n: number) => string, v: unknown) => {
    bind.push(v);
    where.push(sql(bind.length));
  };
  if (q.q) add((n) => `(l.code ILIKE $${n} OR l.message ILIKE $${n} OR l.detail::text ILIKE $${n})`, `%${escapeLike(q.q)}%`);
  if (q.source) add((n) => `l.source = $${n}`, q.source);
  if (q.account) add((n) => `l.account_id = $${n}::uuid`, q.account);
  if (q.from) add((n) => `l.created_at >= ($${n}::date)::timestamp AT TIME ZONE ${TZ}`, q.from);
  if (q.to) add((n) => `l.created_at < ($${n}::date + 1)::timestamp AT TIME ZONE ${TZ}`, q.to);
  if (after) add((n) => `l.id < $${n}::bigint`, after[0]);
  bind.push(q.limit + 1);
  // Ordered by id: the identity follows the insert order, and the table is bounded (ADR 062).
  const found = await rows<LogRow>(
    `SELECT l.id, l.source, l.code, l.message, l.account_id, a.name AS account_name, l.detail, l.created_at
     FROM app_logs l LEFT JOIN accounts a ON a.id = l.account_id
     WHERE ${where.join(" AND ")} ORDER BY l.id DESC LIMIT $${bind.length}`,
    bind,
  );
  return keyset(
    found,
    q.limit,
    (r) => [Number(r.id)],
    (r) => ({
      id: Number(r.id),
      source: r.source as (typeof APP_LOG_SOURCES)[number],
      code: r.code,
      message: r.message,
      account_id: r.account_id,
      account_name: r.account_name,
      detail: r.detail,
      created_at: new Date(r.created_at).toISOString(),
    }),
  );
}
