/**
 * SMS templates of an account: a name (unique per account, ignoring case) and a body with
 * {{variables}} (api/sms/template-vars.ts). Permission /sms/templates; every query scoped by the
 * account. Sends use a template by id (api/sms/accept.ts).
 */
import { Op, UniqueConstraintError, type Transaction } from "sequelize";
import { SmsTemplate, sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID, findOwned } from "../lib/owned";
import { keyset, pageInput } from "../lib/page";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { textIdCursor } from "./cursor";
import { can } from "../policy/policy";
import { bulkIdsSchema, smsTemplateSchema } from "./schemas";
import { templateVariables } from "./template-vars";
import { rows } from "../lib/sql";

const TEMPLATES = "/sms/templates";

export type SmsTemplateView = { id: string; name: string; body: string; variables: string[]; created_at: string; updated_at: string };

function assertCan(ctx: SignedInCtx) {
  if (!can(ctx.actor, TEMPLATES)) throw new AppError("FORBIDDEN");
}

const taken = () => new AppError("VALIDATION", { fields: { name: ["sms.templates.nameTaken"] } });

export function templateView(t: SmsTemplate): SmsTemplateView {
  return {
    id: t.id,
    name: t.name,
    body: t.body,
    variables: templateVariables(t.body),
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

/** Every template of the account, by name. */
export async function listSmsTemplates(ctx: SignedInCtx): Promise<{ data: SmsTemplateView[] }> {
  assertCan(ctx);
  const rows = await SmsTemplate.findAll({
    where: { accountId: ctx.actor.accountId },
    order: [
      [sequelize().fn("lower", sequelize().col("name")), "ASC"],
      ["id", "ASC"],
    ],
  });
  return { data: rows.map(templateView) };
}

const templatePageSchema = z.object(pageInput);

/**
 * GET /api/sms/templates: the account's templates by name (ignoring case), then id, `limit` a page
 * (default 50, at most 200) after `cursor` (the last row's [lower(name), id]).
 */
export async function pageSmsTemplates(ctx: SignedInCtx, input: unknown): Promise<{ data: SmsTemplateView[]; next_cursor: string | null }> {
  assertCan(ctx);
  const { limit, cursor } = validate(templatePageSchema, input ?? {});
  const after = textIdCursor(cursor);
  // Keyset on (lower(name), id): lower(name) is unique in the account (index sms_templates_account_name_idx).
  const found = await rows<{ id: string; name: string; body: string; created_at: Date; updated_at: Date; sort: string }>(
    `SELECT id, name, body, created_at, updated_at, lower(name) AS sort FROM sms_templates
      WHERE account_id = $1 ${after ? "AND (lower(name), id) > ($3, $4::uuid)" : ""}
      ORDER BY lower(name), id LIMIT $2`,
    [ctx.actor.accountId, limit + 1, ...(after ?? [])],
  );
  return keyset(
    found,
    limit,
    (r) => [r.sort, r.id],
    (r) => ({
      id: r.id,
      name: r.name,
      body: r.body,
      variables: templateVariables(r.body),
      created_at: new Date(r.created_at).toISOString(),
      updated_at: new Date(r.updated_at).toISOString(),
    }),
  );
}

export async function getSmsTemplate(ctx: SignedInCtx, id: string): Promise<SmsTemplateView> {
  assertCan(ctx);
  return templateView(await findOwned(SmsTemplate, ctx, id));
}

/** The account's template `id` for a send (permission /sms/send is the caller's), or a field error on template_id. */
export async function templateForSend(ctx: SignedInCtx, id: string, transaction?: Transaction): Promise<SmsTemplate> {
  const row = UUID.test(id) ? await SmsTemplate.findOne({ where: { id, accountId: ctx.actor.accountId }, transaction }) : null;
  if (!row) throw new AppError("VALIDATION", { fields: { template_id: ["validation.option"] } });
  return row;
}

export async function createSmsTemplate(ctx: SignedInCtx, input: unknown): Promise<SmsTemplateView> {
  assertCan(ctx);
  const data = validate(smsTemplateSchema, input);
  try {
    const t = await SmsTemplate.create({ accountId: ctx.actor.accountId, name: data.name, body: data.body });
    await recordAudit(ctx, "sms.template_created", { meta: { templateId: t.id } });
    return templateView(t);
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw taken();
    throw e;
  }
}

export async function updateSmsTemplate(ctx: SignedInCtx, id: string, input: unknown): Promise<SmsTemplateView> {
  assertCan(ctx);
  const t = await findOwned(SmsTemplate, ctx, id);
  const data = validate(smsTemplateSchema, input);
  try {
    await t.update({ name: data.name, body: data.body });
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw taken();
    throw e;
  }
  await recordAudit(ctx, "sms.template_updated", { meta: { templateId: t.id } });
  return templateView(t);
}

export async function deleteSmsTemplate(ctx: SignedInCtx, id: string): Promise<{ id: string; name: string }> {
  assertCan(ctx);
  const t = await findOwned(SmsTemplate, ctx, id);
  await t.destroy();
  await recordAudit(ctx, "sms.template_deleted", { meta: { templateId: t.id } });
  return { id: t.id, name: t.name };
}

/** Delete several templates of the account at once; ids of other accounts or unknown ids are ignored. */
export async function deleteSmsTemplates(ctx: SignedInCtx, input: unknown): Promise<{ deleted: number; ids: string[] }> {
  assertCan(ctx);
  const { ids } = validate(bulkIdsSchema, input);
  const valid = [...new Set(ids.filter((i) => UUID.test(i)).map((i) => i.toLowerCase()))];
  if (valid.length === 0) return { deleted: 0, ids: [] };
  return sequelize().transaction(async (transaction) => {
    const rows = await SmsTemplate.findAll({ where: { accountId: ctx.actor.accountId, id: { [Op.in]: valid } }, attributes: ["id"], transaction });
    const found = rows.map((r) => r.id);
    if (found.length) await SmsTemplate.destroy({ where: { accountId: ctx.actor.accountId, id: { [Op.in]: found } }, transaction });
    await recordAudit({ ...ctx, transaction }, "sms.templates_deleted", { meta: { count: found.length } });
    return { deleted: found.length, ids: found };
  });
}
