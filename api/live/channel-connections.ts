/**
 * Live chat channel connections of an account (ADR 017): a Telegram bot, a Messenger page, an
 * Instagram professional account, a Google Business Messages agent. One per account and channel.
 * Not to be confused with the SMS provider connections (api/channels/provider-connections.ts).
 * Secrets are kept sealed (AES-256-GCM, api/lib/crypto) and never answered back; the list shows
 * what is connected and the webhook URL to give the provider.
 *
 * These use-cases only orchestrate: what a channel checks, registers or removes at the provider
 * is its adapter's (`verify`, `connect`, `disconnect` in ./adapters); here the row is written,
 * read and removed. Permission: the /channels screen of the policy, an omni plan, and an owner or
 * admin (they hold the business's credentials).
 */
import { sequelize } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { seal, unseal } from "../lib/crypto";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { can, planRequired } from "../policy/policy";
import { channelAdapter, type VerifiedConnection } from "./adapters";
import { connectSchema, type ServiceAccountKey } from "./channel-schemas";

export { CONNECTABLE, connectSchema, type ConnectableChannel, type ConnectInput } from "./channel-schemas";
import type { ConnectableChannel } from "./channel-schemas";
import { exec, row, rows } from "../lib/sql";

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
  if (!ctx.actor.services.includes("omni")) throw planRequired("omni");
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
  const found = await rows<Connection>(`SELECT ${COLUMNS} FROM live_channel_connections WHERE account_id = $1 ORDER BY channel`, [ctx.actor.accountId]);
  return { data: found.map(view) };
}

/** One connection of the account (404 for another account's). */
export async function getConnection(ctx: SignedInCtx, id: string): Promise<ConnectionView> {
  assertChannelsAdmin(ctx);
  assertId(id);
  const found = await row<Connection>(`SELECT ${COLUMNS} FROM live_channel_connections WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!found) throw new AppError("NOT_FOUND");
  return view(found);
}

/**
 * Connects a channel (replacing the account's earlier connection of that channel): the adapter
 * verifies the form, the row is saved, then the adapter registers our webhook — if the provider
 * refuses, the row goes again.
 */
export async function connectChannel(ctx: SignedInCtx, input: unknown): Promise<{ data: ConnectionView }> {
  assertChannelsAdmin(ctx);
  const data = validate(connectSchema, input);
  const adapter = channelAdapter(data.channel);
  const verified = await adapter.verify(data);
  const row = await saveConnection(ctx, data.channel, verified, adapter.accountField);
  if (adapter.connect) {
    try {
      await adapter.connect({ ...row, secrets: verified.secrets }, webhookUrl(row.channel, row.id));
    } catch (e) {
      await exec(`DELETE FROM live_channel_connections WHERE id = $1`, [row.id]);
      throw e;
    }
  }
  return { data: view(row) };
}

/** Writes the account's connection of `channel`; the provider's account may belong to one account only (else `accountField` is blamed). */
async function saveConnection(ctx: SignedInCtx, channel: ConnectableChannel, verified: VerifiedConnection, accountField: string): Promise<Connection> {
  return sequelize().transaction(async (transaction) => {
    const taken = await row<{ account_id: string }>(
      `SELECT account_id FROM live_channel_connections WHERE channel = $1 AND external_id = $2 FOR UPDATE`,
      [channel, verified.externalId],
      { transaction },
    );
    if (taken && taken.account_id !== ctx.actor.accountId) throw new AppError("VALIDATION", { fields: { [accountField]: ["channels.errors.taken"] } });
    const [saved] = await rows<Connection>(
      `INSERT INTO live_channel_connections (account_id, channel, external_id, name, secrets_sealed, created_by)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (account_id, channel) DO UPDATE SET external_id = EXCLUDED.external_id, name = EXCLUDED.name,
         secrets_sealed = EXCLUDED.secrets_sealed, updated_at = now()
       RETURNING ${COLUMNS}`,
      [ctx.actor.accountId, channel, verified.externalId, verified.name.slice(0, 200), seal(JSON.stringify(verified.secrets)), ctx.actor.userId],
      { transaction },
    );
    return saved;
  });
}

/** Removes the connection, then lets its adapter tell the provider (best effort: the connection is gone either way). */
export async function disconnectChannel(ctx: SignedInCtx, id: string): Promise<{ deleted: boolean }> {
  assertChannelsAdmin(ctx);
  assertId(id);
  const found = await row<Connection & { secrets_sealed: string }>(`DELETE FROM live_channel_connections WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}, secrets_sealed`, [
    id,
    ctx.actor.accountId,
  ]);
  if (!found) throw new AppError("NOT_FOUND");
  const adapter = channelAdapter(found.channel);
  // Only a channel that registered something at the provider needs the secrets back.
  if (adapter.disconnect) await adapter.disconnect(unsealed(found));
  return { deleted: true };
}

function unsealed(row: Connection & { secrets_sealed: string }): ConnectionWithSecrets {
  const { secrets_sealed, ...rest } = row;
  return { ...rest, secrets: JSON.parse(unseal(secrets_sealed)) as ChannelSecrets };
}

const withSecrets = (row: (Connection & { secrets_sealed: string }) | null): ConnectionWithSecrets | null => (row ? unsealed(row) : null);

/** A connection by its id (webhooks: the URL names it). */
export async function connectionById(channel: ConnectableChannel, id: string): Promise<ConnectionWithSecrets | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const found = await row<Connection & { secrets_sealed: string }>(`SELECT ${COLUMNS}, secrets_sealed FROM live_channel_connections WHERE id = $1 AND channel = $2`, [id, channel]);
  return withSecrets(found);
}

/** The account's connection of a channel (outbound: a room's channel names it). */
export async function connectionOf(accountId: string, channel: string): Promise<ConnectionWithSecrets | null> {
  const found = await row<Connection & { secrets_sealed: string }>(`SELECT ${COLUMNS}, secrets_sealed FROM live_channel_connections WHERE account_id = $1 AND channel = $2`, [
    accountId,
    channel,
  ]);
  return withSecrets(found);
}
