/**
 * The one WHERE of every channel's history list (SMS api/sms/history.ts, WhatsApp
 * api/whatsapp/history.ts, e-mail api/email/history.ts, and platform staff's histories over every
 * account): one channel's messages of a range of São Paulo days [gte 00:00, lte + 1 day 00:00) —
 * so only those months' partitions are read (ADR 029) — filtered by id, status, sender,
 * recipient and provider, each value bound, never written into the statement. `after` continues
 * a keyset page ordered by (created_at, id).
 *
 * Bind order: $1 the account (null with `accountId: null`: every account), $2 first day, $3 last
 * day, then the filters in the order given.
 */
// Read at call time only: api/sms/history.ts imports this module too.
import { HISTORY_TIME_ZONE } from "../sms/history";
import { keyset } from "../lib/page";

/** The channels whose messages a history lists (rows of the one `messages` table). */
export type HistoryChannel = "sms" | "whatsapp" | "email" | "rcs";

export type HistoryFilter = {
  /** null: every account's messages (platform staff only; the caller checks who asks). */
  accountId: string | null;
  channel: HistoryChannel;
  /** First and last São Paulo day, YYYY-MM-DD. */
  gte: string;
  lte: string;
  id?: string | null;
  status?: string | null;
  /** The sender column, exact. */
  from?: string | null;
  /** The recipient column, exact. */
  to?: string | null;
  provider?: string | null;
  /** The message type (RCS: text, link, midia, card, card-carousel), exact. */
  type?: string | null;
};

export type HistoryWhere = {
  /** The conditions, to join with AND. */
  where: string[];
  bind: unknown[];
  /** Adds one bound condition: `sql` gets the placeholder ($n) of `value`. */
  add: (sql: (placeholder: string) => string, value: unknown) => void;
};

const CHANNELS: readonly HistoryChannel[] = ["sms", "whatsapp", "email", "rcs"];

/** The history's conditions and binds for `f` (see the module's comment for the bind order). */
export function historyWhere(f: HistoryFilter): HistoryWhere {
  // The channel is one of the known literals (checked), so it is written into the statement: the partial indexes by channel match it.
  if (!CHANNELS.includes(f.channel)) throw new Error(`unknown history channel ${f.channel}`);
  const bind: unknown[] = [f.accountId, f.gte, f.lte];
  const where = [
    f.accountId === null ? "$1::uuid IS NULL" : "account_id = $1",
    `channel = '${f.channel}'`,
    `created_at >= ($2::date)::timestamp AT TIME ZONE '${HISTORY_TIME_ZONE}'`,
    `created_at < ($3::date + 1)::timestamp AT TIME ZONE '${HISTORY_TIME_ZONE}'`,
  ];
  const add = (sql: (n: string) => string, value: unknown) => {
    bind.push(value);
    where.push(sql(`$${bind.length}`));
  };
  if (f.provider) add((n) => `provider = ${n}`, f.provider);
  if (f.id) add((n) => `id = ${n}::uuid`, f.id);
  if (f.status) add((n) => `status = ${n}`, f.status);
  if (f.from) add((n) => `sender = ${n}`, f.from);
  if (f.to) add((n) => `recipient = ${n}`, f.to);
  if (f.type) add((n) => `type = ${n}`, f.type);
  return { where, bind, add };
}

/**
 * One keyset page of a history: `columns` of the rows matching `f` after `after` ([position,
 * id] of the last row shown), newest first unless `desc` is false, `limit + 1` rows (so
 * api/lib/page.ts keyset knows whether there is a next page).
 */
export function historyPageSql(f: HistoryFilter, columns: string, opts: { after: [string, string] | null; desc: boolean; limit: number }): { sql: string; bind: unknown[] } {
  const { where, bind } = historyWhere(f);
  if (opts.after) {
    bind.push(opts.after[0], opts.after[1]);
    where.push(`(created_at, id) ${opts.desc ? "<" : ">"} ($${bind.length - 1}::timestamptz, $${bind.length}::uuid)`);
  }
  bind.push(opts.limit + 1);
  const dir = opts.desc ? "DESC" : "ASC";
  return { sql: `SELECT ${columns} FROM messages WHERE ${where.join(" AND ")} ORDER BY created_at ${dir}, id ${dir} LIMIT $${bind.length}`, bind };
}

/** A history page's raw row: the columns as stored, its keyset position and (platform staff's lists) its account's name. */
type RawHistoryRow = { id: string; position: string; sender: string; recipient: string; price: string | number; currency: string; account_name: string | null };

/**
 * A keyset page of `limit` out of historyPageSql's `limit + 1` rows, each as the API answers it:
 * `from`/`to` (the sender and recipient), the price a number, the currency trimmed, the account's
 * name ("" when not asked for). The WhatsApp and RCS histories share it.
 */
export function historyKeysetPage<R extends RawHistoryRow>(found: R[], limit: number) {
  return keyset(
    found,
    limit,
    (r) => [r.position, r.id],
    ({ position: _p, sender, recipient, price, currency, account_name, ...m }) => ({
      ...m,
      from: sender,
      to: recipient,
      price: Number(price),
      currency: currency.trim(),
      account_name: account_name ?? "",
    }),
  );
}
