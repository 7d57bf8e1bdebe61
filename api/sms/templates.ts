/**
 * SMS templates of an account: a name (unique per account, ignoring case) and a body with
 * {{variables}} (api/sms/template-vars.ts). Permission /sms/templates; every query scoped by the
 * account. Sends use a template by id (api/sms/accept.ts).
 */
import { Op, UniqueConstraintError, type Transaction } from "sequelize";
import { SmsTemplate, initModels, sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID, findOwned } from "../lib/owned";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { bulkIdsSchema, smsTemplateSchema } from "./schemas";
import { templateVariables } from "./template-vars";

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
  initModels();
  const rows = await SmsTemplate.findAll({ where: { accountId: ctx.actor.accountId }, order: [[sequelize().fn("lower", sequelize().col("name")), "ASC"], ["id", "ASC"]] });
  return { data: rows.map(templateView) };
}

export async function getSmsTemplate(ctx: SignedInCtx, id: string): Promise<SmsTemplateView> {
  assertCan(ctx);
  return templateView(await findOwned(SmsTemplate, ctx, id));
}

/** The account's template `id` for a send (permission /sms/send is the caller's), or a field error on template_id. */
export async function templateForSend(ctx: SignedInCtx, id: string, transaction?: Transaction): Promise<SmsTemplate> {
  initModels();
  const row = UUID.test(id) ? await SmsTemplate.findOne({ where: { id, accountId: ctx.actor.accountId }, transaction }) : null;
  if (!row) throw new AppError("VALIDATION", { fields: { template_id: ["validation.option"] } });
  return row;
}

export async function createSmsTemplate(ctx: SignedInCtx, input: unknown): Promise<SmsTemplateView> {
  assertCan(ctx);
  initModels();
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
  initModels();
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
