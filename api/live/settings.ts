/**
 * The account's live chat settings (one live_settings row, created on first read with a random
 * widget key): queue mode and acceptance (spec: live.queued_enabled, live.acceptance_option),
 * default capacity, required tabulation, idle minutes; the agents' capacity and served
 * departments; and the webchat widget's look (spec section 3) with its embed snippet.
 */
import { randomBytes } from "node:crypto";
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { validate } from "../lib/validate";
import { keyset } from "../lib/page";
import { assertCanWrite, canWrite } from "../policy/policy";
import { livePage } from "./config-page";
import { assertAnyPath, assertDepartments, assertWriter, iso } from "./access";
import { rows } from "../lib/sql";
import { DEFAULT_WIDGET, WIDGET_COLOR_PARTS, agentSettingsSchema, systemSettingsSchema, widgetSettingsSchema, type WidgetSettings } from "./schemas";

const SYSTEM = "/live/configs/system";
/** The widget's screens: its settings (two paths) and its home (/widget: install snippet, key, whether it attends now). */
const WIDGET_PATHS = ["/live/configs/widget", "/widget/config", "/widget"];
/** Widget settings are also the developer's and finance's ("Developer: webhook, widget"). */

type SettingsRow = {
  queued_enabled: boolean;
  acceptance_option: "automatic" | "manual";
  default_capacity: number;
  tabulation_required: boolean;
  idle_minutes: number;
  widget_key: string;
  widget: Partial<WidgetSettings>;
  updated_at: Date;
};
export type SystemSettings = Omit<SettingsRow, "widget" | "widget_key" | "updated_at"> & { updated_at: string };

/** A widget key: public (it sits in the embedding page), unguessable, URL-safe. */
export const newKey = () => randomBytes(18).toString("base64url");

/** The account's row, created with the defaults and a fresh widget key on first use. */
export async function settingsRow(accountId: string, transaction?: Transaction): Promise<SettingsRow> {
  const COLS = "queued_enabled, acceptance_option, default_capacity, tabulation_required, idle_minutes, widget_key, widget, updated_at";
  const [found] = await rows<SettingsRow>(`SELECT ${COLS} FROM live_settings WHERE account_id = $1`, [accountId], { transaction });
  if (found) return found;
  await rows(`INSERT INTO live_settings (account_id, widget_key) VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING RETURNING account_id`, [accountId, newKey()], { transaction });
  const [created] = await rows<SettingsRow>(`SELECT ${COLS} FROM live_settings WHERE account_id = $1`, [accountId], { transaction });
  return created;
}

/**
 * For set-based SQL over many accounts (the worker's idle sweep): the moment before which a room
 * of the account in `accountIdColumn` has been silent for the account's idle_minutes (NULL
 * without a settings row, so nothing compares true).
 */
export const idleSinceSql = (accountIdColumn: string) => `now() - (SELECT make_interval(mins => s.idle_minutes) FROM live_settings s WHERE s.account_id = ${accountIdColumn})`;

const system = (r: SettingsRow): SystemSettings => ({
  queued_enabled: r.queued_enabled,
  acceptance_option: r.acceptance_option,
  default_capacity: r.default_capacity,
  tabulation_required: r.tabulation_required,
  idle_minutes: r.idle_minutes,
  updated_at: iso(r.updated_at)!,
});

export async function getSystemSettings(ctx: SignedInCtx): Promise<SystemSettings> {
  assertAnyPath(ctx, SYSTEM, "/live");
  return system(await settingsRow(ctx.actor.accountId));
}

/** GET webchat/system: what the agents' workspace needs. */
export async function liveSystem(ctx: SignedInCtx): Promise<{ queued_enabled: boolean; acceptance_option: "automatic" | "manual" }> {
  const s = await getSystemSettings(ctx);
  return { queued_enabled: s.queued_enabled, acceptance_option: s.acceptance_option };
}

export async function updateSystemSettings(ctx: SignedInCtx, input: unknown): Promise<SystemSettings> {
  assertWriter(ctx, SYSTEM);
  const v = validate(systemSettingsSchema, input);
  await settingsRow(ctx.actor.accountId);
  await rows(
    `UPDATE live_settings SET queued_enabled = $2, acceptance_option = $3, default_capacity = $4, tabulation_required = $5, idle_minutes = $6, updated_at = now()
      WHERE account_id = $1 RETURNING account_id`,
    [ctx.actor.accountId, v.queued_enabled, v.acceptance_option, v.default_capacity, v.tabulation_required, v.idle_minutes],
  );
  await recordAudit(ctx, "live.settings_updated", { meta: { ...v } });
  return system(await settingsRow(ctx.actor.accountId));
}

