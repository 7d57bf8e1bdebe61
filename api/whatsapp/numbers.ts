/**
 * WhatsApp numbers of the acting account (issue 16): connect a number, list them, disconnect one.
 * Two integrations (./integrations.ts says what differs): a number of Meta's Cloud API (checked
 * with the account's own token at Graph; the WhatsApp Business Account's webhooks pointed at
 * /api/webhooks/whatsapp/{id} with a verify token made here, Meta's handshake first; ADR 033) or
 * of a BSP's client in the On-Premises shape (logged in with the account's username and password
 * at its base URL, its health read, its callbacks pointed at /api/webhooks/whatsapp-onprem/{id}
 * with a token made here; ADR 035). A refusal is a 422 naming the form field. What the provider
 * says about the number is kept; the secrets (tokens, app secret, base URL and credentials) are
 * sealed (api/lib/crypto), never answered. Every query is scoped by the acting account; a number
 * belongs to one account at a time (409 NUMBER_ALREADY_REGISTERED).
 */
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { seal, unseal } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { keyset, pageInput } from "../lib/page";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { can } from "../policy/policy";
import { INTEGRATIONS, integrationOf, whatsappWebhookUrl } from "./integrations";
import { connectNumberSchema } from "./schemas";

export { whatsappWebhookUrl };

/** A Cloud API number's secrets (an onprem number's are read through onpremConnection, ./integrations.ts). */
export type WhatsappSecrets = { access_token: string; app_secret: string; verify_token: string };
export type WhatsappNumber = {
  id: string;
  integration: "cloud" | "onprem";
  phone_number_id: string;
  waba_id: string | null;
  display_phone_number: string;
  verified_name: string;
  quality_rating: string;
  messaging_limit: string;
  webhook_url: string;
  created_at: Date;
  updated_at: Date;
};
/** Internal facts beside the answered ones: the onprem number's template namespace (ADR 035). */
type Internal = { account_id: string; template_namespace: string | null };
type Row = Omit<WhatsappNumber, "webhook_url"> & Internal & { secrets_sealed: string };
export type NumberWithSecrets = Omit<WhatsappNumber, "webhook_url"> & Internal & { secrets: WhatsappSecrets };

const COLUMNS =
  "id, account_id, integration, phone_number_id, waba_id, display_phone_number, verified_name, quality_rating, messaging_limit, template_namespace, created_at, updated_at";
/** The same, of alias `n`. */
const N_COLUMNS = COLUMNS.split(", ")
  .map((c) => `n.${c}`)
  .join(", ");

function view(r: Omit<Row, "secrets_sealed">): WhatsappNumber {
  const { account_id: _account, template_namespace: _namespace, ...rest } = r;
  return { ...rest, webhook_url: INTEGRATIONS[r.integration].webhookUrl(r.id) };
}

/** Connecting and disconnecting numbers: the roles of /whatsapp/jv/numbers/new (spec section 6). */
function assertManage(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/whatsapp/jv/numbers/new")) throw new AppError("FORBIDDEN");
}

const listSchema = z.object({
  integration: z.enum(["cloud", "onprem"], "validation.option").optional(),
  waba_id: z.string().trim().max(64, "validation.maxLength::64").optional(),
  ...pageInput,
});

/** The account's numbers (of one integration, of one WABA, when given), oldest first (created_at, id), `limit` a page after `cursor`. */
export async function listWhatsappNumbers(ctx: SignedInCtx, input: unknown): Promise<{ data: WhatsappNumber[]; next_cursor: string | null }> {
  if (!can(ctx.actor, "/whatsapp/send") && !can(ctx.actor, "/whatsapp/history")) throw new AppError("FORBIDDEN");
  const { limit, cursor, integration, waba_id } = validate(listSchema, input ?? {});
  const after = timeIdCursor(cursor);
  const found = await rows<Row & { position: string }>(
    `SELECT ${COLUMNS}, ${POSITION_SQL("created_at")} AS position FROM whatsapp_numbers
      WHERE account_id = $1 AND ($3::text IS NULL OR integration = $3) AND ($4::text IS NULL OR waba_id = $4)
        ${after ? "AND (created_at, id) > ($5::timestamptz, $6::uuid)" : ""}
      ORDER BY created_at, id LIMIT $2`,
    [ctx.actor.accountId, limit + 1, integration ?? null, waba_id ?? null, ...(after ?? [])],
  );
  return keyset(
    found,
    limit,
    (r) => [r.position, r.id],
    ({ position: _p, ...r }) => view(r),
  );
}

