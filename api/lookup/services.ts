/**
 * Number lookup (issue 22, ADR 058): one number (the API's GET /api/lookup and the /lookup form)
 * or a list — a CSV upload read with the contact import's rules (api/imports/files.ts), or a
 * contact group's numbers — looked up by the worker (./job.ts) in provider batches. Each lookup is
 * priced (lookup_prices, like sms_prices/rcs_prices) and paid through the ledger
 * (api/accounts/balance.ts): one number is debited before it is asked and refunded when the
 * provider fails; a list is debited for every line when it starts and refunded, when it ends, for
 * the lines that were not looked up (bad lines, a provider outage). Results are kept
 * (lookup_results) and exported as CSV; a finished list cleans a contact group (ADR 058: its
 * invalid and landline numbers move to a new group). Every query is scoped by the acting account.
 */
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import { creditBalance, debitBalance } from "../accounts/balance";
import { recordAudit } from "../audit/record";
import { isCsvName, readHead, storeUpload, uploadRoot, type StoredFile } from "../imports/files";
import { suggestMapping } from "../imports/mapping";
import { publishJob } from "../jobs/publish";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { translate } from "../lib/i18n";
import { exec, row, rows } from "../lib/sql";
import { can } from "../policy/policy";
import { type ChannelPricing, type PriceRow, pickPrices } from "../sms/pricing";
import { e164Problem } from "./number";
import { type LookupAnswer, requireLookupProvider } from "./provider";

export const LOOKUP_STREAM = "jobs:lookups";
/** The price of one lookup for an account without its own row: R$ 0,05. */
export const LOOKUP_PRICING: ChannelPricing<"hlr"> = { table: "lookup_prices", routes: ["hlr"], defaults: { hlr: 5 } };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type LookupResultView = {
  number: string;
  valid: boolean;
  type: string | null;
  carrier: string | null;
  ported: boolean | null;
  country: string | null;
};

/** The screens' policy decides (spec section 6): /lookup and /lookup/list for lookups, /lookup/usage for the figures (billing reaches "usage"). */
function assertAllowed(ctx: SignedInCtx, path: "/lookup" | "/lookup/usage" = "/lookup") {
  if (!can(ctx.actor, path)) throw new AppError("FORBIDDEN");
}

/** The account's price of one lookup, in its currency (own row in that currency, else the default). */
export async function lookupPrice(accountId: string, transaction?: Transaction): Promise<{ price: number; currency: string }> {
  const facts = await row<{ currency: string; prices: PriceRow[] }>(
    `SELECT a.currency, (SELECT coalesce(json_agg(p), '[]'::json) FROM (SELECT id, route, price_per_segment, currency FROM lookup_prices WHERE account_id = a.id) p) AS prices
       FROM accounts a WHERE a.id = $1`,
    [accountId],
    { transaction },
  );
  if (!facts) throw new AppError("NOT_FOUND");
  const currency = facts.currency.trim();
  const [price] = pickPrices(LOOKUP_PRICING, currency, facts.prices);
  // An own price in another currency hides the product (as for the channels): nothing can be charged.
  if (!price) throw new AppError("VALIDATION", { fields: { number: ["lookup.errors.notOffered"] } });
  return { price: price.pricePerSegment, currency };
}

const view = (a: LookupAnswer): LookupResultView => ({ number: a.number, valid: a.valid, type: a.type, carrier: a.carrier, ported: a.ported, country: a.country });

/**
 * Look up one number (E.164): debited first (INSUFFICIENT_BALANCE when the balance and credit
 * limit do not cover it, nothing asked), refunded if the provider does not answer; the answer is
 * kept among the account's results.
 */
