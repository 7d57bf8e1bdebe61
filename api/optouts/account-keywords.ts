/**
 * The account's inbound keywords (spec section 7 "keywords"; ADR 012): one row each in
 * optout_keywords with its action — `optout` (SAIR, PARAR, CANCELAR, DESCADASTRAR, REMOVER, STOP
 * by default) or `resume` (VOLTAR, START). Every account is created with the defaults (a trigger
 * of migration 0022); from then on the rows are the account's own. An MO that is one of them
 * (single word, trimmed, case- and accent-insensitive: ./keywords matchKeyword) opts the mobile
 * out or back in (api/messages/inbound.ts).
 *
 * Rules: a keyword is unique per account ignoring case and accents ("SAIR" and "Sáir" are one:
 * the second is refused on `keyword`); at most MAX_KEYWORDS of each action; the account always
 * keeps at least one opt-out keyword (a mobile must always be able to stop messages), so removing
 * or turning the last one into a resume keyword is refused. The GET/PUT optouts/settings calls are
 * the same rows seen as two lists (PUT replaces them, keeping the ids of the words it keeps).
 * Writes of one account are serialized by a transaction-scoped advisory lock.
 * Permission: the /sms/optouts screen of the policy, like the opt-outs.
 */
import { type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { foldKeyword } from "./keywords";
import { KEYWORD_ACTIONS, keywordIdsSchema, keywordSchema, MAX_KEYWORDS, optoutSettingsSchema, type KeywordAction } from "./schemas";
import { exec, rows } from "../lib/sql";

export type OptoutKeyword = { id: string; keyword: string; action: KeywordAction; created_at: Date; updated_at: Date };
export type OptoutSettings = { keywords: string[]; resume_keywords: string[]; updated_at: Date | null };

const COLUMNS = "id, keyword, action, created_at, updated_at";
const ORDER = "ORDER BY action, position, created_at, id";
export const KEYWORD_TAKEN = "smpp.errors.keywordTaken";
export const LAST_OPTOUT_KEYWORD = "smpp.errors.lastOptoutKeyword";

function assertKeywords(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/sms/optouts")) throw new AppError("FORBIDDEN");
}

/** The keywords of an account for inbound matching (no permission: the MO path has no actor). */
export async function keywordsOf(accountId: string, transaction?: Transaction): Promise<{ optout: string[]; resume: string[] }> {
  const found = await rows<{ keyword: string; action: KeywordAction }>(`SELECT keyword, action FROM optout_keywords WHERE account_id = $1 ${ORDER}`, [accountId], { transaction });
  return { optout: found.filter((r) => r.action === "optout").map((r) => r.keyword), resume: found.filter((r) => r.action === "resume").map((r) => r.keyword) };
}

async function lockAccount(accountId: string, transaction: Transaction) {
  await exec(`SELECT pg_advisory_xact_lock(hashtext('optout_keywords:' || $1))`, [accountId], { transaction });
}

async function counts(accountId: string, transaction: Transaction): Promise<Record<KeywordAction, number>> {
  const found = await rows<{ action: KeywordAction; n: number }>(`SELECT action, count(*)::int AS n FROM optout_keywords WHERE account_id = $1 GROUP BY action`, [accountId], {
    transaction,
  });
  const out = { optout: 0, resume: 0 };
  for (const r of found) out[r.action] = r.n;
  return out;
}

async function clash(accountId: string, folded: string, exceptId: string | null, transaction: Transaction): Promise<boolean> {
  const found = await rows(`SELECT 1 FROM optout_keywords WHERE account_id = $1 AND folded = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)`, [accountId, folded, exceptId], {
    transaction,
  });
  return found.length > 0;
}

/**
 * The account's keywords, by action then their order. Bounded by a business rule (at most
 * MAX_KEYWORDS of each action, 40 in all): one page, `next_cursor` always null.
 */
export async function listKeywords(ctx: SignedInCtx, query: { action?: string } = {}): Promise<{ data: OptoutKeyword[]; next_cursor: null }> {
  assertKeywords(ctx);
  const action = (KEYWORD_ACTIONS as readonly string[]).includes(query.action ?? "") ? query.action : null;
  const found = await rows<OptoutKeyword>(`SELECT ${COLUMNS} FROM optout_keywords WHERE account_id = $1 AND ($2::text IS NULL OR action = $2) ${ORDER}`, [
    ctx.actor.accountId,
    action,
  ]);
  return { data: found, next_cursor: null };
}

/** One keyword of the account (NOT_FOUND otherwise). */
export async function getKeyword(ctx: SignedInCtx, id: string): Promise<{ data: OptoutKeyword }> {
  assertKeywords(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const [row] = await rows<OptoutKeyword>(`SELECT ${COLUMNS} FROM optout_keywords WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!row) throw new AppError("NOT_FOUND");
  return { data: row };
}

export async function addKeyword(ctx: SignedInCtx, input: unknown): Promise<{ data: OptoutKeyword }> {
  assertKeywords(ctx);
  const data = validate(keywordSchema, input);
  const accountId = ctx.actor.accountId;
  const db = sequelize();
  return db.transaction(async (transaction) => {
    await lockAccount(accountId, transaction);
    if (await clash(accountId, foldKeyword(data.keyword), null, transaction)) throw new AppError("VALIDATION", { fields: { keyword: [KEYWORD_TAKEN] } });
    if ((await counts(accountId, transaction))[data.action] >= MAX_KEYWORDS) throw new AppError("VALIDATION", { fields: { keyword: [`validation.max::${MAX_KEYWORDS}`] } });
    const [row] = await rows<OptoutKeyword>(
      `INSERT INTO optout_keywords (account_id, keyword, folded, action, position)
       VALUES ($1, $2, $3, $4, (SELECT COALESCE(max(position), 0) + 1 FROM optout_keywords WHERE account_id = $1 AND action = $4))
       RETURNING ${COLUMNS}`,
      [accountId, data.keyword, foldKeyword(data.keyword), data.action],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "optout.keyword_added", { meta: { id: row.id, keyword: row.keyword, action: row.action } });
    return { data: row };
  });
}

export async function updateKeyword(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: OptoutKeyword }> {
  assertKeywords(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const data = validate(keywordSchema, input);
  const accountId = ctx.actor.accountId;
  const db = sequelize();
  return db.transaction(async (transaction) => {
    await lockAccount(accountId, transaction);
    const [current] = await rows<{ action: KeywordAction }>(`SELECT action FROM optout_keywords WHERE id = $1 AND account_id = $2`, [id, accountId], { transaction });
    if (!current) throw new AppError("NOT_FOUND");
    if (await clash(accountId, foldKeyword(data.keyword), id, transaction)) throw new AppError("VALIDATION", { fields: { keyword: [KEYWORD_TAKEN] } });
    if (current.action !== data.action) {
      const n = await counts(accountId, transaction);
      if (current.action === "optout" && n.optout <= 1) throw new AppError("VALIDATION", { fields: { action: [LAST_OPTOUT_KEYWORD] } });
      if (n[data.action] >= MAX_KEYWORDS) throw new AppError("VALIDATION", { fields: { action: [`validation.max::${MAX_KEYWORDS}`] } });
    }
    const [row] = await rows<OptoutKeyword>(
      `UPDATE optout_keywords SET keyword = $3, folded = $4, updated_at = now(),
         position = CASE WHEN action = $5 THEN position
                         ELSE (SELECT COALESCE(max(position), 0) + 1 FROM optout_keywords WHERE account_id = $2 AND action = $5) END,
         action = $5
       WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, accountId, data.keyword, foldKeyword(data.keyword), data.action],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "optout.keyword_updated", { meta: { id, keyword: row.keyword, action: row.action } });
    return { data: row };
  });
}

