/**
 * Provider connections and the SMS route map, managed by platform staff (policy route
 * /admin/providers; ADR 011). Connections are platform-level rows (`provider_connections`): the
 * simulator, a generic HTTP provider or an SMSC over SMPP; their settings are stored as the
 * adapters read them (api/channels/http.ts, smpp/adapter.ts) and their credentials are answered
 * only as a masked hint. The route map (`sms_route_connections`) sends each of T1, T2, T4, T6
 * through one connection. Every change is audited and tells the dispatchers at once
 * (`connectionsChanged`), so the next message uses it without a restart.
 */
import { randomBytes } from "node:crypto";
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import { connectionsChanged, publicSettings } from "../channels/provider-connections";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { onePage } from "../lib/page";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { SMS_ROUTES, type SmsRoute } from "../sms/schemas";
import {
  checkProviderKind,
  createProviderSchema,
  routeMapSchema,
  SECRET_SETTINGS,
  updateProviderSchema,
  type ProviderKind,
  type SecretSetting,
  type UpdateProviderInput,
} from "./schemas";
import { exec, rows } from "../lib/sql";

export type ProviderRow = {
  id: string;
  name: string;
  channel: string;
  kind: ProviderKind;
  settings: Record<string, unknown>;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
};

export type ProviderView = Omit<ProviderRow, "settings"> & {
  /** Settings without credentials. */
  settings: Record<string, unknown>;
  /** Each credential the connection holds, as a hint ("••••6789"; only "••••" when short). */
  secrets: Partial<Record<SecretSetting, string>>;
  /** SMS routes that go out through it. */
  routes: SmsRoute[];
};

export type RouteMapEntry = { route: SmsRoute; connection_id: string | null; connection_name: string | null };

const COLUMNS = "id, name, channel, kind, settings, enabled, created_at, updated_at";

export function assertStaff(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/admin/providers")) throw new AppError("FORBIDDEN");
}

/** "••••" and, for a long secret, its last four characters; a short one (an SMPP password) shows nothing of itself. */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `••••${value.slice(-4)}` : "••••";
}

function view(row: ProviderRow, routes: Map<string, SmsRoute[]>): ProviderView {
  const secrets: ProviderView["secrets"] = {};
  for (const k of SECRET_SETTINGS) {
    const v = row.settings[k];
    if (typeof v === "string" && v) secrets[k] = maskSecret(v);
  }
  return { ...row, settings: publicSettings(row), secrets, routes: routes.get(row.id) ?? [] };
}

async function routesByConnection(transaction?: Transaction): Promise<Map<string, SmsRoute[]>> {
  const found = await rows<{ route: SmsRoute; connection_id: string }>(`SELECT route, connection_id FROM sms_route_connections ORDER BY route`, undefined, { transaction });
  const map = new Map<string, SmsRoute[]>();
  for (const r of found) map.set(r.connection_id, [...(map.get(r.connection_id) ?? []), r.route]);
  return map;
}

/** Loads a connection with its credentials (server-side use only: adapters, the test action). */
export async function loadProvider(id: string, transaction?: Transaction, lock = false): Promise<ProviderRow> {
  assertId(id);
  const [row] = await rows<ProviderRow>(`SELECT ${COLUMNS} FROM provider_connections WHERE id = $1${lock ? " FOR UPDATE" : ""}`, [id], { transaction });
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}

/** Every connection: platform configuration (a handful), one page. */
export async function listProviders(ctx: SignedInCtx): Promise<{ data: ProviderView[]; next_cursor: string | null }> {
  assertStaff(ctx);
  const [found, routes] = await Promise.all([rows<ProviderRow>(`SELECT ${COLUMNS} FROM provider_connections ORDER BY channel, name`), routesByConnection()]);
  return onePage(found.map((r) => view(r, routes)));
}

