/** Departments of an account (live-chat queues route by department). Omni plan gated. */
import { Op, UniqueConstraintError } from "sequelize";
import { Department, Membership } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId, findOwned } from "../lib/owned";
import { validate } from "../lib/validate";
import { departmentSchema } from "./schemas";
import { assertCanWrite, decide, refusal } from "../policy/policy";

function assertAllowed(ctx: SignedInCtx, write = false) {
  const d = decide(ctx.actor, "/departments");
  if (!d.allowed) throw refusal(d);
  if (write) assertCanWrite(ctx.actor, "departments");
}

export async function listDepartments(ctx: SignedInCtx, q?: string) {
  assertAllowed(ctx);
  const rows = await Department.findAll({
    where: { accountId: ctx.actor.accountId, ...(q ? { name: { [Op.iLike]: `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } } : {}) },
    order: [["name", "ASC"]],
  });
  const counts = await Membership.count({ where: { accountId: ctx.actor.accountId }, group: ["departmentId"] });
  const byId = new Map((counts as unknown as Array<{ departmentId: string | null; count: number }>).map((c) => [c.departmentId, Number(c.count)]));
  return rows.map((d) => ({ id: d.id, name: d.name, description: d.description, status: d.status, members: byId.get(d.id) ?? 0, createdAt: d.createdAt }));
}

export async function getDepartment(ctx: SignedInCtx, id: string) {
  assertAllowed(ctx);
  const d = await findOwned(Department, ctx, id);
  const members = await Membership.count({ where: { accountId: ctx.actor.accountId, departmentId: d.id } });
  return { id: d.id, name: d.name, description: d.description, status: d.status, members, createdAt: d.createdAt };
}

export async function createDepartment(ctx: SignedInCtx, input: unknown) {
  assertAllowed(ctx, true);
  const data = validate(departmentSchema, input);
  try {
    const d = await Department.create({ ...data, accountId: ctx.actor.accountId });
    await recordAudit(ctx, "departments.created", { meta: { id: d.id, name: d.name } });
    return d;
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw new AppError("DEPARTMENT_NAME_TAKEN", { fields: { name: ["errors.DEPARTMENT_NAME_TAKEN"] } });
    throw e;
  }
}

export async function updateDepartment(ctx: SignedInCtx, id: string, input: unknown) {
  assertAllowed(ctx, true);
  const data = validate(departmentSchema, input);
  const d = await findOwned(Department, ctx, id);
  try {
    await d.update(data);
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw new AppError("DEPARTMENT_NAME_TAKEN", { fields: { name: ["errors.DEPARTMENT_NAME_TAKEN"] } });
    throw e;
  }
  await recordAudit(ctx, "departments.updated", { meta: { id } });
  return d;
}

export async function deleteDepartment(ctx: SignedInCtx, id: string) {
  assertAllowed(ctx, true);
  assertId(id);
  const n = await Department.destroy({ where: { id, accountId: ctx.actor.accountId } });
  if (!n) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "departments.deleted", { meta: { id } });
}