/** A number of the account with its secrets (for the use-cases that call Graph), or 404. */
export async function ownNumber(accountId: string, id: string): Promise<NumberWithSecrets> {
  const found = await accountNumberById(accountId, id);
  if (!found) throw new AppError("NOT_FOUND");
  return found;
}

async function accountNumberById(accountId: string, id: string): Promise<NumberWithSecrets | null> {
  const found = /^[0-9a-f-]{36}$/i.test(id) ? await row<Row>(`SELECT ${COLUMNS}, secrets_sealed FROM whatsapp_numbers WHERE id = $1 AND account_id = $2`, [id, accountId]) : null;
  return found ? unsealed(found) : null;
}

/** What `from` of a send may be: the number's id here, or its phone number id (digits; a leading + as clients of the older API write it). */
export const SENDING_NUMBER = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\+?\d{1,30})$/i;

/** The account's number that sends as `from` (SENDING_NUMBER), with its secrets, or null. */
export async function sendingNumber(accountId: string, from: string): Promise<NumberWithSecrets | null> {
  const ref = from.trim();
  if (!/^\+?\d{1,30}$/.test(ref)) return accountNumberById(accountId, ref);
  return ownNumberByPhone(accountId, ref.replace(/^\+/, ""));
}

/** A number of the account by its phone number id (of `integration`, when given), with its secrets (the dispatcher's adapter), or null. */
export async function ownNumberByPhone(accountId: string, phoneNumberId: string, integration?: WhatsappNumber["integration"]): Promise<NumberWithSecrets | null> {
  const found = await row<Row>(
    `SELECT ${COLUMNS}, secrets_sealed FROM whatsapp_numbers WHERE account_id = $1 AND phone_number_id = $2 AND ($3::text IS NULL OR integration = $3) ORDER BY created_at LIMIT 1`,
    [accountId, phoneNumberId, integration ?? null],
  );
  return found ? unsealed(found) : null;
}

/**
 * Claims the account's numbers (of `integrations`; one number when given) whose templates were not
 * read at their provider in the last `everyMs` and that have templates: the caller polls them
 * (./templates.ts). The claim is the conditional update, so concurrent readers poll a number once.
 */
export async function numbersDueForTemplateSync(accountId: string, integrations: string[], numberId: string | null, everyMs: number): Promise<NumberWithSecrets[]> {
  if (!integrations.length || (numberId !== null && !/^[0-9a-f-]{36}$/i.test(numberId))) return [];
  const due = await rows<Row>(
    `UPDATE whatsapp_numbers n SET templates_synced_at = now()
      WHERE n.account_id = $1 AND n.integration = ANY($2::text[]) AND ($3::uuid IS NULL OR n.id = $3)
        AND (n.templates_synced_at IS NULL OR n.templates_synced_at < now() - make_interval(secs => $4::float8 / 1000))
        AND EXISTS (SELECT 1 FROM whatsapp_templates t WHERE t.number_id = n.id)
      RETURNING ${N_COLUMNS}, n.secrets_sealed`,
    [accountId, integrations, numberId, everyMs],
  );
  return due.map(unsealed);
}

/**
 * The worker's side of the same polling: numbers of any account, of those integrations, with a
 * template still pending, claimed (templates_synced_at) so each is read at most every `everyMs`
 * by whichever worker gets there first; at most `limit` per run.
 */
export async function numbersWithPendingTemplates(integrations: string[], everyMs: number, limit = 100): Promise<NumberWithSecrets[]> {
  if (!integrations.length) return [];
  const due = await rows<Row>(
    `UPDATE whatsapp_numbers n SET templates_synced_at = now()
      WHERE n.id IN (
        SELECT x.id FROM whatsapp_numbers x
         WHERE x.integration = ANY($1::text[]) AND (x.templates_synced_at IS NULL OR x.templates_synced_at < now() - make_interval(secs => $2::float8 / 1000))
           AND EXISTS (SELECT 1 FROM whatsapp_templates t WHERE t.number_id = x.id AND t.status = 'pending')
         ORDER BY x.templates_synced_at NULLS FIRST LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING ${N_COLUMNS}, n.secrets_sealed`,
    [integrations, everyMs, limit],
  );
  return due.map(unsealed);
}