export async function lookupNumber(ctx: SignedInCtx, number: unknown): Promise<LookupResultView & { id: string; price: number; currency: string }> {
  assertAllowed(ctx);
  const raw = typeof number === "string" ? number.trim() : "";
  const problem = e164Problem(raw);
  if (problem) throw new AppError("VALIDATION", { fields: { number: [`lookup.errors.${problem}`] } });
  const accountId = ctx.actor.accountId;
  const provider = requireLookupProvider();
  const { price, currency } = await lookupPrice(accountId);
  const reference = `lookup:${randomUUID()}`;
  await sequelize().transaction(async (transaction) => {
    if (!(await debitBalance(accountId, price, transaction, { kind: "message", reference, reason: "number lookup", by: ctx.actor.userId })))
      throw new AppError("INSUFFICIENT_BALANCE");
  });
  let answer: LookupAnswer;
  try {
    [answer] = await provider.lookup([raw]);
  } catch (e) {
    await sequelize().transaction((transaction) => creditBalance(accountId, price, transaction, { kind: "refund", reference, reason: "number lookup failed" }));
    throw e;
  }
  const [saved] = await rows<{ id: string }>(
    `INSERT INTO lookup_results (account_id, number, status, valid, type, country, carrier, original_carrier, ported, price, currency)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id::text`,
    [accountId, answer.number, answer.valid ? "ok" : "invalid", answer.valid, answer.type, answer.country, answer.carrier, answer.originalCarrier, answer.ported, price, currency],
  );
  return { id: saved.id, ...view(answer), price, currency };
}

export type StoredResult = LookupResultView & {
  id: string;
  line: number | null;
  status: "ok" | "invalid" | "bad_line";
  originalCarrier: string | null;
  price: number;
  currency: string;
  createdAt: string;
};

type ResultRow = {
  id: string;
  line: number | null;
  number: string;
  status: "ok" | "invalid" | "bad_line";
  valid: boolean;
  type: string | null;
  country: string | null;
  carrier: string | null;
  original_carrier: string | null;
  ported: boolean | null;
  price: string;
  currency: string;
  created_at: Date;
};
const RESULT_COLUMNS = "id::text, line, number, status, valid, type, country, carrier, original_carrier, ported, price, currency, created_at";
const toResult = (r: ResultRow): StoredResult => ({
  id: r.id,
  line: r.line,
  number: r.number,
  status: r.status,
  valid: r.valid,
  type: r.type,
  country: r.country?.trim() ?? null,
  carrier: r.carrier,
  originalCarrier: r.original_carrier,
  ported: r.ported,
  price: Number(r.price),
  currency: r.currency.trim(),
  createdAt: r.created_at.toISOString(),
});

/** The account's single lookups, newest first (at most `limit`, 50 by default). */
export async function recentLookups(ctx: SignedInCtx, limit = 50): Promise<StoredResult[]> {
  assertAllowed(ctx);
  const n = Math.min(200, Math.max(1, Math.floor(limit) || 50));
  const found = await rows<ResultRow>(`SELECT ${RESULT_COLUMNS} FROM lookup_results WHERE account_id = $1 AND list_id IS NULL ORDER BY created_at DESC, id DESC LIMIT ${n}`, [
    ctx.actor.accountId,
  ]);
  return found.map(toResult);
}

/** One single lookup of the account (the form's redirect shows it). */
export async function getLookup(ctx: SignedInCtx, id: string): Promise<StoredResult> {
  assertAllowed(ctx);
  if (!/^\d{1,18}$/.test(id)) throw new AppError("NOT_FOUND");
  const [r] = await rows<ResultRow>(`SELECT ${RESULT_COLUMNS} FROM lookup_results WHERE id = $1 AND account_id = $2 AND list_id IS NULL`, [id, ctx.actor.accountId]);
  if (!r) throw new AppError("NOT_FOUND");
  return toResult(r);
}

// ---- lists -------------------------------------------------------------------------------------

export type LookupListView = {
  id: string;
  source: "file" | "group";
  name: string;
  status: "queued" | "running" | "completed" | "failed";
  groupId: string | null;
  cleanGroupId: string | null;
  totalRows: number;
  processedRows: number;
  validCount: number;
  invalidCount: number;
  badLines: number;
  percent: number;
  unitPrice: number;
  currency: string;
  charged: number;
  refunded: number;
  failure: string | null;
  cleanedGroupId: string | null;
  cleanedCount: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
};
type ListRow = {
  id: string;
  source: "file" | "group";
  name: string;
  status: LookupListView["status"];
  group_id: string | null;
  clean_group_id: string | null;
  total_rows: number;
  processed_rows: number;
  valid_count: number;
  invalid_count: number;
  bad_lines: number;
  unit_price: string;
  currency: string;
  charged: string;
  refunded: string;
  failure: string | null;
  cleaned_group_id: string | null;
  cleaned_count: number | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
};
const LIST_COLUMNS = `id, source, name, status, group_id, clean_group_id, total_rows, processed_rows, valid_count, invalid_count, bad_lines, unit_price, currency,
  charged, refunded, failure, cleaned_group_id, cleaned_count, started_at, finished_at, created_at`;

