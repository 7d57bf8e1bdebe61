/**
 * E-mail templates of an account (issue 17, /mail/templates; ADR 037): a name (unique per account,
 * ignoring case), a subject, the MJML source and the HTML compiled from it at save (./mjml.ts), an
 * optional text part and an active flag. Sends name a template by id (api/email/send.ts): an
 * inactive one is refused with 'This template is not active'. Variables ({{first_name}}, custom
 * fields) are filled per recipient by ./variables.ts, from the values given and the account's
 * contact with that address. Permission /mail/templates; every query scoped by the account.
 */
import { type Transaction, UniqueConstraintError } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { keyset, pageInput } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { textIdCursor } from "../sms/cursor";
import { CONTACT_VARIABLES } from "../sms/accept";
import { compileMjml } from "./mjml";
import { emailBulkIdsSchema, emailTemplateSchema, emailTemplateUpdateSchema } from "./schemas";
import { type EmailParts, fillParts, fillVariables, partsVariables, SAMPLE_VALUES, type VariableValues } from "./variables";

export { fillVariables, fillParts };

export type EmailTemplateView = {
  id: string;
  name: string;
  subject: string;
  mjml: string;
  html: string;
  text: string | null;
  active: boolean;
  variables: string[];
  created_at: Date;
  updated_at: Date;
};
type Row = Omit<EmailTemplateView, "variables">;
const COLUMNS = "id, name, subject, mjml, html, text, active, created_at, updated_at";

export const view = (r: Row): EmailTemplateView => ({ ...r, variables: partsVariables(r.subject, r.mjml, r.text) });

function assertReach(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/mail/templates")) throw new AppError("FORBIDDEN");
}

const fieldError = (field: string, key: string) => new AppError("VALIDATION", { fields: { [field]: [key] } });
const nameTaken = () => fieldError("name", "validation.emailTemplateNameTaken");
const isUniqueViolation = (e: unknown) => e instanceof UniqueConstraintError;

async function ownTemplate(accountId: string, id: string, transaction?: Transaction): Promise<Row> {
  const found = UUID.test(id) ? await row<Row>(`SELECT ${COLUMNS} FROM email_templates WHERE id = $1 AND account_id = $2`, [id, accountId], { transaction }) : null;
  if (!found) throw new AppError("NOT_FOUND");
  return found;
}