/** A number by id with its secrets, whatever its account (the webhook route: the URL names it), or null. */
export async function numberById(id: string): Promise<NumberWithSecrets | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const found = await row<Row>(`SELECT ${COLUMNS}, secrets_sealed FROM whatsapp_numbers WHERE id = $1`, [id]);
  return found ? unsealed(found) : null;
}

/**
 * numberById for Meta's webhooks, which come by the thousand per second for the same few numbers:
 * kept NUMBER_CACHE_MS per process (a disconnected number's webhooks may still be verified for
 * that long; they only ever touch its own rows). Not for anything a person does.
 */
const NUMBER_CACHE_MS = 5_000;
const numberCache = new Map<string, { at: number; number: NumberWithSecrets | null }>();
export async function numberByIdCached(id: string): Promise<NumberWithSecrets | null> {
  const hit = numberCache.get(id);
  if (hit && Date.now() - hit.at < NUMBER_CACHE_MS) return hit.number;
  const number = await numberById(id);
  if (numberCache.size > 10_000) numberCache.clear();
  numberCache.set(id, { at: Date.now(), number });
  return number;
}

function unsealed(r: Row): NumberWithSecrets {
  const { secrets_sealed, ...rest } = r;
  return { ...rest, secrets: JSON.parse(unseal(secrets_sealed)) as WhatsappSecrets };
}

export async function connectWhatsappNumber(ctx: SignedInCtx, input: unknown): Promise<{ data: WhatsappNumber }> {
  assertManage(ctx);
  const data = validate(connectNumberSchema, input);
  const integration = integrationOf(data);
  const taken = await row<{ account_id: string }>(`SELECT account_id FROM whatsapp_numbers WHERE integration = $1 AND phone_number_id = $2`, [
    data.integration,
    integration.numberOf(data),
  ]);
  if (taken) throw new AppError("NUMBER_ALREADY_REGISTERED");
  const info = await integration.info(data);
  const created = await row<Row>(
    `INSERT INTO whatsapp_numbers (account_id, integration, phone_number_id, waba_id, base_url, display_phone_number, verified_name, quality_rating, messaging_limit, template_namespace, secrets_sealed, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (integration, phone_number_id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      ctx.actor.accountId,
      data.integration,
      info.phone_number_id,
      info.waba_id,
      info.base_url,
      info.display_phone_number,
      info.verified_name,
      info.quality_rating,
      info.messaging_limit,
      info.template_namespace,
      seal(JSON.stringify(info.secrets)),
      ctx.actor.userId,
    ],
  );
  if (!created) throw new AppError("NUMBER_ALREADY_REGISTERED");
  // The row exists (committed) before the provider may call its URL; if pointing the webhooks there fails, the number is not kept.
  try {
    await info.subscribe(created.id);
  } catch (e) {
    await exec(`DELETE FROM whatsapp_numbers WHERE id = $1`, [created.id]);
    throw e instanceof AppError ? e : new AppError("PROVIDER_UNAVAILABLE");
  }
  await recordAudit(ctx, "whatsapp.number_connected", { meta: { id: created.id, integration: data.integration, phone_number_id: info.phone_number_id } });
  return { data: view(created) };
}

/**
 * DELETE whatsapp/new/numbers/{number}: `number` is the number's id here or its phone number id.
 * Its templates go with it; the provider stops posting its webhooks (Meta's subscription removed,
 * the On-Premises client's webhook URL cleared; best effort: a provider that does not answer does
 * not keep the number connected here).
 */
export async function disconnectWhatsappNumber(ctx: SignedInCtx, number: string): Promise<{ deleted: number }> {
  assertManage(ctx);
  const byId = /^[0-9a-f-]{36}$/i.test(number);
  const found = await row<Row>(`DELETE FROM whatsapp_numbers WHERE account_id = $1 AND ${byId ? "id = $2::uuid" : "phone_number_id = $2"} RETURNING ${COLUMNS}, secrets_sealed`, [
    ctx.actor.accountId,
    number,
  ]);
  if (!found) throw new AppError("NOT_FOUND");
  const n = unsealed(found);
  await INTEGRATIONS[n.integration].disconnect(n).catch((e) => console.warn(`whatsapp: stopping the webhooks of ${n.phone_number_id} failed: ${(e as Error).message}`));
  await recordAudit(ctx, "whatsapp.number_disconnected", { meta: { id: n.id, phone_number_id: n.phone_number_id } });
  return { deleted: 1 };
}