export function listPercent(r: Pick<ListRow, "status" | "total_rows" | "processed_rows">) {
  if (r.status === "completed") return 100;
  if (!r.total_rows) return 0;
  return Math.min(99, Math.floor((100 * r.processed_rows) / r.total_rows));
}

const toList = (r: ListRow): LookupListView => ({
  id: r.id,
  source: r.source,
  name: r.name,
  status: r.status,
  groupId: r.group_id,
  cleanGroupId: r.clean_group_id,
  totalRows: r.total_rows,
  processedRows: r.processed_rows,
  validCount: r.valid_count,
  invalidCount: r.invalid_count,
  badLines: r.bad_lines,
  percent: listPercent(r),
  unitPrice: Number(r.unit_price),
  currency: r.currency.trim(),
  charged: Number(r.charged),
  refunded: Number(r.refunded),
  failure: r.failure,
  cleanedGroupId: r.cleaned_group_id,
  cleanedCount: r.cleaned_count,
  startedAt: r.started_at?.toISOString() ?? null,
  finishedAt: r.finished_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
});

async function findList(accountId: string, id: string, transaction?: Transaction) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const [r] = await rows<ListRow>(`SELECT ${LIST_COLUMNS} FROM lookup_lists WHERE id = $1 AND account_id = $2`, [id, accountId], { transaction });
  if (!r) throw new AppError("NOT_FOUND");
  return r;
}

export async function getList(ctx: SignedInCtx, id: string): Promise<LookupListView> {
  assertAllowed(ctx);
  return toList(await findList(ctx.actor.accountId, id));
}

/** The account's lists, newest first (at most `limit`, 20 by default). */
export async function listLists(ctx: SignedInCtx, limit = 20): Promise<LookupListView[]> {
  assertAllowed(ctx);
  const n = Math.min(100, Math.max(1, Math.floor(limit) || 20));
  const found = await rows<ListRow>(`SELECT ${LIST_COLUMNS} FROM lookup_lists WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT ${n}`, [ctx.actor.accountId]);
  return found.map(toList);
}

export const listDir = (id: string) => join(uploadRoot(), "lookups", id);

/** The column holding the mobile number: the one the contact import would map to mobile_number. */
function numberColumn(columns: string[]): string | null {
  const mapping = suggestMapping(columns, []);
  return columns.find((c) => mapping[c] === "mobile_number") ?? null;
}

/** Debit `count` lookups and write the list in one transaction; INSUFFICIENT_BALANCE writes nothing. */
async function chargeAndInsert(ctx: SignedInCtx, id: string, count: number, insert: (t: Transaction, price: number, currency: string) => Promise<void>) {
  const accountId = ctx.actor.accountId;
  await sequelize().transaction(async (transaction) => {
    const { price, currency } = await lookupPrice(accountId, transaction);
    await insert(transaction, price, currency);
    await recordAudit({ ...ctx, transaction }, "lookup.list_started", { meta: { listId: id, rows: count, price: price * count, currency } });
    if (!(await debitBalance(accountId, price * count, transaction, { kind: "message", reference: `lookup-list:${id}`, reason: "number lookup list", by: ctx.actor.userId })))
      throw new AppError("INSUFFICIENT_BALANCE");
  });
  try {
    await publishJob(LOOKUP_STREAM, id, { id });
  } catch (e) {
    // The sweep announces it again (a queued list older than a minute).
    console.error(`lookup list ${id}: not announced`, e);
  }
}

export type ListUpload = { name: string; stream: ReadableStream<Uint8Array> | Blob };

/**
 * A CSV list (the contact import's rules: .csv, up to 1,000,000 rows, a header with a mobile
 * number column — IMPORT_MISSING_MOBILE otherwise): stored, charged for every data row and queued.
 * `cleanGroupId`: a group of the account to clean with it when it finishes.
 */
