/** Contacts, groups and custom fields, written directly (imports and the contacts screens are tested through their doors). */
import { type Query, type SqlExpression, given, insertRow, insertRows, runDb, updateRows } from "./sql";

export type ContactFields = {
  firstName?: string | null;
  lastName?: string | null;
  mobileNumber?: string | null;
  email?: string | null;
  company?: string | null;
  city?: string | null;
  description?: string | null;
  /** Values of the account's custom fields, by key. */
  custom?: Record<string, unknown>;
  tags?: string[];
  createdAt?: Date | string | SqlExpression;
  updatedAt?: Date | string | SqlExpression;
};

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
const BATCH = 2000;

/** Contacts of an account, in the order given; answers their ids in that order. Up to 2,000 rows go in one statement (and share its now()). */
export async function makeContacts(accountId: string, contacts: ContactFields[], q: Query = runDb): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < contacts.length; i += BATCH) {
    const rows = contacts.slice(i, i + BATCH).map((c) => ({ accountId, ...given(c) }));
    ids.push(...(await insertRows("contacts", rows, {}, q)).map((r) => r.id));
  }
  return ids;
}

export async function makeContact(accountId: string, fields: ContactFields = {}, q: Query = runDb): Promise<string> {
  const [id] = await makeContacts(accountId, [fields], q);
  return id;
}

/** Changes the account's contact with this mobile number. */
export async function setContactByMobile(accountId: string, mobileNumber: string, fields: ContactFields, q: Query = runDb): Promise<void> {
  await updateRows("contacts", { accountId, mobileNumber }, fields, "id", q);
}

export async function makeContactGroup(accountId: string, name = `Grupo ${Math.random().toString(36).slice(2, 8)}`, q: Query = runDb): Promise<string> {
  return (await insertRow("contact_groups", { accountId, name }, "id", q)).id;
}

/** Puts contacts in a group of the same account. */
export async function addToGroup(accountId: string, groupId: string, contactIds: string[], q: Query = runDb): Promise<void> {
  for (let i = 0; i < contactIds.length; i += BATCH) {
    const rows = contactIds.slice(i, i + BATCH).map((contactId) => ({ groupId, contactId, accountId }));
    await insertRows("contact_group_members", rows, { returning: "" }, q);
  }
}

/** A group holding new contacts; answers the group's id and the contacts' ids in the order given. */
export async function makeGroupWithContacts(accountId: string, name: string, contacts: ContactFields[], q: Query = runDb) {
  const groupId = await makeContactGroup(accountId, name, q);
  const contactIds = await makeContacts(accountId, contacts, q);
  await addToGroup(accountId, groupId, contactIds, q);
  return { groupId, contactIds };
}

export type CustomFieldFields = { key: string; label: string; type: "text" | "number" | "date" | "list"; options?: string[] };

export async function makeCustomFields(accountId: string, fields: CustomFieldFields[], q: Query = runDb): Promise<string[]> {
  return (
    await insertRows(
      "custom_fields",
      fields.map((f) => ({ accountId, ...given(f) })),
      {},
      q,
    )
  ).map((r) => r.id);
}

export type ContactImportFields = {
  status?: "uploaded" | "queued" | "running" | "completed" | "failed";
  mapping?: Record<string, string>;
  failure?: string | null;
  failureParams?: Record<string, unknown> | null;
  processedRows?: number;
  insertedRows?: number;
  startedAt?: Date | SqlExpression;
  createdAt?: Date | SqlExpression;
};

/** Puts an import (uploaded through the API) into a state, e.g. one a crashed job left behind. */
export async function setContactImport(importId: string, fields: ContactImportFields, q: Query = runDb): Promise<void> {
  const { mapping, failureParams, ...rest } = fields;
  const json = (v: unknown) => (v === undefined || v === null ? v : JSON.stringify(v));
  await updateRows("contact_imports", { id: importId }, { ...rest, mapping: json(mapping), failureParams: json(failureParams) }, "id", q);
}

/** A staging row of an import (a line read from its file, not yet merged into the contacts). */
export async function makeContactImportRow(importId: string, fields: { line: number; mobileNumber?: string; firstName?: string }, q: Query = runDb): Promise<void> {
  await insertRows("contact_import_rows", [{ importId, ...given(fields) }], { returning: "" }, q);
}
