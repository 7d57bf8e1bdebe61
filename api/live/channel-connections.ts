/**
 * Live chat channel connections of an account (ADR 017): a Telegram bot, a Messenger page, an
 * Instagram professional account, a Google Business Messages agent. One per account and channel. Secrets are kept sealed
 * (AES-256-GCM, api/lib/crypto) and never answered back; the list shows what is connected and the
 * webhook URL to give the provider. Connecting Telegram checks the token (getMe) and registers our
 * webhook with a fresh secret (setWebhook); disconnecting removes it (deleteWebhook, best effort).
 * Permission: the /channels screen of the policy, an omni plan, and an owner or admin (they hold
 * the business's credentials).
 */
import { createPrivateKey } from "node:crypto";
import { QueryTypes } from "sequelize";
import { sequelize } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { randomToken, seal, unseal } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { connectSchema, readServiceAccountKey, type ServiceAccountKey } from "./channel-schemas";
import { can } from "../policy/policy";
import { telegram } from "./adapters";

export { CONNECTABLE, connectSchema, type ConnectableChannel, type ConnectInput } from "./channel-schemas";
import type { ConnectableChannel } from "./channel-schemas";

export type ChannelSecrets = {
  /** Telegram: the bot token; Graph: the page access token; Google: the webhook's client token (X-Goog-Signature). */
  token: string;
  /** Telegram: what we told setWebhook to send in X-Telegram-Bot-Api-Secret-Token. */
  webhook_secret?: string;
  /** Graph: the app secret (X-Hub-Signature-256) and the verify token of the GET handshake. */
  app_secret?: string;
  verify_token?: string;
  /** Google Business Messages: the service account that sends (OAuth2 JWT bearer flow). */
  service_account?: ServiceAccountKey;
};

export type Connection = {
  id: string;
  account_id: string;
  channel: ConnectableChannel;
  external_id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
};
export type ConnectionWithSecrets = Connection & { secrets: ChannelSecrets };

const COLUMNS = "id, account_id, channel, external_id, name, created_at, updated_at";

export function assertChannelsAdmin(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/channels")) throw new AppError("FORBIDDEN");
  if (!ctx.actor.services.includes("omni")) throw new AppError("PLAN_REQUIRED");
}

/** The public URL a provider posts to for this connection (through the web process's /api proxy). */
export function webhookUrl(channel: ConnectableChannel, id: string): string {
  return `${env().APP_URL.replace(/\/+$/, "")}/api/channels/${channel}/${id}`;
}

function view(c: Connection) {
  return { id: c.id, channel: c.channel, external_id: c.external_id, name: c.name, webhook_url: webhookUrl(c.channel, c.id), created_at: c.created_at, updated_at: c.updated_at };
}
export type ConnectionView = ReturnType<typeof view>;

export async function listConnections(ctx: SignedInCtx): Promise<{ data: ConnectionView[] }> {
  assertChannelsAdmin(ctx);
  const rows = await sequelize().query<Connection>(`SELECT ${COLUMNS} FROM live_channel_connections WHERE account_id = $1 ORDER BY channel`, {
    bind: [ctx.actor.accountId],
    type: QueryTypes.SELECT,
  });
  return { data: rows.map(view) };
}

/** One connection of the account (404 for another account's). */
export async function getConnection(ctx: SignedInCtx, id: string): Promise<ConnectionView> {
  assertChannelsAdmin(ctx);
  assertId(id);
  const [row] = await sequelize().query<Connection>(`SELECT ${COLUMNS} FROM live_channel_connections WHERE id = $1 AND account_id = $2`, {
    bind: [id, ctx.actor.accountId],
    type: QueryTypes.SELECT,
  });
  if (!row) throw new AppError("NOT_FOUND");
  return view(row);
}

