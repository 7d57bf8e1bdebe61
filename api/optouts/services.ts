/**
 * Opt-outs and the deny list of the acting account (the keywords: ./account-keywords). Opt-outs need
 * the /sms/optouts screen of the policy, the deny list /sms/denylist (owner, admin, sales and the
 * unrestricted roles; agent, developer and billing have neither in their allow-lists). Every
 * query is scoped by the acting account. Numbers are stored E.164; adding one that is already
 * there answers the existing entry (adding is idempotent).
 */
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import { formatPhone } from "../contacts/phone";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { encodeCursor, pageInput } from "../lib/page";
import { validate } from "../lib/validate";
import { timeCursor, tsText } from "../contacts/time-cursor";
import { can } from "../policy/policy";
import { addDenySchema, addEmailDenySchema, addEmailOptoutSchema, addOptoutSchema, emailListQuerySchema, listQuerySchema, OPTOUT_CHANNELS } from "./schemas";
import { escapeLike, rows } from "../lib/sql";

export const PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type OptoutSource = "manual" | "keyword" | "api" | "import";
/** `to`/`to_formatted` are the number's documented names (the spec's `to`); `recipient`/`recipient_formatted` their deprecated aliases. */
export type Optout = {
  id: string;
  channel: string;
  to: string;
  to_formatted: string;
  recipient: string;
  recipient_formatted: string;
  source: string;
  keyword: string | null;
  created_at: Date;
};
export type DenyEntry = { id: string; to: string; to_formatted: string; recipient: string; recipient_formatted: string; reason: string; created_at: Date };
type Derived = "to" | "to_formatted" | "recipient_formatted";
/**
 * A page of a list: `next_cursor` always; `page`, `last_page` and `total` (deprecated: the `page`
 * parameter's OFFSET paging, which the web's pager uses) only when no `cursor` was sent.
 */
export type Page<T> = { data: T[]; next_cursor: string | null; page?: number; last_page?: number; total?: number };

function assertOptouts(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/sms/optouts")) throw new AppError("FORBIDDEN");
}

function assertDenyList(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/sms/denylist")) throw new AppError("FORBIDDEN");
}

const numberOf = (recipient: string) => {
  // The deny list and e-mail opt-outs also hold e-mail addresses (migration 0052): shown as they are.
  const formatted = recipient.includes("@") ? recipient : formatPhone(recipient);
  return { to: recipient, to_formatted: formatted, recipient, recipient_formatted: formatted };
};
const optoutOf = (r: Omit<Optout, Derived>): Optout => ({ ...r, ...numberOf(r.recipient) });
const denyOf = (r: Omit<DenyEntry, Derived>): DenyEntry => ({ ...r, ...numberOf(r.recipient) });

const pageQuerySchema = listQuerySchema.extend(pageInput);
const emailPageQuerySchema = emailListQuerySchema.extend(pageInput);

/**
 * One page (newest first: created_at, id) of `table` for the account, optionally filtered by
 * digits of the number. With `cursor` (the `next_cursor` of the previous page) it is a keyset page
 * of `limit` rows; without it, page `page` (1 by default) of `limit` rows by OFFSET with the count
 * (page, last_page, total: the deprecated style the web's pager reads). Either way the answer
 * carries `next_cursor`, null on the last page.
 */
async function page<T extends { id: string }>(
  table: "optouts" | "deny_list",
  columns: string,
  accountId: string,
  input: unknown,
  extra = "",
  search: "digits" | "address" = "digits",
): Promise<Page<T>> {
  const f = validate(search === "address" ? emailPageQuerySchema : pageQuerySchema, input ?? {});
  const after = timeCursor(f.cursor);
  const bind: unknown[] = [accountId];
  let where = `account_id = $1${extra}`;
  if (f.q) {
    bind.push(`%${escapeLike(f.q)}%`);
    where += ` AND recipient LIKE $${bind.length}`;
  }
  const counted = after ? null : rows<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, bind);
  const rowBind = [...bind];
  let rowWhere = where;
  if (after) {
    rowBind.push(...after);
    rowWhere += ` AND (created_at, id) < ($${rowBind.length - 1}::timestamptz, $${rowBind.length}::uuid)`;
  }
  const offset = after ? 0 : (f.page - 1) * f.limit;
  const found = await rows<T & { cursor_ts: string }>(
    `SELECT ${columns}, ${tsText("created_at")} AS cursor_ts FROM ${table} WHERE ${rowWhere}
      ORDER BY created_at DESC, id DESC LIMIT ${f.limit + 1} OFFSET ${offset}`,
    rowBind,
  );
  const data = found.slice(0, f.limit);
  const last = data.at(-1);
  const next_cursor = found.length > f.limit && last ? encodeCursor([last.cursor_ts, last.id]) : null;
  const out = data.map(({ cursor_ts: _c, ...r }) => r as unknown as T);
  if (!counted) return { data: out, next_cursor };
  const n = (await counted)[0]?.n ?? 0;
  return { data: out, next_cursor, page: f.page, last_page: Math.max(1, Math.ceil(n / f.limit)), total: n };
}

