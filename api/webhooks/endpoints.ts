/**
 * Customer webhook endpoints of the acting account: list, create, read, update, delete, reveal
 * and rotate the signing secret. Permission: the /webhooks screen of the policy (owner, admin,
 * developer, billing… — not agent). Every query is scoped by the acting account; an id of
 * another account is simply not found. Secrets are "whsec_<base64 of 24 random bytes>" (the
 * Standard Webhooks format), kept sealed (AES-GCM) because we sign with them.
 */
import { onePage } from "../lib/page";
import { randomBytes } from "node:crypto";
import { type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { seal, unseal } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { checkUrl, isOutboundError } from "../lib/outbound";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { webhookEndpointSchema } from "./schemas";
import { exec, rows } from "../lib/sql";

export const MAX_ENDPOINTS = 20;

export type WebhookEndpoint = {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
  /** Deliveries not yet succeeded or failed, and failed ones (for the list). */
  pending?: number;
  failed?: number;
};

const COLUMNS = "id, url, description, events, enabled, created_at, updated_at";

export function assertWebhooks(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/webhooks")) throw new AppError("FORBIDDEN");
}

export function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** The endpoint of the acting account, locked when a transaction is given. */
export async function ownedEndpoint(ctx: SignedInCtx, id: string, transaction?: Transaction): Promise<WebhookEndpoint & { secret_sealed: string }> {
  assertId(id);
  const [row] = await rows<WebhookEndpoint & { secret_sealed: string }>(
    `SELECT ${COLUMNS}, secret_sealed FROM webhook_endpoints WHERE id = $1 AND account_id = $2${transaction ? " FOR UPDATE" : ""}`,
    [id, ctx.actor.accountId],
    { transaction },
  );
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}

export async function listEndpoints(ctx: SignedInCtx): Promise<{ data: WebhookEndpoint[] }> {
  assertWebhooks(ctx);
  const found = await rows<WebhookEndpoint>(
    `SELECT ${COLUMNS.split(", ")
      .map((c) => `e.${c}`)
      .join(", ")},
            (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending,
            (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'failed') AS failed
     FROM webhook_endpoints e WHERE e.account_id = $1 ORDER BY e.created_at, e.id`,
    [ctx.actor.accountId],
  );
  return onePage(found);
}

export async function getEndpoint(ctx: SignedInCtx, id: string): Promise<{ data: WebhookEndpoint }> {
  assertWebhooks(ctx);
  const { secret_sealed: _, ...row } = await ownedEndpoint(ctx, id);
  return { data: row };
}

/**
 * The checks of the guarded client that need no DNS (api/lib/outbound): https while the guard is on,
 * an address written in the URL must be public in every notation. The name's addresses are checked
 * before every POST (and look, to the tenant, like any failed connection).
 */
function assertCallableUrl(url: string) {
  try {
    checkUrl(url);
  } catch (e) {
    if (isOutboundError(e)) throw new AppError("VALIDATION", { fields: { url: ["webhooks.errors.urlNotPublic"] } });
    throw e;
  }
}

/** Creates an endpoint; the answer carries its secret (also readable later with revealSecret). */
export async function createEndpoint(ctx: SignedInCtx, input: unknown): Promise<{ data: WebhookEndpoint & { secret: string } }> {
  assertWebhooks(ctx);
  const data = validate(webhookEndpointSchema, input);
  assertCallableUrl(data.url);
  const secret = newSecret();
  const db = sequelize();
  return db.transaction(async (transaction) => {
    await exec(`SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [ctx.actor.accountId], { transaction });
    const [{ n }] = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE account_id = $1`, [ctx.actor.accountId], { transaction });
    if (n >= MAX_ENDPOINTS) throw new AppError("VALIDATION", { fields: { url: [`validation.max::${MAX_ENDPOINTS}`] } });
    const [row] = await rows<WebhookEndpoint>(
      `INSERT INTO webhook_endpoints (account_id, url, description, events, enabled, secret_sealed, created_by)
       VALUES ($1, $2, $3, $4::text[], $5, $6, $7) RETURNING ${COLUMNS}`,
      [ctx.actor.accountId, data.url, data.description, data.events, data.enabled, seal(secret), ctx.actor.userId],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "webhook.created", { meta: { id: row.id, events: data.events } });
    return { data: { ...row, secret } };
  });
}

export async function updateEndpoint(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: WebhookEndpoint }> {
  assertWebhooks(ctx);
  const data = validate(webhookEndpointSchema, input);
  assertCallableUrl(data.url);
  const db = sequelize();
  return db.transaction(async (transaction) => {
    await ownedEndpoint(ctx, id, transaction);
    const [row] = await rows<WebhookEndpoint>(
      `UPDATE webhook_endpoints SET url = $3, description = $4, events = $5::text[], enabled = $6, updated_at = now()
       WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, ctx.actor.accountId, data.url, data.description, data.events, data.enabled],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "webhook.updated", { meta: { id, events: data.events, enabled: data.enabled } });
    return { data: row };
  });
}

/** Deletes the endpoint with its deliveries and attempts. */
export async function deleteEndpoint(ctx: SignedInCtx, id: string): Promise<{ deleted: true }> {
  assertWebhooks(ctx);
  const db = sequelize();
  return db.transaction(async (transaction) => {
    await ownedEndpoint(ctx, id, transaction);
    await exec(`DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId], { transaction });
    await recordAudit({ ...ctx, transaction }, "webhook.deleted", { meta: { id } });
    return { deleted: true as const };
  });
}

export async function revealSecret(ctx: SignedInCtx, id: string): Promise<{ data: { id: string; secret: string } }> {
  assertWebhooks(ctx);
  const row = await ownedEndpoint(ctx, id);
  return { data: { id, secret: unseal(row.secret_sealed) } };
}

/** How long the replaced secret keeps signing after a rotation (Standard Webhooks: several signatures). */
export const SECRET_OVERLAP_HOURS = 24;

/**
 * A new secret from now on: deliveries not yet sent are signed with it and, for
 * SECRET_OVERLAP_HOURS, also with the secret it replaces (a receiver still verifying with the old
 * one keeps passing while it is updated). Rotating again within the window drops the oldest.
 */
export async function rotateSecret(ctx: SignedInCtx, id: string): Promise<{ data: { id: string; secret: string; previous_secret_expires_at: Date } }> {
  assertWebhooks(ctx);
  const secret = newSecret();
  const db = sequelize();
  return db.transaction(async (transaction) => {
    await ownedEndpoint(ctx, id, transaction);
    const [row] = await rows<{ previous_secret_expires_at: Date }>(
      `UPDATE webhook_endpoints SET previous_secret_sealed = secret_sealed, secret_sealed = $3,
         previous_secret_expires_at = now() + make_interval(hours => $4), updated_at = now()
       WHERE id = $1 AND account_id = $2 RETURNING previous_secret_expires_at`,
      [id, ctx.actor.accountId, seal(secret), SECRET_OVERLAP_HOURS],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "webhook.secret_rotated", { meta: { id, previous_valid_until: row.previous_secret_expires_at } });
    return { data: { id, secret, previous_secret_expires_at: row.previous_secret_expires_at } };
  });
}