/** POST /email/templates: compiled at save (an MJML error or HTML past the limit is a 422 on `mjml`). */
export async function createEmailTemplate(ctx: SignedInCtx, input: unknown): Promise<{ data: EmailTemplateView }> {
  assertReach(ctx);
  const data = validate(emailTemplateSchema, input);
  const html = await compileMjml(data.mjml);
  try {
    const created = (await row<Row>(
      `INSERT INTO email_templates (account_id, name, subject, mjml, html, text, active, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [ctx.actor.accountId, data.name, data.subject, data.mjml, html, data.text?.trim() ? data.text : null, data.active ?? true, ctx.actor.userId],
    ))!;
    await recordAudit(ctx, "email.template_created", { meta: { id: created.id } });
    return { data: view(created) };
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken();
    throw e;
  }
}

const listSchema = z.object({ ...pageInput, active: z.enum(["true", "false"], "validation.option").optional() });

/** GET /email/templates: by name (ignoring case), then id; `active=true|false` filters. */
export async function listEmailTemplates(ctx: SignedInCtx, input: unknown): Promise<{ data: EmailTemplateView[]; next_cursor: string | null }> {
  if (!can(ctx.actor, "/mail/templates") && !can(ctx.actor, "/mail/send")) throw new AppError("FORBIDDEN");
  const { limit, cursor, active } = validate(listSchema, input ?? {});
  const after = textIdCursor(cursor);
  const found = await rows<Row & { sort: string }>(
    `SELECT ${COLUMNS}, lower(name) AS sort FROM email_templates
      WHERE account_id = $1 AND ($3::boolean IS NULL OR active = $3)
        ${after ? "AND (lower(name), id) > ($4, $5::uuid)" : ""}
      ORDER BY lower(name), id LIMIT $2`,
    [ctx.actor.accountId, limit + 1, active === undefined ? null : active === "true", ...(after ?? [])],
  );
  return keyset(
    found,
    limit,
    (r) => [r.sort, r.id],
    ({ sort: _s, ...r }) => view(r),
  );
}

export async function getEmailTemplate(ctx: SignedInCtx, id: string): Promise<{ data: EmailTemplateView }> {
  assertReach(ctx);
  return { data: view(await ownTemplate(ctx.actor.accountId, id)) };
}

/** PUT /email/templates/{id}: the fields given (a new source is compiled again). */
export async function updateEmailTemplate(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: EmailTemplateView }> {
  assertReach(ctx);
  const current = await ownTemplate(ctx.actor.accountId, id);
  const data = validate(emailTemplateUpdateSchema, input ?? {});
  const html = data.mjml !== undefined && data.mjml !== current.mjml ? await compileMjml(data.mjml) : current.html;
  try {
    const updated = await row<Row>(
      `UPDATE email_templates SET name = $3, subject = $4, mjml = $5, html = $6, text = $7, active = $8, updated_at = now()
        WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [
        current.id,
        ctx.actor.accountId,
        data.name ?? current.name,
        data.subject ?? current.subject,
        data.mjml ?? current.mjml,
        html,
        data.text === undefined ? current.text : data.text.trim() ? data.text : null,
        data.active ?? current.active,
      ],
    );
    if (!updated) throw new AppError("NOT_FOUND");
    await recordAudit(ctx, "email.template_updated", { meta: { id, active: updated.active } });
    return { data: view(updated) };
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken();
    throw e;
  }
}

export async function deleteEmailTemplate(ctx: SignedInCtx, id: string): Promise<{ deleted: number }> {
  assertReach(ctx);
  const gone = UUID.test(id) ? await row<{ name: string }>(`DELETE FROM email_templates WHERE id = $1 AND account_id = $2 RETURNING name`, [id, ctx.actor.accountId]) : null;
  if (!gone) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "email.template_deleted", { meta: { id, name: gone.name } });
  return { deleted: 1 };
}

/** DELETE /email/templates {ids}: the account's templates among them (others' and unknown ids are ignored), in one transaction. */
export async function deleteEmailTemplates(ctx: SignedInCtx, input: unknown): Promise<{ deleted: number; ids: string[] }> {
  assertReach(ctx);
  const { ids } = validate(emailBulkIdsSchema, input);
  const valid = [...new Set(ids.filter((i) => UUID.test(i)).map((i) => i.toLowerCase()))];
  return sequelize().transaction(async (transaction) => {
    const gone = valid.length
      ? await rows<{ id: string }>(`DELETE FROM email_templates WHERE account_id = $1 AND id = ANY($2::uuid[]) RETURNING id`, [ctx.actor.accountId, valid], { transaction })
      : [];
    await recordAudit({ ...ctx, transaction }, "email.templates_deleted", { meta: { count: gone.length } });
    return { deleted: gone.length, ids: gone.map((g) => g.id) };
  });
}

/** The names contact fields give besides their custom fields' keys (CONTACT_VARIABLES of the SMS sends, less the SQL). */
const CONTACT_SELECT = Object.entries(CONTACT_VARIABLES)
  .map(([name, sql]) => `'${name}', ${sql}`)
  .join(", ");

/**
 * The values the account's contacts with these addresses give to variables (address in lower
 * case -> values): their custom fields, then the contact fields (which win on a same name).
 */
export async function contactValuesByEmail(accountId: string, emails: string[], transaction?: Transaction): Promise<Map<string, VariableValues>> {
  if (emails.length === 0) return new Map();
  const found = await rows<{ email: string; custom: Record<string, unknown>; fields: Record<string, string | null> }>(
    `SELECT DISTINCT ON (lower(c.email::text)) lower(c.email::text) AS email, c.custom, json_build_object(${CONTACT_SELECT}) AS fields
       FROM contacts c WHERE c.account_id = $1 AND lower(c.email::text) = ANY($2::text[])
      ORDER BY lower(c.email::text), c.created_at`,
    [accountId, emails.map((e) => e.toLowerCase())],
    { transaction },
  );
  return new Map(found.map((c) => [c.email, { ...scalarValues(c.custom), ...c.fields }]));
}