/** Connects a channel (replacing the account's earlier connection of that channel). */
export async function connectChannel(ctx: SignedInCtx, input: unknown): Promise<{ data: ConnectionView }> {
  assertChannelsAdmin(ctx);
  const data = validate(connectSchema, input);
  let externalId: string;
  let name = "";
  let secrets: ChannelSecrets;
  if (data.channel === "telegram") {
    const me = await telegram.getMe(data.bot_token).catch(() => null);
    if (!me) throw new AppError("VALIDATION", { fields: { bot_token: ["channels.errors.botTokenRejected"] } });
    externalId = String(me.id);
    name = me.username ? `@${me.username}` : (me.first_name ?? "");
    secrets = { token: data.bot_token, webhook_secret: randomToken(32) };
  } else if (data.channel === "google_business") {
    externalId = data.agent_id;
    secrets = { token: data.client_token, service_account: serviceAccount(data.service_account_key) };
  } else {
    externalId = data.page_id;
    secrets = { token: data.access_token, app_secret: data.app_secret, verify_token: data.verify_token };
  }
  const row = await sequelize().transaction(async (transaction) => {
    const [taken] = await sequelize().query<{ account_id: string }>(`SELECT account_id FROM live_channel_connections WHERE channel = $1 AND external_id = $2 FOR UPDATE`, {
      bind: [data.channel, externalId],
      type: QueryTypes.SELECT,
      transaction,
    });
    if (taken && taken.account_id !== ctx.actor.accountId) {
      const field = data.channel === "telegram" ? "bot_token" : data.channel === "google_business" ? "agent_id" : "page_id";
      throw new AppError("VALIDATION", { fields: { [field]: ["channels.errors.taken"] } });
    }
    const [saved] = await sequelize().query<Connection>(
      `INSERT INTO live_channel_connections (account_id, channel, external_id, name, secrets_sealed, created_by)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (account_id, channel) DO UPDATE SET external_id = EXCLUDED.external_id, name = EXCLUDED.name,
         secrets_sealed = EXCLUDED.secrets_sealed, updated_at = now()
       RETURNING ${COLUMNS}`,
      { bind: [ctx.actor.accountId, data.channel, externalId, name.slice(0, 200), seal(JSON.stringify(secrets)), ctx.actor.userId], type: QueryTypes.SELECT, transaction },
    );
    return saved;
  });
  if (data.channel === "telegram") {
    // Telegram posts every update to our URL with the secret in X-Telegram-Bot-Api-Secret-Token.
    try {
      await telegram.setWebhook(secrets.token, webhookUrl("telegram", row.id), secrets.webhook_secret!);
    } catch {
      await sequelize().query(`DELETE FROM live_channel_connections WHERE id = $1`, { bind: [row.id] });
      throw new AppError("VALIDATION", { fields: { bot_token: ["channels.errors.webhookRejected"] } });
    }
  }
  return { data: view(row) };
}

/** The key of the form, its private key checked to be a usable RSA key (the schema checks only its shape). */
function serviceAccount(raw: string): ServiceAccountKey {
  const read = readServiceAccountKey(raw);
  const bad = (error: string) => new AppError("VALIDATION", { fields: { service_account_key: [error] } });
  if ("error" in read) throw bad(read.error);
  try {
    if (createPrivateKey(read.key.private_key).asymmetricKeyType !== "rsa") throw new Error("not RSA");
  } catch {
    throw bad("channels.errors.keyField::private_key");
  }
  return read.key;
}

export async function disconnectChannel(ctx: SignedInCtx, id: string): Promise<{ deleted: boolean }> {
  assertChannelsAdmin(ctx);
  assertId(id);
  const [row] = await sequelize().query<Connection & { secrets_sealed: string }>(
    `DELETE FROM live_channel_connections WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}, secrets_sealed`,
    { bind: [id, ctx.actor.accountId], type: QueryTypes.SELECT },
  );
  if (!row) throw new AppError("NOT_FOUND");
  if (row.channel === "telegram") {
    const secrets = JSON.parse(unseal(row.secrets_sealed)) as ChannelSecrets;
    await telegram.deleteWebhook(secrets.token).catch((e) => console.warn(`telegram deleteWebhook for ${row.id} failed: ${(e as Error).message}`));
  }
  return { deleted: true };
}

function withSecrets(row: (Connection & { secrets_sealed: string }) | undefined): ConnectionWithSecrets | null {
  if (!row) return null;
  const { secrets_sealed, ...rest } = row;
  return { ...rest, secrets: JSON.parse(unseal(secrets_sealed)) as ChannelSecrets };
}

/** A connection by its id (webhooks: the URL names it). */
export async function connectionById(channel: ConnectableChannel, id: string): Promise<ConnectionWithSecrets | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await sequelize().query<Connection & { secrets_sealed: string }>(`SELECT ${COLUMNS}, secrets_sealed FROM live_channel_connections WHERE id = $1 AND channel = $2`, {
    bind: [id, channel],
    type: QueryTypes.SELECT,
  });
  return withSecrets(row);
}

/** The account's connection of a channel (outbound: a room's channel names it). */
export async function connectionOf(accountId: string, channel: string): Promise<ConnectionWithSecrets | null> {
  const [row] = await sequelize().query<Connection & { secrets_sealed: string }>(
    `SELECT ${COLUMNS}, secrets_sealed FROM live_channel_connections WHERE account_id = $1 AND channel = $2`,
    { bind: [accountId, channel], type: QueryTypes.SELECT },
  );
  return withSecrets(row);
}
