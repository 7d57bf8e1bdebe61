/**
 * Tabulations: the outcome an agent records on a room before closing it (required when the
 * account's tabulation_required is on). Managed on /tabulations (plan permission "tab"); agents
 * read the active ones (GET omni/tabs, webchat/tabs) under /live. The tabulation named GENERIC is
 * the system's own and is hidden from agents (spec section 9).
 */
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { assertAnyPath, assertPath, assertWriter, iso, isUniqueViolation } from "./access";
import { rows } from "../lib/sql";
import { tabulationActiveSchema, tabulationSchema } from "./schemas";

const SCREEN = "/tabulations";
export type TabulationView = { id: string; name: string; active: boolean; created_at: string; updated_at: string };
type Row = { id: string; name: string; active: boolean; created_at: Date; updated_at: Date };
const COLS = "id, name, active, created_at, updated_at";
const view = (r: Row): TabulationView => ({ id: r.id, name: r.name, active: r.active, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! });
const taken = () => new AppError("VALIDATION", { fields: { name: ["live.tabulations.nameTaken"] } });

/** Every tabulation of the account (the management screen). */
export async function listTabulations(ctx: SignedInCtx): Promise<TabulationView[]> {
  assertPath(ctx, SCREEN);
  const r = await rows<Row>(`SELECT ${COLS} FROM live_tabulations WHERE account_id = $1 ORDER BY lower(name), id`, [ctx.actor.accountId]);
  return r.map(view);
}

/** One tabulation of the account (the management screen's permission). */
export async function getTabulation(ctx: SignedInCtx, id: string): Promise<TabulationView> {
  assertPath(ctx, SCREEN);
  assertId(id);
  const [r] = await rows<Row>(`SELECT ${COLS} FROM live_tabulations WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!r) throw new AppError("NOT_FOUND");
  return view(r);
}

/** What an agent may pick on a room: the active ones, GENERIC hidden. */
export async function agentTabulations(ctx: SignedInCtx): Promise<Array<{ id: string; name: string }>> {
  assertAnyPath(ctx, "/live", SCREEN);
  return rows<{ id: string; name: string }>(`SELECT id, name FROM live_tabulations WHERE account_id = $1 AND active AND upper(name) <> 'GENERIC' ORDER BY lower(name), id`, [
    ctx.actor.accountId,
  ]);
}

export async function createTabulation(ctx: SignedInCtx, input: unknown): Promise<TabulationView> {
  assertWriter(ctx, SCREEN);
  const { name } = validate(tabulationSchema, input);
  try {
    const [r] = await rows<Row>(`INSERT INTO live_tabulations (account_id, name) VALUES ($1, $2) RETURNING ${COLS}`, [ctx.actor.accountId, name]);
    await recordAudit(ctx, "live.tabulation_created", { meta: { id: r.id, name } });
    return view(r);
  } catch (e) {
    if (isUniqueViolation(e)) throw taken();
    throw e;
  }
}

export async function renameTabulation(ctx: SignedInCtx, id: string, input: unknown): Promise<TabulationView> {
  assertWriter(ctx, SCREEN);
  assertId(id);
  const { name } = validate(tabulationSchema, input);
  try {
    const [r] = await rows<Row>(`UPDATE live_tabulations SET name = $3, updated_at = now() WHERE id = $1 AND account_id = $2 RETURNING ${COLS}`, [id, ctx.actor.accountId, name]);
    if (!r) throw new AppError("NOT_FOUND");
    await recordAudit(ctx, "live.tabulation_renamed", { meta: { id, name } });
    return view(r);
  } catch (e) {
    if (isUniqueViolation(e)) throw taken();
    throw e;
  }
}

export async function setTabulationActive(ctx: SignedInCtx, id: string, input: unknown): Promise<TabulationView> {
  assertWriter(ctx, SCREEN);
  assertId(id);
  const { active } = validate(tabulationActiveSchema, input);
  const [r] = await rows<Row>(`UPDATE live_tabulations SET active = $3, updated_at = now() WHERE id = $1 AND account_id = $2 RETURNING ${COLS}`, [id, ctx.actor.accountId, active]);
  if (!r) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, active ? "live.tabulation_activated" : "live.tabulation_deactivated", { meta: { id } });
  return view(r);
}

/** Rooms that used it keep their history (tabulation_id is set to NULL by the foreign key). */
export async function deleteTabulation(ctx: SignedInCtx, id: string): Promise<TabulationView> {
  assertWriter(ctx, SCREEN);
  assertId(id);
  const [r] = await rows<Row>(`DELETE FROM live_tabulations WHERE id = $1 AND account_id = $2 RETURNING ${COLS}`, [id, ctx.actor.accountId]);
  if (!r) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "live.tabulation_deleted", { meta: { id, name: r.name } });
  return view(r);
}

/** The API's PUT: a new name and/or active flag, in one call. */
export async function updateTabulation(ctx: SignedInCtx, id: string, input: unknown): Promise<TabulationView> {
  const b = (input ?? {}) as Record<string, unknown>;
  let last: TabulationView | undefined;
  if (b.name !== undefined || b.active === undefined) last = await renameTabulation(ctx, id, { name: b.name });
  if (b.active !== undefined) last = await setTabulationActive(ctx, id, { active: b.active });
  return last!;
}

/** Tabulations to choose from on a macro: the screen's list when the plan allows it, else the agents' list. */
export async function tabulationOptions(ctx: SignedInCtx): Promise<Array<{ id: string; name: string }>> {
  try {
    return (await listTabulations(ctx)).map((x) => ({ id: x.id, name: x.name }));
  } catch {
    return agentTabulations(ctx).catch(() => []);
  }
}
