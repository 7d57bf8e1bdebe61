/**
 * Deleting contacts and group membership, one or many at a time. Every statement is scoped by
 * the acting account: ids of another account's contacts are simply not touched.
 */
import { findOwned } from "../lib/owned";
import { ContactGroup, sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { assertCan, assertId } from "./access";
import { bulkSchema, idList } from "./schemas";
import { rows } from "../lib/sql";

const ids1000 = z.object({ ids: idList(1000).refine((l) => l.length > 0, "validation.required") });

const groupOf = (ctx: SignedInCtx, groupId: string) => findOwned(ContactGroup, ctx, groupId);

/** Delete the given contacts of the acting account (memberships cascade). Answers how many went. */
export async function deleteContacts(ctx: SignedInCtx, ids: unknown) {
  assertCan(ctx);
  const list = validate(ids1000, { ids }).ids;
  return sequelize().transaction(async (transaction) => {
    const found = await rows<{ id: string }>(`DELETE FROM contacts WHERE account_id = $1 AND id = ANY($2::uuid[]) RETURNING id`, [ctx.actor.accountId, list], { transaction });
    if (found.length) await recordAudit({ ...ctx, transaction }, "contacts.deleted", { meta: { ids: found.map((r) => r.id), count: found.length } });
    return { deleted: found.length };
  });
}

/** Delete one contact (NOT_FOUND when it is not the acting account's). */
export async function deleteContact(ctx: SignedInCtx, id: string) {
  assertCan(ctx);
  assertId(id);
  const { deleted } = await deleteContacts(ctx, [id]);
  if (!deleted) throw new AppError("NOT_FOUND");
}

/** Put the given contacts in a group (those already in it stay). Answers how many were added. */
export async function addToGroup(ctx: SignedInCtx, ids: unknown, groupId: string) {
  assertCan(ctx);
  const list = validate(ids1000, { ids }).ids;
  const group = await groupOf(ctx, groupId);
  return sequelize().transaction(async (transaction) => {
    const found = await rows<{ contact_id: string }>(
      `INSERT INTO contact_group_members (group_id, contact_id, account_id)
       SELECT $2, c.id, c.account_id FROM contacts c WHERE c.account_id = $1 AND c.id = ANY($3::uuid[])
       ON CONFLICT (group_id, contact_id) DO NOTHING RETURNING contact_id`,
      [ctx.actor.accountId, group.id, list],
      { transaction },
    );
    if (found.length) await recordAudit({ ...ctx, transaction }, "contacts.grouped", { meta: { groupId: group.id, ids: found.map((r) => r.contact_id), count: found.length } });
    return { added: found.length };
  });
}

/** Take the given contacts out of a group (they stay as contacts). Answers how many left it. */
export async function removeFromGroup(ctx: SignedInCtx, ids: unknown, groupId: string) {
  assertCan(ctx);
  const list = validate(ids1000, { ids }).ids;
  const group = await groupOf(ctx, groupId);
  return sequelize().transaction(async (transaction) => {
    const found = await rows<{ contact_id: string }>(
      `DELETE FROM contact_group_members WHERE account_id = $1 AND group_id = $2 AND contact_id = ANY($3::uuid[]) RETURNING contact_id`,
      [ctx.actor.accountId, group.id, list],
      { transaction },
    );
    if (found.length) await recordAudit({ ...ctx, transaction }, "contacts.ungrouped", { meta: { groupId: group.id, ids: found.map((r) => r.contact_id), count: found.length } });
    return { removed: found.length };
  });
}

/** One entry point for the bulk form and POST /api/contacts/bulk: { action, ids, group_id }. */
export async function bulkContacts(ctx: SignedInCtx, input: unknown) {
  assertCan(ctx);
  const v = validate(bulkSchema, input);
  if (v.action === "delete") return { action: v.action, count: (await deleteContacts(ctx, v.ids)).deleted };
  if (v.action === "add_to_group") return { action: v.action, count: (await addToGroup(ctx, v.ids, v.group_id!)).added };
  return { action: v.action, count: (await removeFromGroup(ctx, v.ids, v.group_id!)).removed };
}