// ---- opt-outs ----------------------------------------------------------------------------------

const OPTOUT_COLUMNS = "id, channel, recipient, source, keyword, created_at";

/** One page of the account's opt-outs; `opts.channel` keeps one channel's (the /whatsapp/optouts screen). */
export async function listOptouts(ctx: SignedInCtx, query: unknown = {}, opts: { channel?: (typeof OPTOUT_CHANNELS)[number] } = {}): Promise<Page<Optout>> {
  assertOptouts(ctx);
  if (opts.channel && !OPTOUT_CHANNELS.includes(opts.channel)) throw new AppError("VALIDATION", { fields: { channel: ["validation.option"] } });
  // The channel is one of OPTOUT_CHANNELS (checked above), so it is written into the statement as a literal.
  const p = await page<Omit<Optout, Derived>>("optouts", OPTOUT_COLUMNS, ctx.actor.accountId, query, opts.channel ? ` AND channel = '${opts.channel}'` : "");
  return { ...p, data: p.data.map(optoutOf) };
}

/** One opt-out of the account (NOT_FOUND otherwise). */
export async function getOptout(ctx: SignedInCtx, id: string): Promise<{ data: Optout }> {
  assertOptouts(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const [row] = await rows<Omit<Optout, Derived>>(`SELECT ${OPTOUT_COLUMNS} FROM optouts WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!row) throw new AppError("NOT_FOUND");
  return { data: optoutOf(row) };
}

export async function addOptout(ctx: SignedInCtx, input: unknown, opts: { source?: Exclude<OptoutSource, "keyword"> } = {}): Promise<{ data: Optout; created: boolean }> {
  assertOptouts(ctx);
  const data = validate(addOptoutSchema, input);
  const source = opts.source ?? "manual";
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const inserted = await rows<Omit<Optout, Derived>>(
      `INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, channel, recipient) DO NOTHING RETURNING ${OPTOUT_COLUMNS}`,
      [ctx.actor.accountId, data.channel, data.recipient, source],
      { transaction },
    );
    if (inserted[0]) {
      await recordAudit({ ...ctx, transaction }, "optout.added", { meta: { id: inserted[0].id, channel: data.channel, source } });
      return { data: optoutOf(inserted[0]), created: true };
    }
    const [existing] = await rows<Omit<Optout, Derived>>(
      `SELECT ${OPTOUT_COLUMNS} FROM optouts WHERE account_id = $1 AND channel = $2 AND recipient = $3`,
      [ctx.actor.accountId, data.channel, data.recipient],
      { transaction },
    );
    return { data: optoutOf(existing), created: false };
  });
}

export async function removeOptout(ctx: SignedInCtx, id: string): Promise<{ ok: true }> {
  assertOptouts(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const db = sequelize();
  await db.transaction(async (transaction) => {
    const gone = await rows<{ id: string; channel: string }>(`DELETE FROM optouts WHERE id = $1 AND account_id = $2 RETURNING id, channel`, [id, ctx.actor.accountId], {
      transaction,
    });
    if (!gone[0]) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "optout.removed", { meta: { id, channel: gone[0].channel } });
  });
  return { ok: true };
}

/** Changes an opt-out's number or channel (another entry already holding them: a field error on recipient). */
export async function updateOptout(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: Optout }> {
  assertOptouts(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const data = validate(addOptoutSchema, input);
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const [clash] = await rows<{ id: string }>(
      `SELECT id FROM optouts WHERE account_id = $1 AND channel = $2 AND recipient = $3 AND id <> $4`,
      [ctx.actor.accountId, data.channel, data.recipient, id],
      { transaction },
    );
    if (clash) throw new AppError("VALIDATION", { fields: { recipient: ["smpp.errors.alreadyListed"] } });
    const [row] = await rows<Omit<Optout, Derived>>(
      `UPDATE optouts SET channel = $3, recipient = $4 WHERE id = $1 AND account_id = $2 RETURNING ${OPTOUT_COLUMNS}`,
      [id, ctx.actor.accountId, data.channel, data.recipient],
      { transaction },
    );
    if (!row) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "optout.updated", { meta: { id, channel: data.channel } });
    return { data: optoutOf(row) };
  });
}

// ---- opt-out keyword settings: the account's keywords as two lists (./account-keywords) ----------

export { getOptoutSettings, saveOptoutSettings, type OptoutSettings } from "./account-keywords";

// ---- deny list -----------------------------------------------------------------------------------

const DENY_COLUMNS = "id, recipient, reason, created_at";

export async function listDenyList(ctx: SignedInCtx, query: unknown = {}): Promise<Page<DenyEntry>> {
  assertDenyList(ctx);
  const p = await page<Omit<DenyEntry, Derived>>("deny_list", DENY_COLUMNS, ctx.actor.accountId, query);
  return { ...p, data: p.data.map(denyOf) };
}

/** One deny-list entry of the account (NOT_FOUND otherwise). */
export async function getDenyEntry(ctx: SignedInCtx, id: string): Promise<{ data: DenyEntry }> {
  assertDenyList(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const [row] = await rows<Omit<DenyEntry, Derived>>(`SELECT ${DENY_COLUMNS} FROM deny_list WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!row) throw new AppError("NOT_FOUND");
  return { data: denyOf(row) };
}

