/**
 * SMPP users of the acting account (policy route /sms/smpp): credentials its systems bind to our
 * SMPP server with. The password is generated (8 characters, the SMPP 3.4 maximum), stored only
 * as an argon2id hash (Bun.password) and answered once — on create and on a reset. Every query is
 * scoped by the acting account; system_id is unique on the platform.
 */
import { randomInt } from "node:crypto";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { keyset, pageInput } from "../lib/page";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { can } from "../policy/policy";
import { bulkDeleteSchema, createSmppUserSchema, updateSmppUserSchema } from "./schemas";
import { rows } from "../lib/sql";

export type SmppUser = { id: string; system_id: string; route: string; tps: number; enabled: boolean; created_at: Date; updated_at: Date };
const COLUMNS = "id, system_id, route, tps, enabled, created_at, updated_at";
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

function assertAllowed(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/sms/smpp")) throw new AppError("FORBIDDEN");
}

export function generateSmppPassword(): string {
  let s = "";
  for (let i = 0; i < 8; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

export const hashSmppPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

export async function listSmppUsers(ctx: SignedInCtx): Promise<{ data: SmppUser[] }> {
  assertAllowed(ctx);
  const data = await rows<SmppUser>(`SELECT ${COLUMNS} FROM smpp_users WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT 500`, [ctx.actor.accountId]);
  return { data };
}

const smppPageSchema = z.object(pageInput);

/**
 * GET /api/smpp/users: the account's SMPP users newest first (created_at, id), `limit` a page
 * (default 50, at most 200) after `cursor`. (The web screen lists them with listSmppUsers.)
 */
export async function pageSmppUsers(ctx: SignedInCtx, input: unknown): Promise<{ data: SmppUser[]; next_cursor: string | null }> {
  assertAllowed(ctx);
  const { limit, cursor } = validate(smppPageSchema, input ?? {});
  const after = timeIdCursor(cursor);
  const found = await rows<SmppUser & { position: string }>(
    `SELECT ${COLUMNS}, ${POSITION_SQL("created_at")} AS position FROM smpp_users
      WHERE account_id = $1 ${after ? "AND (created_at, id) < ($3::timestamptz, $4::uuid)" : ""}
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [ctx.actor.accountId, limit + 1, ...(after ?? [])],
  );
  return keyset(
    found,
    limit,
    (r) => [r.position, r.id],
    ({ position: _position, ...u }) => u,
  );
}

export async function getSmppUser(ctx: SignedInCtx, id: string): Promise<{ data: SmppUser }> {
  assertAllowed(ctx);
  assertId(id);
  const [row] = await rows<SmppUser>(`SELECT ${COLUMNS} FROM smpp_users WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!row) throw new AppError("NOT_FOUND");
  return { data: row };
}

export async function createSmppUser(ctx: SignedInCtx, input: unknown): Promise<{ data: SmppUser; password: string }> {
  assertAllowed(ctx);
  const data = validate(createSmppUserSchema, input);
  const password = generateSmppPassword();
  const hash = await hashSmppPassword(password);
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const found = await rows<SmppUser>(
      `INSERT INTO smpp_users (account_id, system_id, password_hash, route, tps, enabled, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (system_id) DO NOTHING RETURNING ${COLUMNS}`,
      [ctx.actor.accountId, data.system_id, hash, data.route, data.tps, data.enabled, ctx.actor.userId],
      { transaction },
    );
    if (!found[0]) throw new AppError("VALIDATION", { fields: { system_id: ["smpp.errors.systemIdTaken"] } });
    await recordAudit({ ...ctx, transaction }, "smpp_user.created", { meta: { id: found[0].id, system_id: data.system_id } });
    return { data: found[0], password };
  });
}

export async function updateSmppUser(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: SmppUser; password?: string }> {
  assertAllowed(ctx);
  assertId(id);
  const data = validate(updateSmppUserSchema, input);
  const password = data.reset_password ? generateSmppPassword() : undefined;
  const hash = password ? await hashSmppPassword(password) : null;
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const found = await rows<SmppUser>(
      `UPDATE smpp_users SET route = $3, tps = $4, enabled = $5, password_hash = COALESCE($6, password_hash), updated_at = now()
       WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, ctx.actor.accountId, data.route, data.tps, data.enabled, hash],
      { transaction },
    );
    if (!found[0]) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "smpp_user.updated", { meta: { id, route: data.route, tps: data.tps, enabled: data.enabled, password_reset: Boolean(password) } });
    return password ? { data: found[0], password } : { data: found[0] };
  });
}

export async function deleteSmppUser(ctx: SignedInCtx, id: string): Promise<{ ok: true }> {
  assertAllowed(ctx);
  assertId(id);
  const db = sequelize();
  await db.transaction(async (transaction) => {
    const gone = await rows<{ system_id: string }>(`DELETE FROM smpp_users WHERE id = $1 AND account_id = $2 RETURNING system_id`, [id, ctx.actor.accountId], { transaction });
    if (!gone[0]) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "smpp_user.deleted", { meta: { id, system_id: gone[0].system_id } });
  });
  return { ok: true };
}

/** Deletes the listed users of the account (ids of other accounts are ignored); answers how many. */
export async function deleteSmppUsers(ctx: SignedInCtx, input: unknown): Promise<{ deleted: number }> {
  assertAllowed(ctx);
  const { ids } = validate(bulkDeleteSchema, input);
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const gone = await rows<{ id: string }>(`DELETE FROM smpp_users WHERE account_id = $1 AND id = ANY($2::uuid[]) RETURNING id`, [ctx.actor.accountId, ids], { transaction });
    if (gone.length) await recordAudit({ ...ctx, transaction }, "smpp_user.deleted", { meta: { ids: gone.map((g) => g.id) } });
    return { deleted: gone.length };
  });
}