export async function createFileList(ctx: SignedInCtx, upload: ListUpload, opts: { cleanGroupId?: string | null } = {}): Promise<LookupListView> {
  assertAllowed(ctx);
  const name = upload.name
    .trim()
    .replace(/^.*[\\/]/, "")
    .slice(0, 255);
  if (!isCsvName(name)) throw new AppError("IMPORT_NOT_CSV", { params: { file: name } });
  const cleanGroupId = opts.cleanGroupId ? await ownGroup(ctx.actor.accountId, opts.cleanGroupId) : null;
  const id = randomUUID();
  const abs = join(listDir(id), "list.csv");
  try {
    const stream = upload.stream instanceof Blob ? (upload.stream.stream() as ReadableStream<Uint8Array>) : upload.stream;
    const { size, rows: total, encoding } = await storeUpload(stream, abs, name);
    const head = await readHead(abs, name, encoding);
    const column = numberColumn(head.columns);
    if (!column) throw new AppError("IMPORT_MISSING_MOBILE", { params: { file: name }, fields: { file: ["errors.IMPORT_MISSING_MOBILE"] } });
    const file: StoredFile = { name, path: `lookups/${id}/list.csv`, size, rows: total, columns: head.columns, delimiter: head.delimiter, encoding, preview: [] };
    await chargeAndInsert(ctx, id, total, (transaction, price, currency) =>
      exec(
        `INSERT INTO lookup_lists (id, account_id, user_id, source, name, file, number_column, clean_group_id, total_rows, unit_price, currency, charged)
         VALUES ($1, $2, $3, 'file', $4, $5::jsonb, $6, $7, $8, $9, $10, $11)`,
        [id, ctx.actor.accountId, ctx.actor.userId, name, JSON.stringify(file), column, cleanGroupId, total, price, currency, price * total],
        { transaction },
      ).then(() => undefined),
    );
  } catch (e) {
    await rm(listDir(id), { recursive: true, force: true });
    throw e;
  }
  return getList(ctx, id);
}

async function ownGroup(accountId: string, groupId: string, transaction?: Transaction) {
  if (!UUID.test(groupId)) throw new AppError("VALIDATION", { fields: { group_id: ["validation.invalid"] } });
  const g = await row<{ id: string; name: string }>(`SELECT id, name FROM contact_groups WHERE id = $1 AND account_id = $2`, [groupId, accountId], { transaction });
  if (!g) throw new AppError("VALIDATION", { fields: { group_id: ["validation.invalid"] } });
  return g.id;
}

/**
 * Look up the numbers of a contact group (its contacts with a mobile number), charged per number;
 * `clean`: the group is cleaned when it finishes.
 */
export async function createGroupList(ctx: SignedInCtx, input: { groupId: string; clean?: boolean }): Promise<LookupListView> {
  assertAllowed(ctx);
  const accountId = ctx.actor.accountId;
  const groupId = await ownGroup(accountId, input.groupId);
  const g = await row<{ name: string; n: number }>(
    `SELECT g.name, (SELECT count(*) FROM contact_group_members m JOIN contacts c ON c.id = m.contact_id AND c.account_id = $2
                      WHERE m.group_id = g.id AND c.mobile_number IS NOT NULL)::int AS n
       FROM contact_groups g WHERE g.id = $1 AND g.account_id = $2`,
    [groupId, accountId],
  );
  if (!g || g.n === 0) throw new AppError("VALIDATION", { fields: { group_id: ["lookup.errors.emptyGroup"] } });
  const id = randomUUID();
  await chargeAndInsert(ctx, id, g.n, (transaction, price, currency) =>
    exec(
      `INSERT INTO lookup_lists (id, account_id, user_id, source, name, group_id, clean_group_id, total_rows, unit_price, currency, charged)
       VALUES ($1, $2, $3, 'group', $4, $5, $6, $7, $8, $9, $10)`,
      [id, accountId, ctx.actor.userId, g.name.slice(0, 255), groupId, input.clean ? groupId : null, g.n, price, currency, price * g.n],
      { transaction },
    ).then(() => undefined),
  );
  return getList(ctx, id);
}

/** Results of a list in line order (a page for the screen: `after` a line, at most `limit`). */
export async function listResults(ctx: SignedInCtx, listId: string, opts: { after?: number; limit?: number } = {}): Promise<StoredResult[]> {
  assertAllowed(ctx);
  const list = await findList(ctx.actor.accountId, listId);
  const n = Math.min(1000, Math.max(1, Math.floor(opts.limit ?? 50)));
  const found = await rows<ResultRow>(`SELECT ${RESULT_COLUMNS} FROM lookup_results WHERE list_id = $1 AND account_id = $2 AND line > $3 ORDER BY line LIMIT ${n}`, [
    list.id,
    ctx.actor.accountId,
    Math.max(0, Math.floor(opts.after ?? 0)),
  ]);
  return found.map(toResult);
}

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
export const EXPORT_COLUMNS = ["line", "number", "status", "valid", "type", "country", "carrier", "original_carrier", "ported", "price", "currency", "created_at"] as const;