export async function addDenyEntry(ctx: SignedInCtx, input: unknown): Promise<{ data: DenyEntry; created: boolean }> {
  assertDenyList(ctx);
  const data = validate(addDenySchema, input);
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const inserted = await rows<Omit<DenyEntry, Derived>>(
      `INSERT INTO deny_list (account_id, recipient, reason) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, recipient) DO NOTHING RETURNING ${DENY_COLUMNS}`,
      [ctx.actor.accountId, data.recipient, data.reason],
      { transaction },
    );
    if (inserted[0]) {
      await recordAudit({ ...ctx, transaction }, "denylist.added", { meta: { id: inserted[0].id } });
      return { data: denyOf(inserted[0]), created: true };
    }
    const [existing] = await rows<Omit<DenyEntry, Derived>>(
      `SELECT ${DENY_COLUMNS} FROM deny_list WHERE account_id = $1 AND recipient = $2`,
      [ctx.actor.accountId, data.recipient],
      { transaction },
    );
    return { data: denyOf(existing), created: false };
  });
}

/** Changes a deny-list entry's number or reason (another entry already holding the number: a field error on recipient). */
export async function updateDenyEntry(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: DenyEntry }> {
  assertDenyList(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const data = validate(addDenySchema, input);
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const [clash] = await rows<{ id: string }>(`SELECT id FROM deny_list WHERE account_id = $1 AND recipient = $2 AND id <> $3`, [ctx.actor.accountId, data.recipient, id], {
      transaction,
    });
    if (clash) throw new AppError("VALIDATION", { fields: { recipient: ["smpp.errors.alreadyListed"] } });
    const [row] = await rows<Omit<DenyEntry, Derived>>(
      `UPDATE deny_list SET recipient = $3, reason = $4 WHERE id = $1 AND account_id = $2 RETURNING ${DENY_COLUMNS}`,
      [id, ctx.actor.accountId, data.recipient, data.reason],
      { transaction },
    );
    if (!row) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "denylist.updated", { meta: { id } });
    return { data: denyOf(row) };
  });
}

export async function removeDenyEntry(ctx: SignedInCtx, id: string): Promise<{ ok: true }> {
  assertDenyList(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const db = sequelize();
  await db.transaction(async (transaction) => {
    const gone = await rows<{ id: string }>(`DELETE FROM deny_list WHERE id = $1 AND account_id = $2 RETURNING id`, [id, ctx.actor.accountId], { transaction });
    if (!gone[0]) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "denylist.removed", { meta: { id } });
  });
  return { ok: true };
}

// ---- the e-mail lists (issue 17; /mail/optouts and /mail/denylist) -------------------------------
// The same tables: an opt-out of channel `email` holds an address; the deny list is the account's
// one list, whose addresses are e-mail's (a send to them ends rejected, not charged).

function assertMail(ctx: SignedInCtx, screen: "/mail/optouts" | "/mail/denylist") {
  if (!can(ctx.actor, screen)) throw new AppError("FORBIDDEN");
}
/** The deny list's e-mail addresses (its numbers are the other channels'). */
const ADDRESSES = " AND recipient LIKE '%@%'";

