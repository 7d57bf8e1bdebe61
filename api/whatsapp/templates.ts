/**
 * WhatsApp message templates of the acting account (issue 16; spec sections 5 and 6). A template
 * is checked against Meta's rules here (./schemas: a refusal names the rule), written `pending`,
 * submitted to the number's WhatsApp Business Account, and then moved only by the provider's
 * template webhooks (./webhooks): approved, rejected with Meta's reason, paused, disabled. Only
 * approved templates can be sent. Templates are a plan feature (permission `whatsapp`) hidden
 * from the user and billing roles: the policy path /whatsapp/templates decides both.
 */
import { recordAudit } from "../audit/record";
import { deleteCloudTemplate, GraphError, submitCloudTemplate } from "../channels/whatsapp/cloud";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { keyset, pageInput } from "../lib/page";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { can, decide } from "../policy/policy";
import { ownNumber } from "./numbers";
import { createTemplateSchema, metaComponents } from "./schemas";

export const TEMPLATE_STATUSES = ["pending", "approved", "rejected", "paused", "disabled"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];
export type WhatsappTemplate = {
  id: string;
  number_id: string;
  name: string;
  language: string;
  category: string;
  components: unknown;
  status: TemplateStatus;
  reason: string | null;
  provider_template_id: string | null;
  created_at: Date;
  updated_at: Date;
};
const COLUMNS = "id, number_id, name, language, category, components, status, reason, provider_template_id, created_at, updated_at";

/** Templates are behind the plan's `whatsapp` permission and hidden from some roles: 403 PLAN_REQUIRED or FORBIDDEN. */
function assertTemplates(ctx: SignedInCtx, path: "/whatsapp/templates" | "/whatsapp/templates/new") {
  const d = decide(ctx.actor, path);
  if (d.allowed) return;
  throw new AppError(d.reason === "plan" ? "PLAN_REQUIRED" : "FORBIDDEN");
}

const listSchema = z.object({
  status: z.enum(TEMPLATE_STATUSES, "validation.option").optional(),
  number_id: z
    .string()
    .regex(/^[0-9a-f-]{36}$/i, "validation.invalid")
    .optional(),
  ...pageInput,
});

/** The account's templates newest first (created_at, id), filtered by status and number; `limit` a page after `cursor`. */
export async function listWhatsappTemplates(ctx: SignedInCtx, input: unknown): Promise<{ data: WhatsappTemplate[]; next_cursor: string | null }> {
  assertTemplates(ctx, "/whatsapp/templates");
  const q = validate(listSchema, input ?? {});
  const after = timeIdCursor(q.cursor);
  const found = await rows<WhatsappTemplate & { position: string }>(
    `SELECT ${COLUMNS}, ${POSITION_SQL("created_at")} AS position FROM whatsapp_templates
      WHERE account_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::uuid IS NULL OR number_id = $3)
        ${after ? "AND (created_at, id) < ($5::timestamptz, $6::uuid)" : ""}
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [ctx.actor.accountId, q.status ?? null, q.number_id ?? null, q.limit + 1, ...(after ?? [])],
  );
  return keyset(
    found,
    q.limit,
    (r) => [r.position, r.id],
    ({ position: _p, ...r }) => r,
  );
}

export async function getWhatsappTemplate(ctx: SignedInCtx, id: string): Promise<{ data: WhatsappTemplate }> {
  assertTemplates(ctx, "/whatsapp/templates");
  const found = /^[0-9a-f-]{36}$/i.test(id)
    ? await row<WhatsappTemplate>(`SELECT ${COLUMNS} FROM whatsapp_templates WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId])
    : null;
  if (!found) throw new AppError("NOT_FOUND");
  return { data: found };
}

/**
 * Creates and submits a template. The row is written first (`pending`, so a second submit of the
 * same name and language is refused by the unique index: 422 on name), then Meta is asked; a
 * refusal (a 4xx: Meta's own rules) removes it and answers 422 on the form, a provider that does
 * not answer removes it and answers 502 PROVIDER_UNAVAILABLE: nothing half written.
 */