/** Removes keywords of the account by id (unknown ids and other accounts' are ignored); refuses to remove the last opt-out keyword. */
async function remove(ctx: SignedInCtx, ids: string[], opts: { notFound: boolean }): Promise<{ deleted: number; ids: string[] }> {
  const accountId = ctx.actor.accountId;
  const valid = [...new Set(ids.filter((i) => UUID.test(i)).map((i) => i.toLowerCase()))];
  if (valid.length === 0) {
    if (opts.notFound) throw new AppError("NOT_FOUND");
    return { deleted: 0, ids: [] };
  }
  const db = sequelize();
  return db.transaction(async (transaction) => {
    await lockAccount(accountId, transaction);
    const gone = await rows<{ id: string; keyword: string; action: KeywordAction }>(
      `DELETE FROM optout_keywords WHERE account_id = $1 AND id = ANY($2::uuid[]) RETURNING id, keyword, action`,
      [accountId, valid],
      { transaction },
    );
    if (gone.length === 0 && opts.notFound) throw new AppError("NOT_FOUND");
    if (gone.some((g) => g.action === "optout") && (await counts(accountId, transaction)).optout === 0) {
      throw new AppError("VALIDATION", { fields: { [opts.notFound ? "id" : "ids"]: [LAST_OPTOUT_KEYWORD] } });
    }
    if (gone.length) await recordAudit({ ...ctx, transaction }, "optout.keywords_removed", { meta: { keywords: gone.map((g) => g.keyword) } });
    return { deleted: gone.length, ids: gone.map((g) => g.id) };
  });
}