// ---- agents: capacity and served departments

export type AgentConfigView = {
  user_id: string;
  name: string;
  email: string;
  role: string;
  /** NULL = the account's default. */
  capacity: number | null;
  effective_capacity: number;
  membership_department_id: string | null;
  membership_department_name: string | null;
  department_ids: string[];
};

const AGENTS_SQL = `SELECT m.user_id, trim(u.first_name || ' ' || u.last_name) AS name, u.email::text AS email, m.role, la.capacity,
            m.department_id AS membership_department_id, d.name AS membership_department_name,
            COALESCE((SELECT array_agg(ad.department_id::text ORDER BY ad.department_id) FROM live_agent_departments ad
                       WHERE ad.account_id = m.account_id AND ad.user_id = m.user_id), '{}') AS department_ids
       FROM memberships m
       JOIN users u ON u.id = m.user_id
       LEFT JOIN departments d ON d.id = m.department_id
       LEFT JOIN live_agents la ON la.account_id = m.account_id AND la.user_id = m.user_id
      WHERE m.account_id = $1 AND m.is_agent`;

/** The account's agents (memberships with is_agent), by name. */
export async function listAgentConfigs(ctx: SignedInCtx): Promise<AgentConfigView[]> {
  assertAnyPath(ctx, SYSTEM, "/live/manage");
  const s = await settingsRow(ctx.actor.accountId);
  const r = await rows<Omit<AgentConfigView, "effective_capacity">>(`${AGENTS_SQL} ORDER BY lower(u.first_name), lower(u.last_name), u.email`, [ctx.actor.accountId]);
  return r.map((a) => ({ ...a, effective_capacity: a.capacity ?? s.default_capacity }));
}

/** GET /live/agents: a keyset page (?cursor=&limit=) of the agents by name (first, last, then user id). */
export async function pageAgentConfigs(ctx: SignedInCtx, query: unknown) {
  assertAnyPath(ctx, SYSTEM, "/live/manage");
  const { after, limit } = livePage(query, ["string", "string"]);
  const s = await settingsRow(ctx.actor.accountId);
  const r = await rows<Omit<AgentConfigView, "effective_capacity"> & { k1: string; k2: string }>(
    `SELECT * FROM (SELECT lower(u.first_name) AS k1, lower(u.last_name) AS k2, ${AGENTS_SQL.slice("SELECT ".length)}) a
      ${after ? "WHERE (a.k1, a.k2, a.user_id) > ($2, $3, $4::uuid)" : ""} ORDER BY a.k1, a.k2, a.user_id LIMIT ${limit + 1}`,
    after ? [ctx.actor.accountId, after[0], after[1], after[2]] : [ctx.actor.accountId],
  );
  return keyset(
    r,
    limit,
    (a) => [a.k1, a.k2, a.user_id],
    ({ k1: _1, k2: _2, ...a }) => ({ ...a, effective_capacity: a.capacity ?? s.default_capacity }),
  );
}

/** Capacity (blank = default) and the departments an agent serves besides the membership's own. */
export async function updateAgentConfig(ctx: SignedInCtx, userId: string, input: unknown): Promise<AgentConfigView> {
  assertWriter(ctx, SYSTEM);
  assertId(userId);
  const v = validate(agentSettingsSchema, input);
  const [agent] = await rows<{ department_id: string | null }>(`SELECT department_id FROM memberships WHERE account_id = $1 AND user_id = $2 AND is_agent`, [
    ctx.actor.accountId,
    userId,
  ]);
  if (!agent) throw new AppError("NOT_FOUND");
  const extra = v.department_ids.filter((d) => d !== agent.department_id);
  await assertDepartments(ctx, extra, "department_ids");
  await sequelize().transaction(async (transaction) => {
    await rows(
      `INSERT INTO live_agents (account_id, user_id, capacity) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, user_id) DO UPDATE SET capacity = EXCLUDED.capacity RETURNING user_id`,
      [ctx.actor.accountId, userId, v.capacity],
      { transaction },
    );
    await rows(`DELETE FROM live_agent_departments WHERE account_id = $1 AND user_id = $2 RETURNING user_id`, [ctx.actor.accountId, userId], { transaction });
    if (extra.length) {
      await rows(
        `INSERT INTO live_agent_departments (account_id, user_id, department_id) SELECT $1, $2, unnest($3::uuid[]) RETURNING user_id`,
        [ctx.actor.accountId, userId, extra],
        { transaction },
      );
    }
    await recordAudit({ ...ctx, transaction }, "live.agent_updated", { meta: { userId, capacity: v.capacity, departments: extra } });
  });
  const all = await listAgentConfigs(ctx);
  return all.find((a) => a.user_id === userId)!;
}

