/**
 * Canned (sample) messages an agent inserts by key while attending (spec sections 3 and 5:
 * agent_id, department_id, for_all, key, message; audience all, me or a department). Writers
 * (owner, admin, sales) create for any audience; anyone else on /live only for themselves.
 * An agent may use the for_all ones, their own and those of the departments they serve (the
 * membership's department plus live_agent_departments).
 */
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID, assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { keyset } from "../lib/page";
import { livePage } from "./config-page";
import { assertAnyPath, assertDepartments, iso, isLiveWriter } from "./access";
import { rows } from "../lib/sql";
import { sendAgentMessage } from "./rooms/agent-actions";
import { sampleApiSchema, sampleEditSchema, sampleFormSchema, type SampleAudience } from "./schemas";

export type SampleView = {
  id: string;
  key: string;
  message: string;
  for_all: boolean;
  agent_id: string | null;
  agent_name: string | null;
  department_id: string | null;
  department_name: string | null;
  audience: SampleAudience;
  created_at: string;
};
type Row = Omit<SampleView, "audience" | "created_at"> & { created_at: Date };

const SELECT = `SELECT s.id, s.key, s.message, s.for_all, s.user_id AS agent_id, nullif(trim(u.first_name || ' ' || u.last_name), '') AS agent_name,
                       s.department_id, d.name AS department_name, s.created_at
                  FROM live_samples s
                  LEFT JOIN users u ON u.id = s.user_id
                  LEFT JOIN departments d ON d.id = s.department_id`;
const view = (r: Row): SampleView => ({ ...r, audience: r.for_all ? "all" : r.department_id ? "department" : "me", created_at: iso(r.created_at)! });

function assertCan(ctx: SignedInCtx) {
  assertAnyPath(ctx, "/responses", "/live");
}

/** Every sample of the account for writers; the actor's own (and for_all / their departments') otherwise. */
export async function listSamples(ctx: SignedInCtx): Promise<SampleView[]> {
  assertCan(ctx);
  if (!isLiveWriter(ctx)) return samplesForAgent(ctx, ctx.actor.userId);
  const r = await rows<Row>(`${SELECT} WHERE s.account_id = $1 ORDER BY s.key, s.created_at`, [ctx.actor.accountId]);
  return r.map(view);
}

const AGENT_FILTER = `(s.for_all OR s.user_id = $2
             OR s.department_id IN (SELECT department_id FROM memberships WHERE account_id = $1 AND user_id = $2 AND department_id IS NOT NULL
                                    UNION SELECT department_id FROM live_agent_departments WHERE account_id = $1 AND user_id = $2))`;

/** One keyset page of samples matching `where` (over $1 = account and, for an agent, $2), by (key, id). */
async function pageOf(where: string, bind: unknown[], query: unknown) {
  const { after, limit } = livePage(query, ["string"]);
  const n = bind.length;
  const r = await rows<Row>(
    `${SELECT} WHERE ${where} ${after ? `AND (s.key, s.id) > ($${n + 1}, $${n + 2}::uuid)` : ""} ORDER BY s.key, s.id LIMIT ${limit + 1}`,
    after ? [...bind, after[0], after[1]] : bind,
  );
  return keyset(r, limit, (x) => [x.key, x.id], view);
}

/** GET /live/samples: as listSamples, a keyset page (?cursor=&limit=) by key. */
export async function pageSamples(ctx: SignedInCtx, query: unknown) {
  assertCan(ctx);
  if (!isLiveWriter(ctx)) return pageOf(`s.account_id = $1 AND ${AGENT_FILTER}`, [ctx.actor.accountId, ctx.actor.userId], query);
  return pageOf(`s.account_id = $1`, [ctx.actor.accountId], query);
}

/** GET webchat/samples/{agentId}: as samplesForAgent, a keyset page (?cursor=&limit=) by key. */
export async function pageSamplesForAgent(ctx: SignedInCtx, agentId: string, query: unknown) {
  assertCan(ctx);
  assertId(agentId);
  if (agentId !== ctx.actor.userId && !isLiveWriter(ctx)) throw new AppError("FORBIDDEN");
  return pageOf(`s.account_id = $1 AND ${AGENT_FILTER}`, [ctx.actor.accountId, agentId], query);
}

/** One sample: writers any of the account; others one they may use (for all, their own, their departments'). */
export async function getSample(ctx: SignedInCtx, id: string): Promise<SampleView> {
  assertCan(ctx);
  assertId(id);
  const [r] = await rows<Row>(`${SELECT} WHERE s.id = $3 AND s.account_id = $1 AND ($4::boolean OR ${AGENT_FILTER})`, [
    ctx.actor.accountId,
    ctx.actor.userId,
    id,
    isLiveWriter(ctx),
  ]);
  if (!r) throw new AppError("NOT_FOUND");
  return view(r);
}

/** The departments an agent serves in the account: the membership's own plus live_agent_departments. */
export async function agentDepartmentIds(accountId: string, userId: string): Promise<string[]> {
  const r = await rows<{ id: string }>(
    `SELECT department_id AS id FROM memberships WHERE account_id = $1 AND user_id = $2 AND department_id IS NOT NULL
     UNION SELECT department_id FROM live_agent_departments WHERE account_id = $1 AND user_id = $2`,
    [accountId, userId],
  );
  return r.map((x) => x.id);
}