export async function removeKeyword(ctx: SignedInCtx, id: string): Promise<{ ok: true }> {
  assertKeywords(ctx);
  await remove(ctx, [id], { notFound: true });
  return { ok: true };
}

export async function removeKeywords(ctx: SignedInCtx, input: unknown): Promise<{ deleted: number; ids: string[] }> {
  assertKeywords(ctx);
  const { ids } = validate(keywordIdsSchema, input);
  return remove(ctx, ids, { notFound: false });
}

// ---- the same rows as two lists (GET/PUT optouts/settings) ---------------------------------------

export async function getOptoutSettings(ctx: SignedInCtx): Promise<{ data: OptoutSettings }> {
  assertKeywords(ctx);
  return { data: await settingsOf(ctx.actor.accountId) };
}

async function settingsOf(accountId: string, transaction?: Transaction): Promise<OptoutSettings> {
  const { optout, resume } = await keywordsOf(accountId, transaction);
  const [last] = await rows<{ at: Date | null }>(`SELECT max(updated_at) AS at FROM optout_keywords WHERE account_id = $1`, [accountId], { transaction });
  return { keywords: optout, resume_keywords: resume, updated_at: last?.at ?? null };
}

/** Replaces both lists: words kept keep their id, the others are removed, new ones added, the order is the lists'. */
export async function saveOptoutSettings(ctx: SignedInCtx, input: unknown): Promise<{ data: OptoutSettings }> {
  assertKeywords(ctx);
  const data = validate(optoutSettingsSchema, input);
  const accountId = ctx.actor.accountId;
  const rows = [
    ...data.keywords.map((k, i) => ({ keyword: k, folded: foldKeyword(k), action: "optout", position: i + 1 })),
    ...data.resume_keywords.map((k, i) => ({ keyword: k, folded: foldKeyword(k), action: "resume", position: i + 1 })),
  ];
  const db = sequelize();
  return db.transaction(async (transaction) => {
    await lockAccount(accountId, transaction);
    await exec(`DELETE FROM optout_keywords WHERE account_id = $1 AND NOT (folded = ANY($2::text[]))`, [accountId, rows.map((r) => r.folded)], { transaction });
    await exec(
      `INSERT INTO optout_keywords (account_id, keyword, folded, action, position)
       SELECT $1, k, f, a, p FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) AS t(k, f, a, p)
       ON CONFLICT (account_id, folded) DO UPDATE SET keyword = EXCLUDED.keyword, action = EXCLUDED.action, position = EXCLUDED.position,
         updated_at = CASE WHEN (optout_keywords.keyword, optout_keywords.action, optout_keywords.position) IS DISTINCT FROM
                                (EXCLUDED.keyword, EXCLUDED.action, EXCLUDED.position) THEN now() ELSE optout_keywords.updated_at END`,
      [accountId, rows.map((r) => r.keyword), rows.map((r) => r.folded), rows.map((r) => r.action), rows.map((r) => r.position)],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "optout.settings_updated", { meta: { keywords: data.keywords, resume_keywords: data.resume_keywords } });
    return { data: await settingsOf(accountId, transaction) };
  });
}