/**
 * The results as CSV text chunks (header first), read in keyset pages of 5,000 so no export is
 * held whole: a list's (`listId`) in line order, or the account's single lookups (`listId` null)
 * newest first. `header` gives the column titles (the screen's translation; the API's are the keys).
 */
export async function exportResults(
  ctx: SignedInCtx,
  listId: string | null,
  header: (column: (typeof EXPORT_COLUMNS)[number]) => string = (c) => c,
): Promise<AsyncGenerator<string>> {
  assertAllowed(ctx);
  const accountId = ctx.actor.accountId;
  const list = listId ? await findList(accountId, listId) : null;
  async function* chunks() {
    yield `${EXPORT_COLUMNS.map((c) => csvField(header(c))).join(",")}\r\n`;
    let after = list ? 0 : Number.MAX_SAFE_INTEGER;
    for (;;) {
      const page = list
        ? await rows<ResultRow>(`SELECT ${RESULT_COLUMNS} FROM lookup_results WHERE list_id = $1 AND account_id = $2 AND line > $3 ORDER BY line LIMIT 5000`, [
            list.id,
            accountId,
            after,
          ])
        : await rows<ResultRow>(`SELECT ${RESULT_COLUMNS} FROM lookup_results WHERE account_id = $1 AND list_id IS NULL AND id < $2 ORDER BY id DESC LIMIT 5000`, [
            accountId,
            after,
          ]);
      if (!page.length) return;
      let out = "";
      for (const r of page) {
        const v = toResult(r);
        out += `${[
          v.line ?? "",
          v.number,
          v.status,
          v.valid,
          v.type ?? "",
          v.country ?? "",
          v.carrier ?? "",
          v.originalCarrier ?? "",
          v.ported ?? "",
          v.price,
          v.currency,
          v.createdAt,
        ]
          .map((x) => csvField(String(x)))
          .join(",")}\r\n`;
      }
      yield out;
      after = list ? (page[page.length - 1].line ?? 0) : Number(page[page.length - 1].id);
    }
  }
  return chunks();
}

// ---- cleaning a group ---------------------------------------------------------------------------

/**
 * Move the members of `groupId` whose number a list found invalid or a landline out of the group,
 * into a new group (ADR 058: reversible, nothing deleted) named after it. Answers how many moved
 * and the new group (null when none moved). Runs in the caller's transaction.
 */
