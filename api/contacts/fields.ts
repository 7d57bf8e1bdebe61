/**
 * Custom contact fields of an account (text, number, date, list; required, sensitive, visible in
 * the attendance centre). Everyone on /contacts reads the definitions (forms render them); only
 * owner and admin define them, since the "sensitive" flag decides who sees what.
 * Changing a field's type keeps stored values as they are (the form asks for a valid one on the
 * next edit); deleting a field removes its key from every contact in one UPDATE.
 */
import { findOwned } from "../lib/owned";
import { literal, Op, UniqueConstraintError } from "sequelize";
import { CustomField, sequelize } from "../../models";
import type { CustomFieldType } from "../../models/constants";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { assertCan, assertPrivileged } from "./access";
import { customFieldSchema, customFieldUpdateSchema } from "./schemas";
import { exec } from "../lib/sql";

const FIELDS = "/contacts/fields";

export type CustomFieldView = {
  id: string;
  key: string;
  label: string;
  type: CustomFieldType;
  options: string[];
  required: boolean;
  sensitive: boolean;
  visible_in_attendance: boolean;
  position: number;
};

function view(d: CustomField): CustomFieldView {
  return {
    id: d.id,
    key: d.key,
    label: d.label,
    type: d.type,
    options: d.options ?? [],
    required: d.required,
    sensitive: d.sensitive,
    visible_in_attendance: d.visibleInAttendance,
    position: d.position,
  };
}

const taken = () => new AppError("CUSTOM_FIELD_TAKEN", { fields: { key: ["errors.CUSTOM_FIELD_TAKEN"] } });

export async function listCustomFields(ctx: SignedInCtx): Promise<CustomFieldView[]> {
  assertCan(ctx);
  const rows = await CustomField.findAll({
    where: { accountId: ctx.actor.accountId },
    order: [
      ["position", "ASC"],
      ["label", "ASC"],
    ],
  });
  return rows.map(view);
}

const fieldListSchema = z.object(pageInput);

/**
 * The same list for the API, keyset paged in display order (position, label, id): `limit` (50 by
 * default) and `cursor` (the `next_cursor` of the previous page). The screens' forms need every
 * definition at once and call listCustomFields.
 */
export async function pageCustomFields(ctx: SignedInCtx, query: unknown = {}): Promise<{ data: CustomFieldView[]; next_cursor: string | null }> {
  assertCan(ctx);
  const f = validate(fieldListSchema, query ?? {});
  const after = decodeCursor(f.cursor, ["number", "string", "string"]);
  if (after && !/^[0-9a-f-]{36}$/i.test(String(after[2]))) throw new AppError("VALIDATION", { fields: { cursor: ["validation.invalid"] } });
  const rows = await CustomField.findAll({
    where: {
      accountId: ctx.actor.accountId,
      ...(after
        ? { [Op.and]: [literal(`("position", "label", "id") > (${Number(after[0])}, ${sequelize().escape(String(after[1]))}, ${sequelize().escape(String(after[2]))}::uuid)`)] }
        : {}),
    },
    order: [
      ["position", "ASC"],
      ["label", "ASC"],
      ["id", "ASC"],
    ],
    limit: f.limit + 1,
  });
  return keyset(rows, f.limit, (d) => [d.position, d.label, d.id], view);
}

const findField = (ctx: SignedInCtx, id: string) => findOwned(CustomField, ctx, id);

export async function getCustomField(ctx: SignedInCtx, id: string) {
  assertCan(ctx);
  return view(await findField(ctx, id));
}

export async function createCustomField(ctx: SignedInCtx, input: unknown) {
  assertPrivileged(ctx, FIELDS);
  const data = validate(customFieldSchema, input);
  const position = data.position ?? ((await CustomField.max<number, CustomField>("position", { where: { accountId: ctx.actor.accountId } })) ?? -1) + 1;
  try {
    const d = await CustomField.create({
      accountId: ctx.actor.accountId,
      key: data.key,
      label: data.label,
      type: data.type,
      options: data.type === "list" ? data.options : [],
      required: data.required,
      sensitive: data.sensitive,
      visibleInAttendance: data.visible_in_attendance,
      position,
    });
    await recordAudit(ctx, "contacts.field_created", { meta: { fieldId: d.id, key: d.key } });
    return view(d);
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw taken();
    throw e;
  }
}

/** Everything but the key changes; stored values are not rewritten when the type changes. */
export async function updateCustomField(ctx: SignedInCtx, id: string, input: unknown) {
  assertPrivileged(ctx, FIELDS);
  const d = await findField(ctx, id);
  const data = validate(customFieldUpdateSchema, input);
  await d.update({
    label: data.label,
    type: data.type,
    options: data.type === "list" ? data.options : [],
    required: data.required,
    sensitive: data.sensitive,
    visibleInAttendance: data.visible_in_attendance,
    ...(data.position === undefined ? {} : { position: data.position }),
  });
  await recordAudit(ctx, "contacts.field_updated", { meta: { fieldId: d.id, key: d.key } });
  return view(d);
}

/** Delete the definition and, in the same transaction, its key from every contact of the account. */
export async function deleteCustomField(ctx: SignedInCtx, id: string) {
  assertPrivileged(ctx, FIELDS);
  const d = await findField(ctx, id);
  await sequelize().transaction(async (transaction) => {
    await d.destroy({ transaction });
    await exec(`UPDATE contacts SET custom = custom - $2::text WHERE account_id = $1 AND custom ? $2::text`, [ctx.actor.accountId, d.key], { transaction });
    await recordAudit({ ...ctx, transaction }, "contacts.field_deleted", { meta: { fieldId: d.id, key: d.key } });
  });
  return { id: d.id, key: d.key };
}
