/**
 * Rows owned by an account, looked up by an id that came from a URL: anything that is not a
 * uuid, or a row of another account, is simply not found (never a database error, never a leak).
 */
import type { Model, ModelStatic, Transaction, WhereOptions } from "sequelize";
import type { SignedInCtx } from "./context";
import { AppError } from "./errors";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function assertId(id: string) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
}

export async function findOwned<M extends Model>(model: ModelStatic<M>, ctx: SignedInCtx, id: string, opts: { transaction?: Transaction } = {}): Promise<M> {
  assertId(id);
  const row = await model.findOne({ where: { id, accountId: ctx.actor.accountId } as unknown as WhereOptions<M>, transaction: opts.transaction });
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}