export async function cleanGroupWith(accountId: string, listId: string, groupId: string, locale: string | undefined, transaction: Transaction) {
  const g = await row<{ id: string; name: string }>(`SELECT id, name FROM contact_groups WHERE id = $1 AND account_id = $2`, [groupId, accountId], { transaction });
  if (!g) return { moved: 0, groupId: null };
  const bad = `SELECT m.contact_id FROM contact_group_members m JOIN contacts c ON c.id = m.contact_id AND c.account_id = $2
                WHERE m.group_id = $3 AND m.account_id = $2
                  AND EXISTS (SELECT 1 FROM lookup_results r WHERE r.list_id = $1 AND r.account_id = $2 AND r.number = c.mobile_number
                                AND (NOT r.valid OR r.type = 'landline'))`;
  const [{ n }] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM (${bad}) b`, [listId, accountId, groupId], { transaction });
  if (n === 0) return { moved: 0, groupId: null };
  const base = translate(locale, "lookup:clean.groupName", { name: g.name });
  // A unique name: "<group> (removed by lookup)", then " 2", " 3"… if taken.
  const taken = await rows<{ name: string }>(`SELECT lower(name) AS name FROM contact_groups WHERE account_id = $1 AND lower(name) LIKE lower($2) || '%'`, [accountId, base], {
    transaction,
  });
  const names = new Set(taken.map((t) => t.name));
  let name = base;
  for (let i = 2; names.has(name.toLowerCase()); i++) name = `${base} ${i}`;
  const [created] = await rows<{ id: string }>(`INSERT INTO contact_groups (account_id, name) VALUES ($1, $2) RETURNING id`, [accountId, name], { transaction });
  await exec(
    `WITH bad AS (${bad}), moved AS (
       INSERT INTO contact_group_members (group_id, contact_id, account_id) SELECT $4, contact_id, $2 FROM bad ON CONFLICT DO NOTHING
     )
     DELETE FROM contact_group_members WHERE group_id = $3 AND account_id = $2 AND contact_id IN (SELECT contact_id FROM bad)`,
    [listId, accountId, groupId, created.id],
    { transaction },
  );
  await exec(`UPDATE lookup_lists SET cleaned_group_id = $2, cleaned_count = $3, updated_at = now() WHERE id = $1`, [listId, created.id, n], { transaction });
  return { moved: n, groupId: created.id };
}

/** Clean a group of the account with a finished list's results (LOOKUP_NOT_FINISHED-like 409 while it runs). */
export async function cleanGroup(ctx: SignedInCtx, listId: string, groupIdInput: unknown, locale?: string): Promise<{ moved: number; groupId: string | null }> {
  assertAllowed(ctx);
  const accountId = ctx.actor.accountId;
  const list = await findList(accountId, listId);
  if (list.status !== "completed") throw new AppError("VALIDATION", { fields: { list: ["lookup.errors.notFinished"] } });
  const groupId = await ownGroup(accountId, typeof groupIdInput === "string" ? groupIdInput : "");
  return sequelize().transaction(async (transaction) => {
    const done = await cleanGroupWith(accountId, list.id, groupId, locale, transaction);
    await recordAudit({ ...ctx, transaction }, "lookup.group_cleaned", { meta: { listId: list.id, groupId, moved: done.moved, newGroupId: done.groupId } });
    return done;
  });
}

// ---- usage ---------------------------------------------------------------------------------------

export type UsageDay = { day: string; lookups: number; valid: number; invalid: number; cost: number };
export type LookupUsage = { from: string; to: string; currency: string; days: UsageDay[]; total: Omit<UsageDay, "day"> };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Lookups per São Paulo day between `from` and `to` (yyyy-MM-dd, inclusive; the last 30 days by
 * default, at most 366): how many were charged, valid and invalid, and their cost (what the results
 * were charged: bad lines and refunded lookups cost nothing).
 */
export async function lookupUsage(ctx: SignedInCtx, input: { from?: unknown; to?: unknown } = {}): Promise<LookupUsage> {
  assertAllowed(ctx, "/lookup/usage");
  const today = new Date().toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
  const to = typeof input.to === "string" && input.to ? input.to : today;
  const from = typeof input.from === "string" && input.from ? input.from : new Date(Date.parse(`${to}T12:00:00Z`) - 29 * 86400_000).toISOString().slice(0, 10);
  const fields: Record<string, string[]> = {};
  if (!DAY.test(from) || Number.isNaN(Date.parse(from))) fields.from = ["validation.invalid"];
  if (!DAY.test(to) || Number.isNaN(Date.parse(to))) fields.to = ["validation.invalid"];
  if (!Object.keys(fields).length && (from > to || Date.parse(to) - Date.parse(from) > 366 * 86400_000)) fields.from = ["lookup.errors.period"];
  if (Object.keys(fields).length) throw new AppError("VALIDATION", { fields });
  const accountId = ctx.actor.accountId;
  const currency = (await row<{ currency: string }>(`SELECT currency FROM accounts WHERE id = $1`, [accountId]))?.currency.trim() ?? "BRL";
  const found = await rows<{ day: string; lookups: number; valid: number; invalid: number; cost: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') AS day,
            count(*) FILTER (WHERE status <> 'bad_line')::int AS lookups, count(*) FILTER (WHERE valid)::int AS valid,
            count(*) FILTER (WHERE status = 'invalid')::int AS invalid, coalesce(sum(price), 0) AS cost
       FROM lookup_results
      WHERE account_id = $1 AND created_at >= ($2::date::timestamp AT TIME ZONE 'America/Sao_Paulo')
        AND created_at < (($3::date + 1)::timestamp AT TIME ZONE 'America/Sao_Paulo')
      GROUP BY 1 ORDER BY 1`,
    [accountId, from, to],
  );
  const days = found.map((d) => ({ day: d.day, lookups: d.lookups, valid: d.valid, invalid: d.invalid, cost: Number(d.cost) }));
  const total = days.reduce((s, d) => ({ lookups: s.lookups + d.lookups, valid: s.valid + d.valid, invalid: s.invalid + d.invalid, cost: s.cost + d.cost }), {
    lookups: 0,
    valid: 0,
    invalid: 0,
    cost: 0,
  });
  return { from, to, currency, days, total };
}