export async function createWhatsappTemplate(ctx: SignedInCtx, input: unknown): Promise<{ data: WhatsappTemplate }> {
  assertTemplates(ctx, "/whatsapp/templates/new");
  const t = validate(createTemplateSchema, input);
  const number = await ownNumber(ctx.actor.accountId, t.number_id).catch(() => {
    throw new AppError("VALIDATION", { fields: { number_id: ["validation.option"] } });
  });
  if (!number.waba_id) throw new AppError("VALIDATION", { fields: { number_id: ["validation.option"] } });
  const components = metaComponents(t);
  const created = await row<WhatsappTemplate>(
    `INSERT INTO whatsapp_templates (account_id, number_id, name, language, category, components, created_by)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
     ON CONFLICT (number_id, name, language) DO NOTHING
     RETURNING ${COLUMNS}`,
    [ctx.actor.accountId, number.id, t.name, t.language, t.category, JSON.stringify(components), ctx.actor.userId],
  );
  if (!created) throw new AppError("VALIDATION", { fields: { name: ["validation.waTemplateTaken"] } });
  let submitted: { id: string; status: string };
  try {
    submitted = await submitCloudTemplate(number.waba_id, number.secrets.access_token, { name: t.name, language: t.language, category: t.category, components });
  } catch (e) {
    await exec(`DELETE FROM whatsapp_templates WHERE id = $1`, [created.id]);
    if (e instanceof GraphError && e.permanent) throw new AppError("VALIDATION", { fields: { form: ["validation.waTemplateRefused"] } });
    throw new AppError("PROVIDER_UNAVAILABLE");
  }
  // Meta may decide at once (an approved category match): the answer's status counts like a webhook's.
  const status = providerStatus(submitted.status) ?? "pending";
  const saved = await row<WhatsappTemplate>(
    `UPDATE whatsapp_templates SET provider_template_id = $2, status = CASE WHEN status = 'pending' THEN $3 ELSE status END, updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [created.id, submitted.id, status],
  );
  await recordAudit(ctx, "whatsapp.template_created", { meta: { id: created.id, name: t.name, language: t.language } });
  return { data: saved ?? created };
}

/** Deletes a template here and at Meta (every language of its name there, as Graph does). */
export async function deleteWhatsappTemplate(ctx: SignedInCtx, id: string): Promise<{ deleted: number }> {
  assertTemplates(ctx, "/whatsapp/templates/new");
  const { data } = await getWhatsappTemplate(ctx, id);
  const number = await ownNumber(ctx.actor.accountId, data.number_id);
  if (number.waba_id && data.provider_template_id) {
    try {
      await deleteCloudTemplate(number.waba_id, number.secrets.access_token, data.name);
    } catch (e) {
      // Already gone at Meta is gone; anything else keeps it here, to be deleted again.
      if (!(e instanceof GraphError && e.permanent)) throw new AppError("PROVIDER_UNAVAILABLE");
    }
  }
  const n = await exec(`DELETE FROM whatsapp_templates WHERE account_id = $1 AND number_id = $2 AND name = $3`, [ctx.actor.accountId, number.id, data.name]);
  await recordAudit(ctx, "whatsapp.template_deleted", { meta: { id, name: data.name } });
  return { deleted: n };
}

/** Meta's template status (API answers and webhook events) in our words, or null for events that do not change it (FLAGGED…). */
export function providerStatus(event: string): TemplateStatus | null {
  switch (event.toUpperCase()) {
    case "PENDING":
      return "pending";
    case "APPROVED":
    case "REINSTATED":
      return "approved";
    case "REJECTED":
      return "rejected";
    case "PAUSED":
      return "paused";
    case "DISABLED":
      return "disabled";
    default:
      return null;
  }
}

/** Whether a person may see the templates screen at all (used by the sidebar later). */
export const seesTemplates = (ctx: SignedInCtx) => can(ctx.actor, "/whatsapp/templates");
