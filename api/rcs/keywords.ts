/**
 * RCS keywords (issue 21; spec section 7 GET, POST /rcs/keywords): an inbound text equal to a
 * keyword (any case) is answered by the agent with the keyword's answer while it is active (the
 * inbound side reads rcs_keywords; this module only manages them). A keyword is unique per agent,
 * any case ('This keyword already exists' on `keyword`). Reading needs /rcs/agents; writing
 * /rcs/request (who manages the agents). Scoped by account: another account's agent or keyword
 * is not found. Changes are audited.
 */
import { UniqueConstraintError } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId, UUID } from "../lib/owned";
import { onePage } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { keywordSchema } from "./agent-schema";

export type RcsKeyword = { id: string; agent_id: string; keyword: string; answer: string; active: boolean; created_at: Date; updated_at: Date };
const COLUMNS = "id, agent_id, keyword, answer, active, created_at, updated_at";

function assertRead(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/rcs/agents")) throw new AppError("FORBIDDEN");
}
function assertWrite(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/rcs/request")) throw new AppError("FORBIDDEN");
}
const taken = () => new AppError("VALIDATION", { fields: { keyword: ["rcs.keywords.errors.taken"] } });
const agentField = (message = "validation.option") => new AppError("VALIDATION", { fields: { agent_id: [message] } });

async function ownAgent(ctx: SignedInCtx, id: unknown, transaction?: import("sequelize").Transaction) {
  if (typeof id !== "string" || id === "") throw agentField("validation.required");
  if (!UUID.test(id)) throw agentField();
  const a = await row<{ id: string }>(`SELECT id FROM rcs_agents WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId], { transaction });
  if (!a) throw agentField();
  return a.id;
}

const listSchema = z.object({ agent_id: z.string().regex(UUID, "validation.invalid").optional().or(z.literal("")) });

/** GET: the account's keywords (of one agent when `agent_id`), by keyword (bounded by the account's keywords: one page). */
export async function listKeywords(ctx: SignedInCtx, input: unknown = {}) {
  assertRead(ctx);
  const q = validate(listSchema, input ?? {});
  const found = await rows<RcsKeyword>(`SELECT ${COLUMNS} FROM rcs_keywords WHERE account_id = $1 AND ($2::uuid IS NULL OR agent_id = $2) ORDER BY lower(keyword), id`, [
    ctx.actor.accountId,
    q.agent_id || null,
  ]);
  return onePage(found);
}

/** POST: a keyword of an agent of the account (active unless said). */
export async function createKeyword(ctx: SignedInCtx, input: unknown): Promise<{ data: RcsKeyword }> {
  assertWrite(ctx);
  const raw = (input ?? {}) as Record<string, unknown>;
  const d = validate(keywordSchema, { ...raw, active: raw.active === undefined ? true : raw.active });
  return sequelize().transaction(async (transaction) => {
    const agentId = await ownAgent(ctx, raw.agent_id, transaction);
    const clash = await row(`SELECT 1 AS one FROM rcs_keywords WHERE agent_id = $1 AND lower(keyword) = lower($2)`, [agentId, d.keyword], { transaction });
    if (clash) throw taken();
    let k: RcsKeyword;
    try {
      k = (await row<RcsKeyword>(
        `INSERT INTO rcs_keywords (account_id, agent_id, keyword, answer, active) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [ctx.actor.accountId, agentId, d.keyword, d.answer, d.active],
        { transaction },
      ))!;
    } catch (e) {
      if (e instanceof UniqueConstraintError) throw taken();
      throw e;
    }
    await recordAudit({ ...ctx, transaction }, "rcs.keyword_created", { meta: { id: k.id, agent_id: agentId, keyword: k.keyword } });
    return { data: k };
  });
}

/** PUT: a keyword's text, answer and active flag. */
export async function updateKeyword(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: RcsKeyword }> {
  assertWrite(ctx);
  assertId(id);
  const d = validate(keywordSchema, input);
  return sequelize().transaction(async (transaction) => {
    const current = await row<{ agent_id: string }>(`SELECT agent_id FROM rcs_keywords WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId], { transaction });
    if (!current) throw new AppError("NOT_FOUND");
    if (await row(`SELECT 1 AS one FROM rcs_keywords WHERE agent_id = $1 AND lower(keyword) = lower($2) AND id <> $3`, [current.agent_id, d.keyword, id], { transaction }))
      throw taken();
    const k = (await row<RcsKeyword>(
      `UPDATE rcs_keywords SET keyword = $3, answer = $4, active = $5, updated_at = now() WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, ctx.actor.accountId, d.keyword, d.answer, d.active],
      { transaction },
    ))!;
    await recordAudit({ ...ctx, transaction }, "rcs.keyword_updated", { meta: { id, keyword: k.keyword, active: k.active } });
    return { data: k };
  });
}

/** DELETE: a keyword of the account. */
export async function deleteKeyword(ctx: SignedInCtx, id: string): Promise<{ deleted: number }> {
  assertWrite(ctx);
  assertId(id);
  return sequelize().transaction(async (transaction) => {
    const gone = await row<{ keyword: string }>(`DELETE FROM rcs_keywords WHERE id = $1 AND account_id = $2 RETURNING keyword`, [id, ctx.actor.accountId], { transaction });
    if (!gone) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "rcs.keyword_deleted", { meta: { id, keyword: gone.keyword } });
    return { deleted: 1 };
  });
}
