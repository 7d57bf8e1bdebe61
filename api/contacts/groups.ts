/** Contact groups of an account (many-to-many with contacts). Deleting a group keeps its contacts. */
import { findOwned } from "../lib/owned";
import { UniqueConstraintError } from "sequelize";
import { ContactGroup, sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { keyset, pageInput } from "../lib/page";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { assertCan } from "./access";
import { listContacts } from "./list";
import { groupSchema } from "./schemas";
import { textCursor } from "./time-cursor";
import { rows } from "../lib/sql";

const GROUPS = "/contacts/groups";

export type GroupView = { id: string; name: string; description: string; members: number; created_at: string };

const taken = () => new AppError("GROUP_NAME_TAKEN", { fields: { name: ["errors.GROUP_NAME_TAKEN"] } });

const groupListSchema = z.object(pageInput);

/**
 * The groups of the account with their member counts, by name (case-insensitive), keyset paged:
 * `limit` (50 by default) and `cursor` (the `next_cursor` of the previous page: the last row's
 * lower(name) and id).
 */
export async function listGroups(ctx: SignedInCtx, query: unknown = {}): Promise<{ data: GroupView[]; next_cursor: string | null }> {
  assertCan(ctx, GROUPS);
  const f = validate(groupListSchema, query ?? {});
  const after = textCursor(f.cursor);
  const bind: unknown[] = [ctx.actor.accountId];
  if (after) bind.push(...after);
  const found = await rows<{ id: string; name: string; description: string; members: number; created_at: Date; sort_name: string }>(
    `SELECT g.id, g.name, g.description, g.created_at, lower(g.name) AS sort_name,
            (SELECT count(*)::int FROM contact_group_members m WHERE m.group_id = g.id) AS members
       FROM contact_groups g WHERE g.account_id = $1 ${after ? "AND (lower(g.name), g.id) > ($2, $3::uuid)" : ""}
      ORDER BY lower(g.name), g.id LIMIT ${f.limit + 1}`,
    bind,
  );
  return keyset(
    found,
    f.limit,
    (g) => [g.sort_name, g.id],
    ({ sort_name: _s, ...g }) => ({ ...g, created_at: new Date(g.created_at).toISOString() }),
  );
}

/** Group names for forms and filters (contacts screens): id and name only, no counting. */
export async function groupOptions(ctx: SignedInCtx) {
  assertCan(ctx);
  const rows = await ContactGroup.findAll({
    where: { accountId: ctx.actor.accountId },
    attributes: ["id", "name"],
    order: [[sequelize().fn("lower", sequelize().col("name")), "ASC"]],
  });
  return rows.map((g) => ({ id: g.id, name: g.name }));
}

const findGroup = (ctx: SignedInCtx, id: string) => findOwned(ContactGroup, ctx, id);

/** One group with its member count and a keyset page of its contacts (`after`, and the list filters). */
export async function getGroup(ctx: SignedInCtx, id: string, query: Record<string, unknown> = {}) {
  assertCan(ctx, GROUPS);
  const g = await findGroup(ctx, id);
  const [members, contacts] = await Promise.all([
    rows<{ n: number }>(`SELECT count(*)::int AS n FROM contact_group_members WHERE group_id = $1`, [g.id]),
    listContacts(ctx, { ...query, group: g.id }),
  ]);
  return {
    group: { id: g.id, name: g.name, description: g.description, members: members[0]?.n ?? 0, created_at: g.createdAt.toISOString() } satisfies GroupView,
    contacts,
  };
}

export async function createGroup(ctx: SignedInCtx, input: unknown) {
  assertCan(ctx, GROUPS);
  const data = validate(groupSchema, input);
  try {
    const g = await ContactGroup.create({ accountId: ctx.actor.accountId, name: data.name, description: data.description });
    await recordAudit(ctx, "contacts.group_created", { meta: { groupId: g.id } });
    return { id: g.id, name: g.name, description: g.description, members: 0, created_at: g.createdAt.toISOString() } satisfies GroupView;
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw taken();
    throw e;
  }
}

export async function updateGroup(ctx: SignedInCtx, id: string, input: unknown) {
  assertCan(ctx, GROUPS);
  const g = await findGroup(ctx, id);
  const data = validate(groupSchema, input);
  try {
    await g.update({ name: data.name, description: data.description });
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw taken();
    throw e;
  }
  await recordAudit(ctx, "contacts.group_updated", { meta: { groupId: g.id } });
  return { id: g.id, name: g.name, description: g.description };
}

/** Delete a group; its members stay as contacts (only the memberships go). */
export async function deleteGroup(ctx: SignedInCtx, id: string) {
  assertCan(ctx, GROUPS);
  const g = await findGroup(ctx, id);
  await g.destroy();
  await recordAudit(ctx, "contacts.group_deleted", { meta: { groupId: g.id } });
  return { id: g.id, name: g.name };
}
