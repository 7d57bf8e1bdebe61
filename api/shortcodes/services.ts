/**
 * Short codes of an account (spec section 3: number, nickname, deliverability): the platform
 * assigns them (admin area); the account lists them, sees which it can send from now and names
 * them. Every read is scoped by the acting account: another account's code is not found.
 */
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { assertCanWrite, can } from "../policy/policy";
import { shortCodeSchema } from "./schemas";
import { rows } from "../lib/sql";

export type ShortCodeView = {
  id: string;
  number: string;
  nickname: string;
  deliverability: string[];
  status: "active" | "inactive";
  created_at: string;
  updated_at: string;
};

const COLUMNS = `id, number, nickname, deliverability, status, created_at, updated_at`;

function assertAllowed(ctx: SignedInCtx, write = false) {
  if (!can(ctx.actor, "/sms/short-codes")) throw new AppError("FORBIDDEN");
  if (write) assertCanWrite(ctx.actor, "shortCodes");
}

function view(r: Omit<ShortCodeView, "created_at" | "updated_at"> & { created_at: Date | string; updated_at: Date | string }): ShortCodeView {
  return { ...r, created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString() };
}

/** Every short code of the account, by number. */
export async function listShortCodes(ctx: SignedInCtx): Promise<ShortCodeView[]> {
  assertAllowed(ctx);
  const found = await rows<ShortCodeView>(`SELECT ${COLUMNS} FROM short_codes WHERE account_id = $1 ORDER BY number`, [ctx.actor.accountId]);
  return found.map(view);
}

/** The account's short codes it can send from now: active and homologated with at least one carrier. */
export async function availableShortCodes(ctx: SignedInCtx): Promise<ShortCodeView[]> {
  return (await listShortCodes(ctx)).filter((c) => c.status === "active" && c.deliverability.length > 0);
}

export async function getShortCode(ctx: SignedInCtx, id: string): Promise<ShortCodeView> {
  assertAllowed(ctx);
  assertId(id);
  const [row] = await rows<ShortCodeView>(`SELECT ${COLUMNS} FROM short_codes WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!row) throw new AppError("NOT_FOUND");
  return view(row);
}

/** Renames the account's short code (the number and the deliverability belong to the platform). */
export async function updateShortCode(ctx: SignedInCtx, id: string, input: unknown): Promise<ShortCodeView> {
  assertAllowed(ctx, true);
  assertId(id);
  const data = validate(shortCodeSchema, input);
  const [row] = await rows<ShortCodeView>(`UPDATE short_codes SET nickname = $3, updated_at = now() WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`, [
    id,
    ctx.actor.accountId,
    data.nickname,
  ]);
  if (!row) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "short_codes.updated", { meta: { id, number: row.number } });
  return view(row);
}
