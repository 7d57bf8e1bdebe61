/**
 * Saving a contact. Creation merges into the account's contact with the same mobile number
 * (fields given win, missing ones keep their value, tags and custom values are united), so the
 * form, the API and the CSV import never make duplicates. Every query is scoped by account.
 */
import { UniqueConstraintError, type Transaction } from "sequelize";
import { Contact, ContactGroup, ContactGroupMember, CustomField, sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { assertCan, isPrivileged } from "./access";
import { checkCustomValues } from "./custom-values";
import { contactSchema, type ContactInput } from "./schemas";

const COLUMNS = [
  ["firstName", "first_name"],
  ["lastName", "last_name"],
  ["birthDate", "birth_date"],
  ["mobileNumber", "mobile_number"],
  ["phone", "phone"],
  ["email", "email"],
  ["gender", "gender"],
  ["company", "company"],
  ["website", "website"],
  ["address", "address"],
  ["number", "number"],
  ["complement", "complement"],
  ["district", "district"],
  ["zip", "zip"],
  ["city", "city"],
  ["state", "state"],
  ["country", "country"],
  ["description", "description"],
] as const;

import { assertId as assertContactId } from "../lib/owned";
import { rows } from "../lib/sql";

export { assertContactId };

async function checkGroups(accountId: string, groupIds: string[], transaction: Transaction) {
  if (!groupIds.length) return;
  const n = await ContactGroup.count({ where: { accountId, id: groupIds }, transaction });
  if (n !== new Set(groupIds).size) throw new AppError("VALIDATION", { fields: { group_ids: ["validation.invalid"] } });
}

/** Create, or merge into the contact with the same mobile number. Answers the id and whether it was new. */
export async function saveContact(ctx: SignedInCtx, input: unknown) {
  assertCan(ctx);
  const data: ContactInput = validate(contactSchema, input);
  const checked = await checkCustomValues(ctx.actor.accountId, data.custom, { creating: true });
  // A blank custom value never erases the merged contact's value ("missing ones keep their value").
  const custom = Object.fromEntries(Object.entries(checked).filter(([, v]) => v !== null));
  return sequelize().transaction(async (transaction) => {
    await checkGroups(ctx.actor.accountId, data.groupIds, transaction);
    const cols = COLUMNS.map(([, c]) => c);
    const values = COLUMNS.map(([k]) => data[k] ?? null);
    const placeholders = cols.map((_, i) => `$${i + 4}`).join(", ");
    const merge = cols
      .filter((c) => c !== "mobile_number")
      .map((c) => `${c} = COALESCE(EXCLUDED.${c}, contacts.${c})`)
      .join(", ");
    const [saved] = await rows<{ id: string; inserted: boolean }>(
      `INSERT INTO contacts (account_id, custom, tags, ${cols.join(", ")}) VALUES ($1, $2::jsonb, $3::text[], ${placeholders})
       ON CONFLICT (account_id, mobile_number) WHERE mobile_number IS NOT NULL DO UPDATE SET ${merge},
         custom = contacts.custom || EXCLUDED.custom,
         tags = ARRAY(SELECT DISTINCT unnest(contacts.tags || EXCLUDED.tags)),
         updated_at = now()
       RETURNING id, (xmax = 0) AS inserted`,
      [ctx.actor.accountId, JSON.stringify(custom), data.tags, ...values],
      { transaction },
    );
    const { id, inserted } = saved;
    for (const groupId of data.groupIds) {
      await ContactGroupMember.findOrCreate({ where: { groupId, contactId: id }, defaults: { groupId, contactId: id, accountId: ctx.actor.accountId }, transaction });
    }
    await recordAudit({ ...ctx, transaction }, inserted ? "contacts.created" : "contacts.merged", { meta: { contactId: id } });
    return { id, inserted };
  });
}

/** Edit every field of one contact; its mobile number may not be another contact's ('Number already registered'). */
export async function updateContact(ctx: SignedInCtx, contactId: string, input: unknown) {
  assertCan(ctx);
  assertContactId(contactId);
  const data: ContactInput = validate(contactSchema, input);
  const custom = await checkCustomValues(ctx.actor.accountId, data.custom, { creating: false });
  if (!isPrivileged(ctx)) {
    // Sensitive values are masked for this actor: a blank one means "unchanged", never "erase".
    const hidden = await CustomField.findAll({ where: { accountId: ctx.actor.accountId, sensitive: true }, attributes: ["key"] });
    for (const { key } of hidden) if (custom[key] === null) delete custom[key];
  }
  return sequelize().transaction(async (transaction) => {
    const contact = await Contact.findOne({ where: { id: contactId, accountId: ctx.actor.accountId }, transaction, lock: transaction.LOCK.UPDATE });
    if (!contact) throw new AppError("NOT_FOUND");
    if (data.mobileNumber && data.mobileNumber !== contact.mobileNumber) {
      const other = await Contact.findOne({ where: { accountId: ctx.actor.accountId, mobileNumber: data.mobileNumber }, transaction });
      if (other) throw new AppError("NUMBER_ALREADY_REGISTERED", { fields: { mobile_number: ["errors.NUMBER_ALREADY_REGISTERED"] } });
    }
    const patch: Partial<Contact> = {};
    for (const [k] of COLUMNS) (patch as Record<string, unknown>)[k] = data[k] ?? null;
    try {
      await contact.update({ ...patch, tags: data.tags, custom: { ...contact.custom, ...custom } }, { transaction });
    } catch (e) {
      // Another request gave the number to another contact in the meantime.
      if (e instanceof UniqueConstraintError) throw new AppError("NUMBER_ALREADY_REGISTERED", { fields: { mobile_number: ["errors.NUMBER_ALREADY_REGISTERED"] } });
      throw e;
    }
    await checkGroups(ctx.actor.accountId, data.groupIds, transaction);
    await ContactGroupMember.destroy({ where: { contactId, accountId: ctx.actor.accountId }, transaction });
    for (const groupId of data.groupIds) await ContactGroupMember.create({ groupId, contactId, accountId: ctx.actor.accountId }, { transaction });
    await recordAudit({ ...ctx, transaction }, "contacts.updated", { meta: { contactId } });
    return contact;
  });
}
