/**
 * Permission and query helpers shared by live chat's configuration use-cases. Screens are guarded
 * by their own path (the policy: /live* needs the omni plan, /tabulations the "tab" permission,
 * /opening-hours "opening_hour"); what agents read while attending is guarded by /live.
 */
import type { Transaction } from "sequelize";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { rows } from "../lib/sql";
import { assertCanWrite, canWrite, decide, refusal } from "../policy/policy";

/** Who changes live chat's configuration: the policy's `live` writers. */
export function isLiveWriter(ctx: SignedInCtx) {
  return canWrite(ctx.actor, "live");
}

/** The policy's answer for `path`, as PLAN_REQUIRED (no plan) or FORBIDDEN (role, path allow-list). */
export function assertPath(ctx: SignedInCtx, path: string) {
  const d = decide(ctx.actor, path);
  if (!d.allowed) throw refusal(d);
}

/** Any of `paths` (e.g. the config screen or the agents' workspace). */
export function assertAnyPath(ctx: SignedInCtx, ...paths: string[]) {
  if (paths.some((p) => decide(ctx.actor, p).allowed)) return;
  assertPath(ctx, paths[0]);
}

export function assertWriter(ctx: SignedInCtx, path: string) {
  assertPath(ctx, path);
  assertCanWrite(ctx.actor, "live");
}

export function iso(d: Date | string | null): string | null {
  return d === null ? null : new Date(d).toISOString();
}

/** A Postgres unique violation (raw queries reject with the driver's error inside Sequelize's). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { name?: string; parent?: { code?: string }; original?: { code?: string } };
  return err?.name === "SequelizeUniqueConstraintError" || err?.parent?.code === "23505" || err?.original?.code === "23505";
}

/** The account's department ids among `ids` (others' or unknown ones are a field error). */
export async function assertDepartments(ctx: SignedInCtx, ids: string[], field: string, transaction?: Transaction) {
  if (ids.length === 0) return;
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (!ids.every((i) => UUID.test(i))) throw new AppError("VALIDATION", { fields: { [field]: ["validation.option"] } });
  const found = await rows<{ id: string }>(`SELECT id FROM departments WHERE account_id = $1 AND id = ANY($2::uuid[])`, [ctx.actor.accountId, ids], { transaction });
  if (found.length !== new Set(ids).size) throw new AppError("VALIDATION", { fields: { [field]: ["validation.option"] } });
}

/** The account's departments as options for the live configuration forms (id, name). */
export function departmentOptions(ctx: SignedInCtx): Promise<Array<{ id: string; name: string }>> {
  return rows<{ id: string; name: string }>(`SELECT id, name FROM departments WHERE account_id = $1 ORDER BY name, id`, [ctx.actor.accountId]);
}
