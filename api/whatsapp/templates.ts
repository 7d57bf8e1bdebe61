/**
 * WhatsApp message templates of the acting account (issue 16; spec sections 5 and 6). A template
 * is checked against Meta's rules here (./schemas: a refusal names the rule), written `pending`,
 * submitted through the number's integration (./integrations.ts: the WhatsApp Business Account at
 * Graph, or the BSP's template API for an onprem number), and then moved only by the provider's
 * word: Meta's template webhooks (./webhooks), or — the onprem BSP, which reports a review only in
 * its template list — that list, read when the account reads its templates (at most every
 * TEMPLATE_POLL_MS per number; ADR 035): approved, rejected with the provider's reason, paused,
 * disabled. Only approved templates can be sent. Templates are a plan feature (permission
 * `whatsapp`) hidden from the user and billing roles: the policy path /whatsapp/templates decides both.
 */
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { keyset, pageInput } from "../lib/page";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { can, decide, refusal } from "../policy/policy";
import { INTEGRATIONS, POLLED_INTEGRATIONS } from "./integrations";
import { numbersDueForTemplateSync, numbersWithPendingTemplates, ownNumber } from "./numbers";
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
  throw refusal(d);
}

const listSchema = z.object({
  status: z.enum(TEMPLATE_STATUSES, "validation.option").optional(),
  number_id: z
    .string()
    .regex(/^[0-9a-f-]{36}$/i, "validation.invalid")
    .optional(),
  integration: z.enum(["cloud", "onprem"], "validation.option").optional(),
  waba_id: z.string().trim().max(64, "validation.maxLength::64").optional(),
  ...pageInput,
});

/** How often a number's templates are read at a provider that must be asked (the onprem BSP), at most. */
export const TEMPLATE_POLL_MS = 2_000;
/** A provider that does not answer within this does not hold up the reading of the templates. */
const POLL_WAIT_MS = 5_000;

/**
 * Polls the template statuses of the account's numbers whose provider reports them only when asked
 * (ADR 035), before they are read: each number at most every TEMPLATE_POLL_MS, whoever reads. A
 * provider that fails or is slow is logged and the stored statuses are read as they are.
 */
async function refreshPolledTemplates(accountId: string, numberId: string | null): Promise<boolean> {
  const due = await numbersDueForTemplateSync(accountId, POLLED_INTEGRATIONS, numberId, TEMPLATE_POLL_MS);
  if (!due.length) return false;
  const polls = due.map((n) =>
    INTEGRATIONS[n.integration].syncTemplates!(n).catch((e) => console.warn(`whatsapp: reading the templates of ${n.phone_number_id} failed: ${(e as Error).message}`)),
  );
  await Promise.race([Promise.all(polls), new Promise((r) => setTimeout(r, POLL_WAIT_MS).unref?.())]);
  return true;
}

/**
 * The worker's sweep (ADR 035): a template still pending at a provider that reports reviews only
 * when asked is read without anyone opening the templates, so an approved one can be sent at once.
 */
export async function sweepPolledTemplates(): Promise<number> {
  const due = await numbersWithPendingTemplates(POLLED_INTEGRATIONS, env().WHATSAPP_TEMPLATE_SWEEP_MS);
  await Promise.all(
    due.map((n) =>
      INTEGRATIONS[n.integration].syncTemplates!(n).catch((e) => console.warn(`whatsapp: reading the templates of ${n.phone_number_id} failed: ${(e as Error).message}`)),
    ),
  );
  return due.length;
}

