/**
 * RCS templates and template groups (issue 21; spec section 2 /rcs/templates, new, edit; section
 * 7 rcs/templates…): a template is a name (unique in the account, any case) and a content — the
 * spec's RCS content JSON checked by rcsContentSchema (ADR 055: a template is a saved composer
 * state). Groups gather templates (a template may be in several). Reading needs /rcs/templates;
 * writing /rcs/templates/new. Every query is scoped by the acting account; another account's
 * template or group is simply not found. Creates, edits and deletes are audited.
 */
import { UniqueConstraintError } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId, UUID } from "../lib/owned";
import { keyset, onePage, pageInput } from "../lib/page";
import { escapeLike, exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { GROUP_DELETE_MODES, groupSchema, templateNameSchema } from "./agent-schema";
import { type RcsContent, rcsContentSchema } from "./content";

export type RcsTemplate = { id: string; name: string; content: RcsContent; group_ids: string[]; created_at: Date; updated_at: Date };
export type RcsTemplateGroup = { id: string; name: string; template_ids: string[]; created_at: Date };

const SELECT = `SELECT t.id, t.name, t.content, t.created_at, t.updated_at,
  COALESCE((SELECT array_agg(m.group_id::text ORDER BY m.group_id) FROM rcs_template_group_members m WHERE m.template_id = t.id), '{}') AS group_ids
  FROM rcs_templates t`;

function assertRead(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/rcs/templates")) throw new AppError("FORBIDDEN");
}
function assertWrite(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/rcs/templates/new")) throw new AppError("FORBIDDEN");
}
/** Whether the actor may write templates (the screens show the forms or a read-only list). */
export const canWriteTemplates = (ctx: SignedInCtx) => can(ctx.actor, "/rcs/templates/new");

const nameTaken = () => new AppError("VALIDATION", { fields: { name: ["rcs.templates.errors.nameTaken"] } });
const groupTaken = () => new AppError("VALIDATION", { fields: { name: ["rcs.templates.errors.groupTaken"] } });

const templateSchema = z.object({
  name: templateNameSchema,
  content: rcsContentSchema,
  group_id: z
    .string()
    .regex(UUID, "validation.invalid")
    .nullish()
    .or(z.literal(""))
    .transform((v) => v || null),
});
const updateSchema = z.object({ id: z.string().regex(UUID, "validation.invalid"), name: templateNameSchema, content: rcsContentSchema });

const listSchema = z.object({
  q: z.string().trim().max(100, "validation.maxLength::100").optional(),
  group_id: z.string().regex(UUID, "validation.invalid").optional().or(z.literal("")),
  type: z.enum(["text", "link", "midia", "card", "card-carousel"], "validation.option").optional().or(z.literal("")),
  ...pageInput,
});

/** POST rcs/templates/list (and GET): the account's templates newest first, by name (any case, part of it), group or type. */
export async function listTemplates(ctx: SignedInCtx, input: unknown = {}) {
  assertRead(ctx);
  const q = validate(listSchema, input ?? {});
  const after = timeIdCursor(q.cursor);
  const found = await rows<RcsTemplate & { position: string }>(
    `${SELECT.replace("FROM rcs_templates t", `, ${POSITION_SQL("t.created_at")} AS position FROM rcs_templates t`)}
      WHERE t.account_id = $1
        AND ($2::text IS NULL OR t.name ILIKE '%' || $2 || '%')
        AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM rcs_template_group_members m WHERE m.template_id = t.id AND m.group_id = $3))
        AND ($4::text IS NULL OR t.content->>'type' = $4)
        ${after ? "AND (t.created_at, t.id) < ($6::timestamptz, $7::uuid)" : ""}
      ORDER BY t.created_at DESC, t.id DESC LIMIT $5`,
    [ctx.actor.accountId, q.q ? escapeLike(q.q) : null, q.group_id || null, q.type || null, q.limit + 1, ...(after ?? [])],
  );
  return keyset(
    found,
    q.limit,
    (r) => [r.position, r.id],
    ({ position: _p, ...r }) => r,
  );
}

/** GET one: a template of the account (404 otherwise). */
export async function getTemplate(ctx: SignedInCtx, id: string): Promise<{ data: RcsTemplate }> {
  assertRead(ctx);
  assertId(id);
  const found = await row<RcsTemplate>(`${SELECT} WHERE t.id = $1 AND t.account_id = $2`, [id, ctx.actor.accountId]);
  if (!found) throw new AppError("NOT_FOUND");
  return { data: found };
}

async function ownGroup(ctx: SignedInCtx, id: string, transaction?: import("sequelize").Transaction) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const g = await row<{ id: string; name: string }>(`SELECT id, name FROM rcs_template_groups WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId], { transaction });
  if (!g) throw new AppError("NOT_FOUND");
  return g;
}

/** POST rcs/templates: a new template (a name not used in the account; the content checked), optionally in a group of the account. */
export async function createTemplate(ctx: SignedInCtx, input: unknown): Promise<{ data: RcsTemplate }> {
  assertWrite(ctx);
  const d = validate(templateSchema, input);
  const id = await sequelize().transaction(async (transaction) => {
    if (d.group_id)
      await ownGroup(ctx, d.group_id, transaction).catch(() => {
        throw new AppError("VALIDATION", { fields: { group_id: ["validation.option"] } });
      });
    let created: { id: string };
    try {
      created = (await row<{ id: string }>(
        `INSERT INTO rcs_templates (account_id, name, content) VALUES ($1, $2, $3::jsonb) RETURNING id`,
        [ctx.actor.accountId, d.name, JSON.stringify(d.content)],
        {
          transaction,
        },
      ))!;
    } catch (e) {
      if (e instanceof UniqueConstraintError) throw nameTaken();
      throw e;
    }
    if (d.group_id)
      await exec(`INSERT INTO rcs_template_group_members (account_id, group_id, template_id) VALUES ($1, $2, $3)`, [ctx.actor.accountId, d.group_id, created.id], { transaction });
    await recordAudit({ ...ctx, transaction }, "rcs.template_created", { meta: { id: created.id, name: d.name, type: d.content.type } });
    return created.id;
  });
  return getTemplate(ctx, id);
}

/** PUT rcs/templates: a template's new name and content (`id` in the body). */
export async function updateTemplate(ctx: SignedInCtx, input: unknown): Promise<{ data: RcsTemplate }> {
  assertWrite(ctx);
  const d = validate(updateSchema, input);
  await sequelize().transaction(async (transaction) => {
    let n: number;
    try {
      n = await exec(
        `UPDATE rcs_templates SET name = $3, content = $4::jsonb, updated_at = now() WHERE id = $1 AND account_id = $2`,
        [d.id, ctx.actor.accountId, d.name, JSON.stringify(d.content)],
        {
          transaction,
        },
      );
    } catch (e) {
      if (e instanceof UniqueConstraintError || (e as { original?: { code?: string } }).original?.code === "23505") throw nameTaken();
      throw e;
    }
    if (n === 0) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "rcs.template_updated", { meta: { id: d.id, name: d.name, type: d.content.type } });
  });
  return getTemplate(ctx, d.id);
}

const idsSchema = z.object({ ids: z.array(z.string().regex(UUID, "validation.invalid")).min(1, "validation.required").max(500, "validation.maxLength::500") });

/** Delete templates of the account (the list's bulk delete); others' ids are ignored. Answers how many went. */
export async function deleteTemplates(ctx: SignedInCtx, input: unknown): Promise<{ deleted: number }> {
  assertWrite(ctx);
  const { ids } = validate(idsSchema, input);
  return sequelize().transaction(async (transaction) => {
    const gone = await rows<{ id: string; name: string }>(
      `DELETE FROM rcs_templates WHERE account_id = $1 AND id = ANY($2::uuid[]) RETURNING id, name`,
      [ctx.actor.accountId, ids],
      { transaction },
    );
    for (const t of gone) await recordAudit({ ...ctx, transaction }, "rcs.template_deleted", { meta: { id: t.id, name: t.name } });
    return { deleted: gone.length };
  });
}

/**
 * DELETE rcs/templates/{group}/{id}: the template `id`; `group` is "-" (wherever it is) or a group
 * of the account the template must be in (404 otherwise) — a delete from a group's screen cannot
 * hit a template that moved out of it meanwhile.
 */
export async function deleteTemplateIn(ctx: SignedInCtx, group: string, id: string): Promise<{ deleted: number }> {
  assertWrite(ctx);
  assertId(id);
  if (group !== "-") {
    await ownGroup(ctx, group);
    if (!(await row(`SELECT 1 AS one FROM rcs_template_group_members WHERE group_id = $1 AND template_id = $2`, [group, id]))) throw new AppError("NOT_FOUND");
  }
  const r = await deleteTemplates(ctx, { ids: [id] });
  if (r.deleted === 0) throw new AppError("NOT_FOUND");
  return r;
}

/** GET rcs/templates/groups: the account's groups by name, each with its templates' ids (bounded by the account's groups: one page). */
export async function listGroups(ctx: SignedInCtx) {
  assertRead(ctx);
  const found = await rows<RcsTemplateGroup>(
    `SELECT g.id, g.name, g.created_at,
        COALESCE((SELECT array_agg(m.template_id::text ORDER BY m.template_id) FROM rcs_template_group_members m WHERE m.group_id = g.id), '{}') AS template_ids
       FROM rcs_template_groups g WHERE g.account_id = $1 ORDER BY lower(g.name), g.id`,
    [ctx.actor.accountId],
  );
  return onePage(found);
}

/** POST rcs/templates/groups: a new group (a name not used in the account, any case). */
export async function createGroup(ctx: SignedInCtx, input: unknown): Promise<{ data: RcsTemplateGroup }> {
  assertWrite(ctx);
  const d = validate(groupSchema, input);
  return sequelize().transaction(async (transaction) => {
    let g: RcsTemplateGroup;
    try {
      g = (await row<RcsTemplateGroup>(
        `INSERT INTO rcs_template_groups (account_id, name) VALUES ($1, $2) RETURNING id, name, created_at, '{}'::text[] AS template_ids`,
        [ctx.actor.accountId, d.name],
        {
          transaction,
        },
      ))!;
    } catch (e) {
      if (e instanceof UniqueConstraintError) throw groupTaken();
      throw e;
    }
    await recordAudit({ ...ctx, transaction }, "rcs.template_group_created", { meta: { id: g.id, name: g.name } });
    return { data: g };
  });
}

/**
 * DELETE rcs/templates/groups/{group}/{mode}: the group; `mode` "keep" leaves its templates (only
 * detached), "templates" deletes its templates too. Answers how many templates were deleted.
 */
export async function deleteGroup(ctx: SignedInCtx, id: string, mode: string): Promise<{ deleted: number }> {
  assertWrite(ctx);
  if (!(GROUP_DELETE_MODES as readonly string[]).includes(mode)) throw new AppError("VALIDATION", { fields: { mode: ["validation.option"] } });
  return sequelize().transaction(async (transaction) => {
    const g = await ownGroup(ctx, id, transaction);
    let deleted = 0;
    if (mode === "templates") {
      const gone = await rows<{ id: string }>(
        `DELETE FROM rcs_templates WHERE account_id = $1 AND id IN (SELECT template_id FROM rcs_template_group_members WHERE group_id = $2) RETURNING id`,
        [ctx.actor.accountId, id],
        { transaction },
      );
      deleted = gone.length;
    }
    await exec(`DELETE FROM rcs_template_groups WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId], { transaction });
    await recordAudit({ ...ctx, transaction }, "rcs.template_group_deleted", { meta: { id, name: g.name, mode, templates_deleted: deleted } });
    return { deleted };
  });
}

