/**
 * WhatsApp numbers of the acting account (issue 16): connect a number of Meta's Cloud API, list
 * them, disconnect one. Connecting checks the number with the account's own token at Graph (a
 * wrong token or an unknown number is a 422 naming the field), keeps what Meta says about it
 * (display number, verified name, quality rating, messaging limit), and points the WhatsApp
 * Business Account's webhooks at this number's URL (/api/webhooks/whatsapp/{id}) with a verify
 * token made here: Meta checks it with the GET handshake before it answers. The secrets (token,
 * app secret, verify token) are sealed (api/lib/crypto), never answered. Every query is scoped by
 * the acting account; a number belongs to one account at a time (409 NUMBER_ALREADY_REGISTERED).
 */
import { recordAudit } from "../audit/record";
import { cloudNumberInfo, GraphError, subscribeCloudWebhooks, unsubscribeCloudWebhooks } from "../channels/whatsapp/cloud";
import type { SignedInCtx } from "../lib/context";
import { randomToken, seal, unseal } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { keyset, pageInput } from "../lib/page";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { can } from "../policy/policy";
import { connectCloudNumberSchema } from "./schemas";

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
type Row = Omit<WhatsappNumber, "webhook_url"> & { account_id: string; secrets_sealed: string };
export type NumberWithSecrets = Omit<WhatsappNumber, "webhook_url"> & { account_id: string; secrets: WhatsappSecrets };

const COLUMNS = "id, account_id, integration, phone_number_id, waba_id, display_phone_number, verified_name, quality_rating, messaging_limit, created_at, updated_at";

/** Where Meta posts a number's webhooks: through web's public address, like every provider webhook. */
export const whatsappWebhookUrl = (id: string) => `${env().APP_URL.replace(/\/+$/, "")}/api/webhooks/whatsapp/${id}`;

function view(r: Omit<Row, "secrets_sealed">): WhatsappNumber {
  const { account_id: _account, ...rest } = r;
  return { ...rest, webhook_url: whatsappWebhookUrl(r.id) };
}

/** Connecting and disconnecting numbers: the roles of /whatsapp/jv/numbers/new (spec section 6). */
function assertManage(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/whatsapp/jv/numbers/new")) throw new AppError("FORBIDDEN");
}

const listSchema = z.object(pageInput);

/** The account's numbers, oldest first (created_at, id), `limit` a page after `cursor`. */
export async function listWhatsappNumbers(ctx: SignedInCtx, input: unknown): Promise<{ data: WhatsappNumber[]; next_cursor: string | null }> {
  if (!can(ctx.actor, "/whatsapp/send") && !can(ctx.actor, "/whatsapp/history")) throw new AppError("FORBIDDEN");
  const { limit, cursor } = validate(listSchema, input ?? {});
  const after = timeIdCursor(cursor);
  const found = await rows<Row & { position: string }>(
    `SELECT ${COLUMNS}, ${POSITION_SQL("created_at")} AS position FROM whatsapp_numbers
      WHERE account_id = $1 ${after ? "AND (created_at, id) > ($3::timestamptz, $4::uuid)" : ""}
      ORDER BY created_at, id LIMIT $2`,
    [ctx.actor.accountId, limit + 1, ...(after ?? [])],
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
  const found = /^[0-9a-f-]{36}$/i.test(id) ? await row<Row>(`SELECT ${COLUMNS}, secrets_sealed FROM whatsapp_numbers WHERE id = $1 AND account_id = $2`, [id, accountId]) : null;
  if (!found) throw new AppError("NOT_FOUND");
  return unsealed(found);
}

/** A number of the account by its phone number id, with its secrets (the dispatcher's adapter), or null. */
export async function ownNumberByPhone(accountId: string, phoneNumberId: string): Promise<NumberWithSecrets | null> {
  const found = await row<Row>(`SELECT ${COLUMNS}, secrets_sealed FROM whatsapp_numbers WHERE account_id = $1 AND phone_number_id = $2`, [accountId, phoneNumberId]);
  return found ? unsealed(found) : null;
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
  const data = validate(connectCloudNumberSchema, input);
  const taken = await row<{ account_id: string }>(`SELECT account_id FROM whatsapp_numbers WHERE integration = 'cloud' AND phone_number_id = $1`, [data.phone_number_id]);
  if (taken) throw new AppError("NUMBER_ALREADY_REGISTERED");
  const info = await cloudNumberInfo(data.phone_number_id, data.access_token);
  const secrets: WhatsappSecrets = { access_token: data.access_token, app_secret: data.app_secret, verify_token: randomToken(24) };
  const created = await row<Row>(
    `INSERT INTO whatsapp_numbers (account_id, integration, phone_number_id, waba_id, display_phone_number, verified_name, quality_rating, messaging_limit, secrets_sealed, created_by)
     VALUES ($1, 'cloud', $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (integration, phone_number_id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      ctx.actor.accountId,
      data.phone_number_id,
      data.waba_id,
      info.display_phone_number,
      info.verified_name,
      info.quality_rating,
      info.messaging_limit,
      seal(JSON.stringify(secrets)),
      ctx.actor.userId,
    ],
  );
  if (!created) throw new AppError("NUMBER_ALREADY_REGISTERED");
  // The row exists (committed) before Meta's handshake reaches its URL; if the subscription fails, the number is not kept.
  try {
    await subscribeCloudWebhooks(data.waba_id, data.access_token, whatsappWebhookUrl(created.id), secrets.verify_token);
  } catch (e) {
    await exec(`DELETE FROM whatsapp_numbers WHERE id = $1`, [created.id]);
    if (e instanceof GraphError && e.permanent) throw new AppError("VALIDATION", { fields: { waba_id: ["validation.waNumberUnknown"] } });
    throw new AppError("PROVIDER_UNAVAILABLE");
  }
  await recordAudit(ctx, "whatsapp.number_connected", { meta: { id: created.id, phone_number_id: data.phone_number_id } });
  return { data: view(created) };
}

/**
 * DELETE whatsapp/new/numbers/{number}: `number` is the number's id here or its phone number id.
 * Its templates go with it; Meta stops posting its webhooks (best effort: a provider that does not
 * answer does not keep the number connected here).
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
  if (n.waba_id) {
    await unsubscribeCloudWebhooks(n.waba_id, n.secrets.access_token).catch((e) => console.warn(`whatsapp: unsubscribing ${n.phone_number_id} failed: ${(e as Error).message}`));
  }
  await recordAudit(ctx, "whatsapp.number_disconnected", { meta: { id: n.id, phone_number_id: n.phone_number_id } });
  return { deleted: 1 };
}