// ---- widget

export type WidgetView = { widget_key: string; settings: WidgetSettings; snippet: string; updated_at: string };

/** Stored settings over the defaults (a partial or older shape still yields a full object). */
export function widgetSettings(stored: Partial<WidgetSettings> | null | undefined): WidgetSettings {
  const s = stored ?? {};
  const colors = Object.fromEntries(WIDGET_COLOR_PARTS.map((p) => [p, { ...DEFAULT_WIDGET.colors[p], ...(s.colors?.[p] ?? {}) }])) as WidgetSettings["colors"];
  return { ...DEFAULT_WIDGET, ...s, colors };
}

export function embedSnippet(widgetKey: string): string {
  return `<script src="${env().APP_URL.replace(/\/+$/, "")}/widget.js" data-key="${widgetKey}" async></script>`;
}

const widgetView = (r: SettingsRow): WidgetView => ({
  widget_key: r.widget_key,
  settings: widgetSettings(r.widget),
  snippet: embedSnippet(r.widget_key),
  updated_at: iso(r.updated_at)!,
});

/** Whether the actor may change the widget (the screen shows read-only otherwise). */
export function canEditWidget(ctx: SignedInCtx): boolean {
  return canWrite(ctx.actor, "widget");
}

function assertWidgetWriter(ctx: SignedInCtx) {
  assertAnyPath(ctx, ...WIDGET_PATHS);
  assertCanWrite(ctx.actor, "widget");
}

export async function getWidget(ctx: SignedInCtx): Promise<WidgetView> {
  assertAnyPath(ctx, ...WIDGET_PATHS);
  return widgetView(await settingsRow(ctx.actor.accountId));
}

export async function updateWidget(ctx: SignedInCtx, input: unknown): Promise<WidgetView> {
  assertWidgetWriter(ctx);
  const v = validate(widgetSettingsSchema, input);
  await settingsRow(ctx.actor.accountId);
  await rows(`UPDATE live_settings SET widget = $2::jsonb, updated_at = now() WHERE account_id = $1 RETURNING account_id`, [ctx.actor.accountId, JSON.stringify(v)]);
  await recordAudit(ctx, "live.widget_updated");
  return widgetView(await settingsRow(ctx.actor.accountId));
}

/** A new key: the old snippet stops working at once (pages must embed the new one). */
export async function regenerateWidgetKey(ctx: SignedInCtx): Promise<WidgetView> {
  assertWidgetWriter(ctx);
  await settingsRow(ctx.actor.accountId);
  await rows(`UPDATE live_settings SET widget_key = $2, updated_at = now() WHERE account_id = $1 RETURNING account_id`, [ctx.actor.accountId, newKey()]);
  await recordAudit(ctx, "live.widget_key_regenerated");
  return widgetView(await settingsRow(ctx.actor.accountId));
}

/**
 * Public read of a widget by its key (no actor: the embedded script calls it). The account id is
 * for the server side (e.g. isOpen); do not send it to the visitor.
 */
export async function widgetConfigByKey(key: string): Promise<{ accountId: string; widgetKey: string; settings: WidgetSettings } | null> {
  if (typeof key !== "string" || !/^[A-Za-z0-9_-]{10,64}$/.test(key)) return null;
  const [r] = await rows<{ account_id: string; widget_key: string; widget: Partial<WidgetSettings> }>(
    `SELECT account_id, widget_key, widget FROM live_settings WHERE widget_key = $1`,
    [key],
  );
  return r ? { accountId: r.account_id, widgetKey: r.widget_key, settings: widgetSettings(r.widget) } : null;
}
