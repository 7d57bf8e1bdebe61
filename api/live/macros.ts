/**
 * Macros (/chat/macros): a name and what applying it does, in order — send a message, add tags,
 * set a tabulation, close the room. Writers manage them; agents on /live list them to apply.
 */
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID, assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { keyset } from "../lib/page";
import { livePage } from "./config-page";
import { assertAnyPath, assertWriter, iso, isUniqueViolation } from "./access";
import { rows } from "../lib/sql";
import { closeRoom, sendAgentMessage, setRoomTags, setTabulation } from "./rooms/agent-actions";
import { getRoom } from "./rooms/queries";
import { settingsRow } from "./settings";
import { macroSchema } from "./schemas";

const SCREEN = "/chat/macros";
export type MacroView = {
  id: string;
  name: string;
  message: string | null;
  tags: string[];
  tabulation_id: string | null;
  tabulation_name: string | null;
  close: boolean;
  created_at: string;
  updated_at: string;
};
type Row = Omit<MacroView, "created_at" | "updated_at"> & { created_at: Date; updated_at: Date };
const SELECT = `SELECT m.id, m.name, m.message, m.tags, m.tabulation_id, t.name AS tabulation_name, m.close, m.created_at, m.updated_at
                  FROM live_macros m LEFT JOIN live_tabulations t ON t.id = m.tabulation_id`;
const view = (r: Row): MacroView => ({ ...r, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)! });
const taken = () => new AppError("VALIDATION", { fields: { name: ["live.macros.nameTaken"] } });

export async function listMacros(ctx: SignedInCtx): Promise<MacroView[]> {
  assertAnyPath(ctx, SCREEN, "/live");
  return (await rows<Row>(`${SELECT} WHERE m.account_id = $1 ORDER BY lower(m.name), m.id`, [ctx.actor.accountId])).map(view);
}

/** GET /chat/macros: a keyset page (?cursor=&limit=) by name (case-insensitive; unique in the account). */
export async function pageMacros(ctx: SignedInCtx, query: unknown) {
  assertAnyPath(ctx, SCREEN, "/live");
  const { after, limit } = livePage(query, ["string"]);
  const r = await rows<Row & { sort_key: string }>(
    `${SELECT.replace("SELECT ", "SELECT lower(m.name) AS sort_key, ")} WHERE m.account_id = $1 ${after ? "AND (lower(m.name), m.id) > ($2, $3::uuid)" : ""} ORDER BY lower(m.name), m.id LIMIT ${limit + 1}`,
    after ? [ctx.actor.accountId, after[0], after[1]] : [ctx.actor.accountId],
  );
  return keyset(
    r,
    limit,
    (x) => [x.sort_key, x.id],
    ({ sort_key: _, ...x }) => view(x),
  );
}

export async function getMacro(ctx: SignedInCtx, id: string): Promise<MacroView> {
  assertAnyPath(ctx, SCREEN, "/live");
  assertId(id);
  const [r] = await rows<Row>(`${SELECT} WHERE m.id = $1 AND m.account_id = $2`, [id, ctx.actor.accountId]);
  if (!r) throw new AppError("NOT_FOUND");
  return view(r);
}

async function checkTabulation(ctx: SignedInCtx, id: string | null) {
  if (!id) return;
  const ok = UUID.test(id) && (await rows(`SELECT 1 FROM live_tabulations WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId])).length > 0;
  if (!ok) throw new AppError("VALIDATION", { fields: { tabulation_id: ["validation.option"] } });
}

export async function createMacro(ctx: SignedInCtx, input: unknown): Promise<MacroView> {
  assertWriter(ctx, SCREEN);
  const v = validate(macroSchema, input);
  await checkTabulation(ctx, v.tabulation_id);
  try {
    const [{ id }] = await rows<{ id: string }>(`INSERT INTO live_macros (account_id, name, message, tags, tabulation_id, close) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, [
      ctx.actor.accountId,
      v.name,
      v.message,
      v.tags,
      v.tabulation_id,
      v.close,
    ]);
    await recordAudit(ctx, "live.macro_created", { meta: { id, name: v.name } });
    return getMacro(ctx, id);
  } catch (e) {
    if (isUniqueViolation(e)) throw taken();
    throw e;
  }
}

export async function updateMacro(ctx: SignedInCtx, id: string, input: unknown): Promise<MacroView> {
  assertWriter(ctx, SCREEN);
  assertId(id);
  const v = validate(macroSchema, input);
  await checkTabulation(ctx, v.tabulation_id);
  try {
    const r = await rows<{ id: string }>(
      `UPDATE live_macros SET name = $3, message = $4, tags = $5, tabulation_id = $6, close = $7, updated_at = now() WHERE id = $1 AND account_id = $2 RETURNING id`,
      [id, ctx.actor.accountId, v.name, v.message, v.tags, v.tabulation_id, v.close],
    );
    if (!r.length) throw new AppError("NOT_FOUND");
  } catch (e) {
    if (isUniqueViolation(e)) throw taken();
    throw e;
  }
  await recordAudit(ctx, "live.macro_updated", { meta: { id } });
  return getMacro(ctx, id);
}

export async function deleteMacro(ctx: SignedInCtx, id: string): Promise<{ id: string; name: string }> {
  assertWriter(ctx, SCREEN);
  assertId(id);
  const [r] = await rows<{ id: string; name: string }>(`DELETE FROM live_macros WHERE id = $1 AND account_id = $2 RETURNING id, name`, [id, ctx.actor.accountId]);
  if (!r) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "live.macro_deleted", { meta: { id, name: r.name } });
  return r;
}

/**
 * Applies a macro to a room the agent attends, in its order: the message, the tags (added to the
 * room's), the tabulation, then closing. Checked first (the room is the agent's and writable; a
 * close needs a tabulation when the account requires one), so a macro that cannot finish does
 * not start. Each step is the room use-case the agent would run by hand (same events).
 */
export async function applyMacro(ctx: SignedInCtx, roomId: string, macroId: string) {
  const macro = await getMacro(ctx, macroId);
  const room = await getRoom(ctx, roomId);
  if (room.status !== "OPEN") throw new AppError("LIVE_ROOM_STATE");
  if (room.agent_id !== ctx.actor.userId) throw new AppError("FORBIDDEN");
  if (room.locked) throw new AppError("LIVE_ROOM_LOCKED");
  if (macro.close && !macro.tabulation_id && !room.tabulation_id && (await settingsRow(room.account_id)).tabulation_required) {
    throw new AppError("LIVE_TABULATION_REQUIRED");
  }
  if (macro.message) await sendAgentMessage(ctx, room.id, { body: macro.message, clientId: `macro:${macro.id}:${Date.now()}` });
  if (macro.tags.length) await setRoomTags(ctx, room.id, [...room.tags, ...macro.tags]);
  if (macro.tabulation_id) await setTabulation(ctx, room.id, macro.tabulation_id);
  if (macro.close) await closeRoom(ctx, room.id, {});
  return { macro: macro.id, room: room.id, closed: macro.close };
}