/** One page of the account's e-mail opt-outs (`q`: part of the address). */
export async function listEmailOptouts(ctx: SignedInCtx, query: unknown = {}): Promise<Page<Optout>> {
  assertMail(ctx, "/mail/optouts");
  const p = await page<Omit<Optout, Derived>>("optouts", OPTOUT_COLUMNS, ctx.actor.accountId, query, " AND channel = 'email'", "address");
  return { ...p, data: p.data.map(optoutOf) };
}

/** Opts an address out of the account's e-mail (created false: it was already). */
export async function addEmailOptout(ctx: SignedInCtx, input: unknown, opts: { source?: "manual" | "api" } = {}): Promise<{ data: Optout; created: boolean }> {
  assertMail(ctx, "/mail/optouts");
  const { recipient } = validate(addEmailOptoutSchema, input);
  const source = opts.source ?? "manual";
  return sequelize().transaction(async (transaction) => {
    const inserted = await rows<Omit<Optout, Derived>>(
      `INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'email', $2, $3)
       ON CONFLICT (account_id, channel, recipient) DO NOTHING RETURNING ${OPTOUT_COLUMNS}`,
      [ctx.actor.accountId, recipient, source],
      { transaction },
    );
    if (inserted[0]) {
      await recordAudit({ ...ctx, transaction }, "optout.added", { meta: { id: inserted[0].id, channel: "email", source } });
      return { data: optoutOf(inserted[0]), created: true };
    }
    const [existing] = await rows<Omit<Optout, Derived>>(`SELECT ${OPTOUT_COLUMNS} FROM optouts WHERE account_id = $1 AND channel = 'email' AND recipient = $2`, [
      ctx.actor.accountId,
      recipient,
    ]);
    return { data: optoutOf(existing), created: false };
  });
}

/** Removes an e-mail opt-out (another account's or another channel's: NOT_FOUND). */
export async function removeEmailOptout(ctx: SignedInCtx, id: string): Promise<{ ok: true }> {
  assertMail(ctx, "/mail/optouts");
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  await sequelize().transaction(async (transaction) => {
    const gone = await rows<{ id: string }>(`DELETE FROM optouts WHERE id = $1 AND account_id = $2 AND channel = 'email' RETURNING id`, [id, ctx.actor.accountId], {
      transaction,
    });
    if (!gone[0]) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "optout.removed", { meta: { id, channel: "email" } });
  });
  return { ok: true };
}

/** One page of the deny list's e-mail addresses (`q`: part of the address). */
export async function listEmailDenyList(ctx: SignedInCtx, query: unknown = {}): Promise<Page<DenyEntry>> {
  assertMail(ctx, "/mail/denylist");
  const p = await page<Omit<DenyEntry, Derived>>("deny_list", DENY_COLUMNS, ctx.actor.accountId, query, ADDRESSES, "address");
  return { ...p, data: p.data.map(denyOf) };
}

/** Puts an e-mail address on the deny list (created false: it was already). */
export async function addEmailDenyEntry(ctx: SignedInCtx, input: unknown): Promise<{ data: DenyEntry; created: boolean }> {
  assertMail(ctx, "/mail/denylist");
  const data = validate(addEmailDenySchema, input);
  return sequelize().transaction(async (transaction) => {
    const inserted = await rows<Omit<DenyEntry, Derived>>(
      `INSERT INTO deny_list (account_id, recipient, reason) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, recipient) DO NOTHING RETURNING ${DENY_COLUMNS}`,
      [ctx.actor.accountId, data.recipient, data.reason],
      { transaction },
    );
    if (inserted[0]) {
      await recordAudit({ ...ctx, transaction }, "denylist.added", { meta: { id: inserted[0].id } });
      return { data: denyOf(inserted[0]), created: true };
    }
    const [existing] = await rows<Omit<DenyEntry, Derived>>(`SELECT ${DENY_COLUMNS} FROM deny_list WHERE account_id = $1 AND recipient = $2`, [
      ctx.actor.accountId,
      data.recipient,
    ]);
    return { data: denyOf(existing), created: false };
  });
}

/** Removes an e-mail address from the deny list (another account's entry or a number: NOT_FOUND). */
export async function removeEmailDenyEntry(ctx: SignedInCtx, id: string): Promise<{ ok: true }> {
  assertMail(ctx, "/mail/denylist");
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  await sequelize().transaction(async (transaction) => {
    const gone = await rows<{ id: string }>(`DELETE FROM deny_list WHERE id = $1 AND account_id = $2${ADDRESSES} RETURNING id`, [id, ctx.actor.accountId], { transaction });
    if (!gone[0]) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "denylist.removed", { meta: { id } });
  });
  return { ok: true };
}