async function ownTemplate(ctx: SignedInCtx, id: string, transaction?: import("sequelize").Transaction) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const t = await row<{ id: string }>(`SELECT id FROM rcs_templates WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId], { transaction });
  if (!t) throw new AppError("NOT_FOUND");
}

/** Put a template of the account in a group of the account (already there: unchanged). */
export async function attachTemplate(ctx: SignedInCtx, groupId: string, templateId: string) {
  assertWrite(ctx);
  await sequelize().transaction(async (transaction) => {
    await ownGroup(ctx, groupId, transaction);
    await ownTemplate(ctx, templateId, transaction);
    await exec(
      `INSERT INTO rcs_template_group_members (account_id, group_id, template_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [ctx.actor.accountId, groupId, templateId],
      { transaction },
    );
  });
  return getTemplate(ctx, templateId);
}

/**
 * POST rcs/templates/groups/dettach/{group}/{template}/{to}: takes the template out of `group`;
 * `to` is "-" (only detach) or another group of the account to move it into.
 */
export async function detachTemplate(ctx: SignedInCtx, groupId: string, templateId: string, to = "-") {
  assertWrite(ctx);
  await sequelize().transaction(async (transaction) => {
    await ownGroup(ctx, groupId, transaction);
    await ownTemplate(ctx, templateId, transaction);
    if (to !== "-") await ownGroup(ctx, to, transaction);
    const n = await exec(`DELETE FROM rcs_template_group_members WHERE account_id = $1 AND group_id = $2 AND template_id = $3`, [ctx.actor.accountId, groupId, templateId], {
      transaction,
    });
    if (n === 0) throw new AppError("NOT_FOUND");
    if (to !== "-") {
      await exec(`INSERT INTO rcs_template_group_members (account_id, group_id, template_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [ctx.actor.accountId, to, templateId], {
        transaction,
      });
    }
  });
  return getTemplate(ctx, templateId);
}
