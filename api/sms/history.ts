/**
 * SMS history (GET /api/sms/messages; spec sections 2, 5 and 7): the account's SMS of a date range
 * (São Paulo days, at most 31, default today), filtered by id, status, sender and recipient,
 * newest first (created_at, id), `limit` a page (50 by default, at most 200). Each row names its
 * sender and recipient `from`/`to` (the spec's names; `sender`/`recipient` stay as aliases).
 *
 * Two ways to page, both on the index messages(account_id, created_at DESC, id DESC):
 *   - `page` alone: OFFSET (page - 1) × 50, fine for the first pages a person clicks through;
 *   - `cursor` (the `next_cursor` of the previous answer): keyset, WHERE (created_at, id) < (…),
 *     so page 5,000 costs what page 1 costs. The cursor carries the exact position (microseconds)
 *     and the number of the page it opens; the filters must be sent again with it.
 * `last_page` comes from a count capped at 10,000 rows (`total_capped` says when the cap was hit):
 * a huge range still answers fast, and the cursor keeps going past the last counted page.
 * The date range applies to every filter, the id too.
 */
import { MESSAGE_STATUSES } from "../../models/constants";
import { normalizePhone } from "../contacts/phone";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { MAX_LIMIT } from "../lib/page";
import { intParam, pageParam, validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { historyWhere } from "../messages/history-query";
// Lag-tolerant reads (ADR 030): this module's queries run on the read replica while it is healthy.
import { replicaRows as rows } from "../lib/sql";

export const HISTORY_PAGE_SIZE = 50;
export const HISTORY_MAX_DAYS = 31;
/** Rows counted for `last_page` at most. */
export const HISTORY_COUNT_CAP = 10_000;
export const HISTORY_TIME_ZONE = "America/Sao_Paulo";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Today in São Paulo as YYYY-MM-DD. */
export function saoPauloToday(now = new Date()) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: HISTORY_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** A real calendar day (2026-02-30 is not). */
function isDay(v: string) {
  if (!DAY.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

const dayDiff = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

type Cursor = { t: string; i: string; p: number; d: "desc" | "asc" };

function encodeCursor(c: Cursor) {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

function decodeCursor(raw: string): Cursor | null {
  try {
    const c = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (typeof c?.t !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(c.t)) return null;
    if (typeof c.i !== "string" || !UUID.test(c.i)) return null;
    if (!Number.isInteger(c.p) || c.p < 2) return null;
    if (c.d !== "desc" && c.d !== "asc") return null;
    return c as Cursor;
  } catch {
    return null;
  }
}

const optionalText = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => (v ?? "").trim());

/**
 * The filters. The API sends the range as the flat keys `created_at[gte]` / `created_at[lte]`; a
 * form or a caller may send `created_at: { gte, lte }`. Errors are reported at created_at.gte/lte.
 */
export const smsHistorySchema = z.preprocess(
  (raw) => {
    const input = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    const nested = (input.created_at && typeof input.created_at === "object" ? input.created_at : {}) as Record<string, unknown>;
    return { ...input, created_at: { gte: nested.gte ?? input["created_at[gte]"], lte: nested.lte ?? input["created_at[lte]"] } };
  },
  z
    .object({
      id: optionalText.superRefine((v, ctx) => {
        if (v && !UUID.test(v)) ctx.addIssue({ code: "custom", message: "validation.invalid" });
      }),
      status: optionalText.superRefine((v, ctx) => {
        if (v && !(MESSAGE_STATUSES as readonly string[]).includes(v)) ctx.addIssue({ code: "custom", message: "validation.option" });
      }),
      from: optionalText,
      to: optionalText.transform((v, ctx) => {
        if (!v) return "";
        const e164 = normalizePhone(v);
        if (!e164) ctx.addIssue({ code: "custom", message: "validation.phone" });
        return e164 ?? "";
      }),
      created_at: z.object({
        gte: optionalText.superRefine((v, ctx) => {
          if (v && !isDay(v)) ctx.addIssue({ code: "custom", message: "validation.date" });
        }),
        lte: optionalText.superRefine((v, ctx) => {
          if (v && !isDay(v)) ctx.addIssue({ code: "custom", message: "validation.date" });
        }),
      }),
      order_by: optionalText.superRefine((v, ctx) => {
        if (v && v !== "created_at") ctx.addIssue({ code: "custom", message: "validation.option" });
      }),
      order: optionalText.superRefine((v, ctx) => {
        if (v && v !== "desc" && v !== "asc") ctx.addIssue({ code: "custom", message: "validation.option" });
      }),
      page: pageParam(),
      /** Page size (api/lib/page.ts): 1..200, 50 by default. */
      limit: intParam(1, MAX_LIMIT, HISTORY_PAGE_SIZE),
      cursor: optionalText.transform((v, ctx) => {
        if (!v) return null;
        const c = decodeCursor(v);
        if (!c) ctx.addIssue({ code: "custom", message: "validation.invalid" });
        return c;
      }),
    })
    .superRefine((v, ctx) => {
      // Defaults: today for a missing end; the end's day for a missing start.
      const lte = v.created_at.lte || saoPauloToday();
      const gte = v.created_at.gte || (v.created_at.lte ? lte : saoPauloToday());
      if (!isDay(gte) || !isDay(lte)) return;
      const span = dayDiff(gte, lte);
      if (span < 0) ctx.addIssue({ code: "custom", path: ["created_at", "lte"], message: "validation.invalid" });
      else if (span + 1 > HISTORY_MAX_DAYS) ctx.addIssue({ code: "custom", path: ["created_at", "lte"], message: `validation.maxRange::${HISTORY_MAX_DAYS}` });
      const direction = v.order === "asc" ? "asc" : "desc";
      if (v.cursor && v.cursor.d !== direction) ctx.addIssue({ code: "custom", path: ["cursor"], message: "validation.invalid" });
    }),
);

export type SmsHistoryItem = {
  id: string;
  created_at: Date;
  scheduled_at: Date | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  direction: string;
  /** 'text' or 'location'. */
  type: string;
  /** The sender (the spec's name). */
  from: string;
  /** The recipient, E.164 (the spec's name). */
  to: string;
  /** @deprecated alias of from */
  sender: string;
  /** @deprecated alias of to */
  recipient: string;
  body: string;
  segments: number;
  coding: string | null;
  status: string;
  route: string | null;
  price: number;
  currency: string;
  error_code: string | null;
  error_message: string | null;
};

export type SmsHistoryPage = {
  data: SmsHistoryItem[];
  page: number;
  last_page: number;
  /** Rows counted for last_page, at most 10,000. */
  total: number;
  total_capped: boolean;
  /** Opaque: send it back (with the same filters) for the next page; null on the last page. */
  next_cursor: string | null;
  /** The São Paulo days the answer covers. */
  created_at: { gte: string; lte: string };
};

type Row = Omit<SmsHistoryItem, "price" | "currency" | "from" | "to"> & { price: string; currency: string; position: string };

/**
 * The SQL of one history page and of its capped count, exported so tests/integration/partitions.test.ts
 * EXPLAINs exactly what the API runs: created_at is bounded by the São Paulo days [gte, lte], so only
 * their monthly partitions are scanned (ADR 029).
 */
export function smsHistoryQueries(accountId: string, q: z.infer<typeof smsHistorySchema>) {
  const lte = q.created_at.lte || saoPauloToday();
  const gte = q.created_at.gte || (q.created_at.lte ? lte : saoPauloToday());
  const direction: "asc" | "desc" = q.order === "asc" ? "asc" : "desc";

  // $1 account, $2 first day, $3 last day (both São Paulo): [gte 00:00:00, lte + 1 day 00:00:00); the filters after (api/messages/history-query.ts).
  const { where, bind } = historyWhere({ accountId, channel: "sms", gte, lte, id: q.id, status: q.status, from: q.from, to: q.to });
  const filtered = [...where];
  const countBind = [...bind];

  const size = q.limit;
  let page = q.page;
  let offset = (page - 1) * size;
  if (q.cursor) {
    page = q.cursor.p;
    offset = 0;
    bind.push(q.cursor.t, q.cursor.i);
    const cmp = direction === "desc" ? "<" : ">";
    where.push(`(created_at, id) ${cmp} ($${bind.length - 1}::timestamptz, $${bind.length}::uuid)`);
  }
  bind.push(size + 1, offset);
  const dir = direction === "desc" ? "DESC" : "ASC";
  return {
    gte,
    lte,
    direction,
    page,
    size,
    list: {
      sql: `SELECT id, created_at, scheduled_at, sent_at, delivered_at, direction, type, sender, recipient, body, segments, coding, status, route,
              price, currency, error_code, error_message,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
         FROM messages
        WHERE ${where.join(" AND ")}
        ORDER BY created_at ${dir}, id ${dir}
        LIMIT $${bind.length - 1} OFFSET $${bind.length}`,
      bind,
    },
    // In the page's index order: the capped count walks at most 10,001 entries of the newest months'
    // indexes and stops. Without an order the planner may pick a parallel scan of every partition in the
    // range, whose worker start alone cost ~200 ms on the loaded bench machine (ADR 029).
    count: {
      sql: `SELECT count(*) AS n FROM (SELECT 1 FROM messages WHERE ${filtered.join(" AND ")} ORDER BY created_at ${dir}, id ${dir} LIMIT ${HISTORY_COUNT_CAP + 1}) s`,
      bind: countBind,
    },
  };
}

export async function listSmsMessages(ctx: SignedInCtx, query: unknown = {}): Promise<SmsHistoryPage> {
  if (!can(ctx.actor, "/sms/history")) throw new AppError("FORBIDDEN");
  const q = validate(smsHistorySchema, query);
  const { gte, lte, direction, page, size, list, count } = smsHistoryQueries(ctx.actor.accountId, q);
  const [found, [counted]] = await Promise.all([rows<Row>(list.sql, list.bind), rows<{ n: string }>(count.sql, count.bind)]);

  const more = found.length > size;
  const shown = found.slice(0, size);
  const n = Number(counted.n);
  const capped = n > HISTORY_COUNT_CAP;
  const total = Math.min(n, HISTORY_COUNT_CAP);
  const last = shown[shown.length - 1];
  return {
    data: shown.map(({ position: _position, price, currency, ...m }) => ({ ...m, from: m.sender, to: m.recipient, price: Number(price), currency: currency.trim() })),
    page,
    last_page: Math.max(1, Math.ceil(total / size)),
    total,
    total_capped: capped,
    next_cursor: more && last ? encodeCursor({ t: last.position, i: last.id, p: page + 1, d: direction }) : null,
    created_at: { gte, lte },
  };
}