/** GET webchat/samples/{agentId}: what that agent may use. Agents ask for themselves; writers for anyone. */
export async function samplesForAgent(ctx: SignedInCtx, agentId: string): Promise<SampleView[]> {
  assertCan(ctx);
  assertId(agentId);
  if (agentId !== ctx.actor.userId && !isLiveWriter(ctx)) throw new AppError("FORBIDDEN");
  const r = await rows<Row>(
    `${SELECT}
      WHERE s.account_id = $1
        AND (s.for_all OR s.user_id = $2
             OR s.department_id IN (SELECT department_id FROM memberships WHERE account_id = $1 AND user_id = $2 AND department_id IS NOT NULL
                                    UNION SELECT department_id FROM live_agent_departments WHERE account_id = $1 AND user_id = $2))
      ORDER BY s.key, s.created_at`,
    [ctx.actor.accountId, agentId],
  );
  return r.map(view);
}

type Target = { forAll: boolean; userId: string | null; departmentId: string | null };

async function insert(ctx: SignedInCtx, target: Target, key: string, message: string): Promise<SampleView> {
  if (!target.forAll && !target.departmentId && target.userId !== ctx.actor.userId && !isLiveWriter(ctx)) throw new AppError("FORBIDDEN");
  if ((target.forAll || target.departmentId) && !isLiveWriter(ctx)) throw new AppError("FORBIDDEN");
  if (target.departmentId) await assertDepartments(ctx, [target.departmentId], "department_id");
  if (target.userId) {
    const agent = UUID.test(target.userId) ? await rows(`SELECT 1 FROM memberships WHERE account_id = $1 AND user_id = $2`, [ctx.actor.accountId, target.userId]) : [];
    if (!agent.length) throw new AppError("VALIDATION", { fields: { agent_id: ["validation.option"] } });
  }
  const [{ id }] = await rows<{ id: string }>(`INSERT INTO live_samples (account_id, for_all, user_id, department_id, key, message) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, [
    ctx.actor.accountId,
    target.forAll,
    target.forAll ? null : target.userId,
    target.forAll ? null : target.departmentId,
    key,
    message,
  ]);
  await recordAudit(ctx, "live.sample_created", { meta: { id, key } });
  const [r] = await rows<Row>(`${SELECT} WHERE s.id = $1 AND s.account_id = $2`, [id, ctx.actor.accountId]);
  return view(r);
}

/** The /responses form: audience all, me (the actor) or a department. */
export async function createSample(ctx: SignedInCtx, input: unknown): Promise<SampleView> {
  assertCan(ctx);
  const v = validate(sampleFormSchema, input);
  return insert(
    ctx,
    { forAll: v.audience === "all", userId: v.audience === "me" ? ctx.actor.userId : null, departmentId: v.audience === "department" ? v.department_id : null },
    v.key,
    v.message,
  );
}

/** POST webchat/samples/create (agent_id, department_id, for_all, key, message); no audience = the actor. */
export async function createSampleFromApi(ctx: SignedInCtx, input: unknown): Promise<SampleView> {
  assertCan(ctx);
  const v = validate(sampleApiSchema, input);
  const departmentId = v.for_all ? null : v.department_id;
  const userId = v.for_all || departmentId ? null : (v.agent_id ?? ctx.actor.userId);
  return insert(ctx, { forAll: v.for_all, userId, departmentId }, v.key, v.message);
}

/** Writers edit any sample of the account (shortcut and text); others only their own. */
export async function updateSample(ctx: SignedInCtx, id: string, input: unknown): Promise<{ id: string; key: string; message: string }> {
  assertCan(ctx);
  assertId(id);
  const v = validate(sampleEditSchema, input);
  const [r] = await rows<{ id: string; key: string; message: string }>(
    `UPDATE live_samples SET key = $5, message = $6, updated_at = now()
     WHERE id = $1 AND account_id = $2 AND ($3::boolean OR (user_id = $4 AND NOT for_all AND department_id IS NULL)) RETURNING id, key, message`,
    [id, ctx.actor.accountId, isLiveWriter(ctx), ctx.actor.userId, v.key, v.message],
  );
  if (!r) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "live.sample_updated", { meta: { id, key: r.key } });
  return r;
}

/** Writers delete any sample of the account; others only their own. */
export async function deleteSample(ctx: SignedInCtx, id: string): Promise<{ id: string; key: string }> {
  assertCan(ctx);
  assertId(id);
  const [r] = await rows<{ id: string; key: string }>(
    `DELETE FROM live_samples WHERE id = $1 AND account_id = $2 AND ($3::boolean OR (user_id = $4 AND NOT for_all AND department_id IS NULL)) RETURNING id, key`,
    [id, ctx.actor.accountId, isLiveWriter(ctx), ctx.actor.userId],
  );
  if (!r) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "live.sample_deleted", { meta: { id, key: r.key } });
  return r;
}

/** Sends one of the agent's canned samples (for all, theirs, or their departments') to a room they attend. */
export async function sendSample(ctx: SignedInCtx, roomId: string, sampleId: string) {
  assertId(sampleId);
  const sample = (await samplesForAgent(ctx, ctx.actor.userId)).find((s) => s.id === sampleId);
  if (!sample) throw new AppError("VALIDATION", { fields: { sample_id: ["validation.option"] } });
  return sendAgentMessage(ctx, roomId, { body: sample.message });
}