export async function getProvider(ctx: SignedInCtx, id: string): Promise<{ data: ProviderView }> {
  assertStaff(ctx);
  return { data: view(await loadProvider(id), await routesByConnection()) };
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The stored settings of a kind, from the form's fields; a blank credential keeps `previous`'s. */
function settingsOf(data: UpdateProviderInput, previous: Record<string, unknown> = {}): { settings: Record<string, unknown>; generated?: { webhook_secret: string } } {
  const keep = (k: SecretSetting) => data[k] ?? (typeof previous[k] === "string" && previous[k] ? (previous[k] as string) : undefined);
  const tps = data.tps ? { tps: data.tps } : {};
  if (data.kind === "http") {
    let webhook_secret = keep("webhook_secret");
    const generated = webhook_secret ? undefined : { webhook_secret: (webhook_secret = generateWebhookSecret()) };
    return { settings: { url: data.url, api_key: keep("api_key"), webhook_secret, ...tps }, generated };
  }
  if (data.kind === "smpp") {
    const system_type = data.system_type ? { system_type: data.system_type } : {};
    return { settings: { host: data.host, port: data.port ?? 2775, system_id: data.system_id, password: keep("password"), ...system_type, ...tps } };
  }
  return { settings: {} };
}

/**
 * Creates a connection. An HTTP connection without a webhook secret gets a generated one,
 * answered in full this once (`generated`) so it can be given to the provider.
 */
export async function createProvider(ctx: SignedInCtx, input: unknown): Promise<{ data: ProviderView; generated?: { webhook_secret: string } }> {
  assertStaff(ctx);
  const data = validate(createProviderSchema, input);
  const { settings, generated } = settingsOf(data);
  const db = sequelize();
  const row = await db.transaction(async (transaction) => {
    const found = await rows<ProviderRow>(
      `INSERT INTO provider_connections (name, channel, kind, settings, enabled) VALUES ($1, 'sms', $2, $3::jsonb, $4)
       ON CONFLICT (name) DO NOTHING RETURNING ${COLUMNS}`,
      [data.name, data.kind, JSON.stringify(settings), data.enabled ?? true],
      { transaction },
    );
    if (!found[0]) throw new AppError("VALIDATION", { fields: { name: ["admin.providers.errors.nameTaken"] } });
    await recordAudit({ ...ctx, transaction }, "provider_connection.created", { meta: { id: found[0].id, name: data.name, kind: data.kind } });
    return found[0];
  });
  await connectionsChanged();
  return { data: view(row, new Map()), ...(generated ? { generated } : {}) };
}

/** Changes a connection's kind, settings and enabled (the name stays: messages and webhook URLs carry it). */
export async function updateProvider(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: ProviderView; generated?: { webhook_secret: string } }> {
  assertStaff(ctx);
  assertId(id);
  validate(updateProviderSchema, input); // field errors before any lock
  const db = sequelize();
  const result = await db.transaction(async (transaction) => {
    const before = await loadProvider(id, transaction, true);
    // Required credentials may be left blank when the connection already holds them.
    const stored = Object.fromEntries(SECRET_SETTINGS.map((k) => [k, typeof before.settings[k] === "string" && Boolean(before.settings[k])]));
    const data: UpdateProviderInput = validate(
      updateProviderSchema.superRefine((v, c) => checkProviderKind(v, c, stored)),
      input,
    );
    const { settings, generated } = settingsOf(data, before.kind === data.kind ? before.settings : {});
    const [row] = await rows<ProviderRow>(
      `UPDATE provider_connections SET kind = $2, settings = $3::jsonb, enabled = $4, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, data.kind, JSON.stringify(settings), data.enabled ?? false],
      { transaction },
    );
    const changedSecrets = SECRET_SETTINGS.filter((k) => settings[k] !== before.settings[k] && settings[k] !== undefined);
    await recordAudit({ ...ctx, transaction }, "provider_connection.updated", {
      meta: { id, name: row.name, kind: row.kind, enabled: row.enabled, settings: publicSettings(row), credentials_changed: changedSecrets },
    });
    return { row, generated, routes: await routesByConnection(transaction) };
  });
  await connectionsChanged();
  return { data: view(result.row, result.routes), ...(result.generated ? { generated: result.generated } : {}) };
}

/** Deletes a connection no route uses (else PROVIDER_IN_USE, naming the routes). */
export async function deleteProvider(ctx: SignedInCtx, id: string): Promise<{ ok: true }> {
  assertStaff(ctx);
  assertId(id);
  const db = sequelize();
  await db.transaction(async (transaction) => {
    const row = await loadProvider(id, transaction, true);
    const used = (await routesByConnection(transaction)).get(id) ?? [];
    if (used.length) throw new AppError("PROVIDER_IN_USE", { params: { name: row.name, routes: used.join(", ") } });
    await exec(`DELETE FROM provider_connections WHERE id = $1`, [id], { transaction });
    await recordAudit({ ...ctx, transaction }, "provider_connection.deleted", { meta: { id, name: row.name, kind: row.kind } });
  });
  await connectionsChanged();
  return { ok: true };
}

/** The four SMS routes (one page) and the connection of each. */
export async function getRouteMap(ctx: SignedInCtx): Promise<{ data: RouteMapEntry[]; next_cursor: string | null }> {
  assertStaff(ctx);
  const found = await rows<{ route: SmsRoute; connection_id: string; connection_name: string }>(
    `SELECT r.route, r.connection_id, c.name AS connection_name FROM sms_route_connections r JOIN provider_connections c ON c.id = r.connection_id`,
  );
  const by = new Map(found.map((r) => [r.route, r]));
  return onePage(SMS_ROUTES.map((route) => ({ route, connection_id: by.get(route)?.connection_id ?? null, connection_name: by.get(route)?.connection_name ?? null })));
}

/**
 * Points routes at connections (the routes not given keep theirs). Each must be an SMS
 * connection that is enabled: a route on a disabled one would fail every message `no_provider`.
 */
export async function putRouteMap(ctx: SignedInCtx, input: unknown): Promise<{ data: RouteMapEntry[]; next_cursor: string | null }> {
  assertStaff(ctx);
  const data = validate(routeMapSchema, input);
  const wanted = SMS_ROUTES.filter((r) => data[r]).map((r) => [r, data[r]!] as const);
  const db = sequelize();
  await db.transaction(async (transaction) => {
    const ids = [...new Set(wanted.map(([, id]) => id))];
    const found = await rows<{ id: string; name: string; enabled: boolean }>(
      `SELECT id, name, enabled FROM provider_connections WHERE id = ANY($1::uuid[]) AND channel = 'sms' FOR SHARE`,
      [ids],
      { transaction },
    );
    const byId = new Map(found.map((f) => [f.id, f]));
    const fields: Record<string, string[]> = {};
    for (const [route, id] of wanted) {
      const c = byId.get(id);
      if (!c) fields[route] = ["validation.option"];
      else if (!c.enabled) fields[route] = ["admin.providers.errors.disabled"];
    }
    if (Object.keys(fields).length) throw new AppError("VALIDATION", { fields });
    const before = await rows<{ route: string; connection_id: string }>(`SELECT route, connection_id FROM sms_route_connections FOR UPDATE`, undefined, { transaction });
    const changes: Record<string, { from: string | null; to: string }> = {};
    for (const [route, id] of wanted) {
      const prev = before.find((b) => b.route === route)?.connection_id ?? null;
      if (prev === id) continue;
      await exec(
        `INSERT INTO sms_route_connections (route, connection_id, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (route) DO UPDATE SET connection_id = EXCLUDED.connection_id, updated_at = now()`,
        [route, id],
        { transaction },
      );
      changes[route] = { from: prev, to: byId.get(id)!.name };
    }
    if (Object.keys(changes).length) await recordAudit({ ...ctx, transaction }, "sms_routes.updated", { meta: { changes } });
  });
  await connectionsChanged();
  return getRouteMap(ctx);
}