async function contactValuesById(accountId: string, contactId: string): Promise<VariableValues> {
  const c = UUID.test(contactId)
    ? await row<{ custom: Record<string, unknown>; fields: Record<string, string | null> }>(
        `SELECT c.custom, json_build_object(${CONTACT_SELECT}) AS fields FROM contacts c WHERE c.id = $1 AND c.account_id = $2`,
        [contactId, accountId],
      )
    : null;
  if (!c) throw fieldError("contact_id", "validation.option");
  return { ...scalarValues(c.custom), ...c.fields };
}

function scalarValues(custom: Record<string, unknown> | null): VariableValues {
  const out: VariableValues = {};
  for (const [k, v] of Object.entries(custom ?? {})) if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
  return out;
}

/** The account's template for a send (permission /mail/send is the caller's): a missing one is 'validation.option', an inactive one 'This template is not active', both on template_id. */
export async function templateForSend(accountId: string, id: string, transaction?: Transaction): Promise<Row> {
  const found = UUID.test(id) ? await row<Row>(`SELECT ${COLUMNS} FROM email_templates WHERE id = $1 AND account_id = $2`, [id, accountId], { transaction }) : null;
  if (!found) throw fieldError("template_id", "validation.option");
  if (!found.active) throw fieldError("template_id", "validation.emailTemplateInactive");
  return found;
}

/**
 * One template filled for one recipient, for any code that sends or shows it: the values given
 * first, then a contact's (by id, or the account's contact with that address), missing ones "".
 */
export async function renderTemplate(accountId: string, templateId: string, input: { variables?: VariableValues; contactId?: string; email?: string } = {}): Promise<EmailParts> {
  const t = await templateForSend(accountId, templateId);
  const contact = input.contactId
    ? await contactValuesById(accountId, input.contactId)
    : input.email
      ? ((await contactValuesByEmail(accountId, [input.email])).get(input.email.toLowerCase()) ?? null)
      : null;
  return fillParts({ subject: t.subject, html: t.html, text: t.text }, [input.variables, contact]);
}

const previewSchema = z.object({ contact_id: z.string().max(100).optional() });

/**
 * GET /email/templates/{id}/preview?contact_id=: the template filled from that contact of the
 * account, or with sample values (an inactive template can be previewed).
 */
export async function previewEmailTemplate(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: EmailParts & { contact_id: string | null; variables: string[] } }> {
  assertReach(ctx);
  const { contact_id } = validate(previewSchema, input ?? {});
  const t = await ownTemplate(ctx.actor.accountId, id);
  const values = contact_id ? await contactValuesById(ctx.actor.accountId, contact_id) : SAMPLE_VALUES;
  return { data: { ...fillParts({ subject: t.subject, html: t.html, text: t.text }, values), contact_id: contact_id ?? null, variables: view(t).variables } };
}

/** Sets a template active or inactive (the list's toggle). */
export async function setEmailTemplateActive(ctx: SignedInCtx, id: string, active: boolean): Promise<{ data: EmailTemplateView }> {
  return updateEmailTemplate(ctx, id, { active });
}

/** The account's contacts with an address a preview can be filled from (the first 200 by name): the screen's contact picker. */
export async function previewContacts(ctx: SignedInCtx): Promise<Array<{ id: string; label: string }>> {
  assertReach(ctx);
  const found = await rows<{ id: string; name: string | null; email: string }>(
    `SELECT id, NULLIF(concat_ws(' ', first_name, last_name), '') AS name, email::text AS email FROM contacts
      WHERE account_id = $1 AND email IS NOT NULL ORDER BY lower(coalesce(first_name, email::text)), id LIMIT 200`,
    [ctx.actor.accountId],
  );
  return found.map((c) => ({ id: c.id, label: c.name ? `${c.name} <${c.email}>` : c.email }));
}