/** The account's templates newest first (created_at, id), filtered by status and number; `limit` a page after `cursor`. */
export async function listWhatsappTemplates(ctx: SignedInCtx, input: unknown): Promise<{ data: WhatsappTemplate[]; next_cursor: string | null }> {
  assertTemplates(ctx, "/whatsapp/templates");
  const q = validate(listSchema, input ?? {});
  await refreshPolledTemplates(ctx.actor.accountId, q.number_id ?? null);
  const after = timeIdCursor(q.cursor);
  const found = await rows<WhatsappTemplate & { position: string }>(
    `SELECT ${COLUMNS}, ${POSITION_SQL("created_at")} AS position FROM whatsapp_templates
      WHERE account_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::uuid IS NULL OR number_id = $3)
        AND ($5::text IS NULL AND $6::text IS NULL OR number_id IN (
              SELECT n.id FROM whatsapp_numbers n WHERE n.account_id = $1 AND ($5::text IS NULL OR n.integration = $5) AND ($6::text IS NULL OR n.waba_id = $6)))
        ${after ? "AND (created_at, id) < ($7::timestamptz, $8::uuid)" : ""}
      ORDER BY created_at DESC, id DESC LIMIT $4`,
    [ctx.actor.accountId, q.status ?? null, q.number_id ?? null, q.limit + 1, q.integration ?? null, q.waba_id ?? null, ...(after ?? [])],
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
  const read = () =>
    /^[0-9a-f-]{36}$/i.test(id) ? row<WhatsappTemplate>(`SELECT ${COLUMNS} FROM whatsapp_templates WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]) : null;
  const found = await read();
  if (!found) throw new AppError("NOT_FOUND");
  return { data: (await refreshPolledTemplates(ctx.actor.accountId, found.number_id)) ? ((await read()) ?? found) : found };
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
  const components = metaComponents(t);
  const created = await row<WhatsappTemplate>(
    `INSERT INTO whatsapp_templates (account_id, number_id, name, language, category, components, created_by)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
     ON CONFLICT (number_id, name, language) DO NOTHING
     RETURNING ${COLUMNS}`,
    [ctx.actor.accountId, number.id, t.name, t.language, t.category, JSON.stringify(components), ctx.actor.userId],
  );
  if (!created) throw new AppError("VALIDATION", { fields: { name: ["validation.waTemplateTaken"] } });
  let submitted: { id: string | null; status: string };
  try {
    submitted = await INTEGRATIONS[number.integration].submitTemplate(number, { name: t.name, language: t.language, category: t.category, components });
  } catch (e) {
    await exec(`DELETE FROM whatsapp_templates WHERE id = $1`, [created.id]);
    throw e instanceof AppError ? e : new AppError("PROVIDER_UNAVAILABLE");
  }
  // The provider may decide at once (an approved category match): the answer's status counts like a webhook's.
  const status = providerStatus(submitted.status) ?? "pending";
  const saved = await row<WhatsappTemplate>(
    `UPDATE whatsapp_templates SET provider_template_id = $2, status = CASE WHEN status = 'pending' THEN $3 ELSE status END, updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [created.id, submitted.id, status],
  );
  await recordAudit(ctx, "whatsapp.template_created", { meta: { id: created.id, name: t.name, language: t.language } });
  return { data: saved ?? created };
}

/** Deletes a template here and at its provider (every language of its name there, as Graph and the BSP do). */
export async function deleteWhatsappTemplate(ctx: SignedInCtx, id: string): Promise<{ deleted: number }> {
  assertTemplates(ctx, "/whatsapp/templates/new");
  const { data } = await getWhatsappTemplate(ctx, id);
  const number = await ownNumber(ctx.actor.accountId, data.number_id);
  // Submitted (the provider knows it): deleted there first; one already gone there is gone, anything else keeps it here.
  if (data.provider_template_id) await INTEGRATIONS[number.integration].deleteTemplate(number, data.name);
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

/**
 * DELETE /api/whatsapp/templates?ids=a,b (the spec's legacy bulk delete): every template named,
 * each as deleteWhatsappTemplate (all languages of its name, here and at the provider). An id that
 * is not the account's is 404 before anything is deleted; one whose name went with an earlier id counts once.
 */
export async function deleteWhatsappTemplates(ctx: SignedInCtx, ids: string[]): Promise<{ deleted: number; ids: string[] }> {
  assertTemplates(ctx, "/whatsapp/templates/new");
  const wanted = [...new Set(ids.map((i) => i.trim()).filter(Boolean))];
  if (!wanted.length || wanted.length > 100) throw new AppError("VALIDATION", { fields: { ids: [wanted.length ? "validation.maxItems::100" : "validation.required"] } });
  for (const id of wanted) await getWhatsappTemplate(ctx, id);
  let deleted = 0;
  const done: string[] = [];
  for (const id of wanted) {
    const still = await row<{ id: string }>(`SELECT id FROM whatsapp_templates WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
    if (!still) continue;
    deleted += (await deleteWhatsappTemplate(ctx, id)).deleted;
    done.push(id);
  }
  return { deleted, ids: done };
}
