/**
 * The account's message settings (issue 23, ADR 071): default senders per channel
 * (/settings/resources) and the texts and marketing window (/settings/messages). One row per
 * account in account_message_settings; an account that never saved has the defaults (no default
 * sender, no signature, no opt-out text, no window).
 *
 * Read by the screens and the API (anyone who may open the screen) and changed by who may change
 * the account (owner, admin: WRITE_ROLES.account), in a transaction with the audit entry (before
 * and after). A default sender must be the account's own and usable when saved: an active short
 * code, a connected WhatsApp number, a launched RCS agent, an address on a validated e-mail domain.
 * The accept paths of the channels read the row with `messageSettingsOf` (or join it in their own
 * statement: the SMS one-number path) and apply it: ./apply.ts.
 */
import { type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { exec, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { assertCanWrite, can, canWrite } from "../policy/policy";
import type { SignatureChannel } from "./constants";
import { messagesSchema, resourcesSchema } from "./schemas";
import type { MarketingWindow } from "./window";

export type MessageSettings = {
  sms_sender: string;
  whatsapp_number_id: string | null;
  rcs_agent_id: string | null;
  email_from: string | null;
  email_from_name: string;
  signature: string;
  signature_channels: SignatureChannel[];
  optout_text: string;
  window: MarketingWindow;
  updated_at: Date | null;
};

export const DEFAULT_SETTINGS: MessageSettings = {
  sms_sender: "",
  whatsapp_number_id: null,
  rcs_agent_id: null,
  email_from: null,
  email_from_name: "",
  signature: "",
  signature_channels: [],
  optout_text: "",
  window: { enabled: false, start: 480, end: 1200, days: [1, 2, 3, 4, 5, 6] },
  updated_at: null,
};

/** The columns as one JSON object of MessageSettings' shape (for statements that read it with other facts). */
export const SETTINGS_JSON_SQL = (alias: string) =>
  `json_build_object('sms_sender', ${alias}.sms_sender, 'whatsapp_number_id', ${alias}.whatsapp_number_id, 'rcs_agent_id', ${alias}.rcs_agent_id,
     'email_from', ${alias}.email_from, 'email_from_name', ${alias}.email_from_name, 'signature', ${alias}.signature,
     'signature_channels', ${alias}.signature_channels, 'optout_text', ${alias}.optout_text, 'updated_at', ${alias}.updated_at,
     'window', json_build_object('enabled', ${alias}.window_enabled, 'start', ${alias}.window_start, 'end', ${alias}.window_end, 'days', ${alias}.window_days))`;

/** The account's settings as the send paths apply them (defaults when never saved). No permission: the accept paths have checked theirs. */
export async function messageSettingsOf(accountId: string, transaction?: Transaction): Promise<MessageSettings> {
  const [found] = await rows<{ s: MessageSettings }>(`SELECT ${SETTINGS_JSON_SQL("s")} AS s FROM account_message_settings s WHERE s.account_id = $1`, [accountId], { transaction });
  return found ? { ...found.s, updated_at: found.s.updated_at ? new Date(found.s.updated_at) : null } : DEFAULT_SETTINGS;
}

// ---- /settings/resources -----------------------------------------------------------------------

export type SenderChoices = {
  sms: Array<{ value: string; label: string }>;
  whatsapp: Array<{ value: string; label: string }>;
  rcs: Array<{ value: string; label: string }>;
  /** Validated domains: the default address must be on one of them. */
  email_domains: string[];
};

/** What the account may send from, per channel: the choices of the resources screen. */
export async function senderChoices(accountId: string, transaction?: Transaction): Promise<SenderChoices> {
  const [r] = await rows<SenderChoices>(
    `SELECT
       COALESCE((SELECT json_agg(json_build_object('value', number, 'label', CASE WHEN nickname <> '' THEN number || ' · ' || nickname ELSE number END) ORDER BY number)
                   FROM short_codes WHERE account_id = $1 AND status = 'active'), '[]') AS sms,
       COALESCE((SELECT json_agg(json_build_object('value', id, 'label', concat_ws(' · ', NULLIF(display_phone_number, ''), NULLIF(verified_name, ''), phone_number_id)) ORDER BY created_at)
                   FROM whatsapp_numbers WHERE account_id = $1), '[]') AS whatsapp,
       COALESCE((SELECT json_agg(json_build_object('value', id, 'label', name) ORDER BY name)
                   FROM rcs_agents WHERE account_id = $1 AND status = 'launched'), '[]') AS rcs,
       COALESCE((SELECT json_agg(domain ORDER BY domain) FROM email_domains WHERE account_id = $1 AND status = 'validated'), '[]') AS email_domains`,
    [accountId],
    { transaction },
  );
  return r;
}

function assertRead(ctx: SignedInCtx, path: string) {
  if (!can(ctx.actor, path)) throw new AppError("FORBIDDEN");
}

const resourcesOf = (s: MessageSettings) => ({
  sms_sender: s.sms_sender,
  whatsapp_number_id: s.whatsapp_number_id,
  rcs_agent_id: s.rcs_agent_id,
  email_from: s.email_from,
  email_from_name: s.email_from_name,
  updated_at: s.updated_at,
});
export type ResourcesSettings = ReturnType<typeof resourcesOf>;

/** GET /api/settings/resources and the screen: the default senders, the choices, and whether the person may change them. */
export async function getResources(ctx: SignedInCtx): Promise<{ data: ResourcesSettings; choices: SenderChoices; editable: boolean }> {
  assertRead(ctx, "/settings/resources");
  const accountId = ctx.actor.accountId;
  const [settings, choices] = await Promise.all([messageSettingsOf(accountId), senderChoices(accountId)]);
  return { data: resourcesOf(settings), choices, editable: canWrite(ctx.actor, "account") };
}

const fieldError = (field: string, key: string) => new AppError("VALIDATION", { fields: { [field]: [key] } });

/** PUT /api/settings/resources: replaces the default senders; each must be the account's own and usable now. */
export async function saveResources(ctx: SignedInCtx, input: unknown): Promise<{ data: ResourcesSettings }> {
  assertRead(ctx, "/settings/resources");
  assertCanWrite(ctx.actor, "account");
  const data = validate(resourcesSchema, input);
  const accountId = ctx.actor.accountId;
  return sequelize().transaction(async (transaction) => {
    const choices = await senderChoices(accountId, transaction);
    if (data.sms_sender !== "" && !choices.sms.some((c) => c.value === data.sms_sender)) throw fieldError("sms_sender", "settings.resources.errors.smsSender");
    if (data.whatsapp_number_id && !choices.whatsapp.some((c) => c.value === data.whatsapp_number_id)) throw fieldError("whatsapp_number_id", "settings.resources.errors.whatsapp");
    if (data.rcs_agent_id && !choices.rcs.some((c) => c.value === data.rcs_agent_id)) throw fieldError("rcs_agent_id", "settings.resources.errors.rcs");
    if (data.email_from && !choices.email_domains.includes(data.email_from.slice(data.email_from.lastIndexOf("@") + 1)))
      throw fieldError("email_from", "settings.resources.errors.emailDomain");
    if (!data.email_from && data.email_from_name) throw fieldError("email_from", "settings.resources.errors.emailForName");
    const before = resourcesOf(await messageSettingsOf(accountId, transaction));
    await exec(
      `INSERT INTO account_message_settings (account_id, sms_sender, whatsapp_number_id, rcs_agent_id, email_from, email_from_name, updated_by, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now())
       ON CONFLICT (account_id) DO UPDATE SET sms_sender = $2, whatsapp_number_id = $3, rcs_agent_id = $4, email_from = $5, email_from_name = $6, updated_by = $7, updated_at = now()`,
      [accountId, data.sms_sender, data.whatsapp_number_id, data.rcs_agent_id, data.email_from, data.email_from_name, ctx.actor.userId],
      { transaction },
    );
    const after = resourcesOf(await messageSettingsOf(accountId, transaction));
    const { updated_at: _b, ...b } = before;
    const { updated_at: _a, ...a } = after;
    await recordAudit({ ...ctx, transaction }, "settings.resources.updated", { meta: { before: b, after: a } });
    return { data: after };
  });
}

// ---- /settings/messages ------------------------------------------------------------------------

const messagesOf = (s: MessageSettings) => ({
  signature: s.signature,
  signature_channels: s.signature_channels,
  optout_text: s.optout_text,
  window_enabled: s.window.enabled,
  window_start: s.window.start,
  window_end: s.window.end,
  window_days: s.window.days,
  updated_at: s.updated_at,
});
export type MessagesSettings = ReturnType<typeof messagesOf>;

/** GET /api/settings/messages and the screen. */
export async function getMessages(ctx: SignedInCtx): Promise<{ data: MessagesSettings; editable: boolean }> {
  assertRead(ctx, "/settings/messages");
  return { data: messagesOf(await messageSettingsOf(ctx.actor.accountId)), editable: canWrite(ctx.actor, "account") };
}

/** PUT /api/settings/messages: replaces the signature, the opt-out text and the marketing window. */
export async function saveMessages(ctx: SignedInCtx, input: unknown): Promise<{ data: MessagesSettings }> {
  assertRead(ctx, "/settings/messages");
  assertCanWrite(ctx.actor, "account");
  const data = validate(messagesSchema, input);
  const accountId = ctx.actor.accountId;
  return sequelize().transaction(async (transaction) => {
    const before = messagesOf(await messageSettingsOf(accountId, transaction));
    await exec(
      `INSERT INTO account_message_settings (account_id, signature, signature_channels, optout_text, window_enabled, window_start, window_end, window_days, updated_by, updated_at)
       VALUES ($1, $2, $3::text[], $4, $5, $6, $7, $8::smallint[], $9, now())
       ON CONFLICT (account_id) DO UPDATE SET signature = $2, signature_channels = $3::text[], optout_text = $4, window_enabled = $5,
         window_start = $6, window_end = $7, window_days = $8::smallint[], updated_by = $9, updated_at = now()`,
      [accountId, data.signature, data.signature_channels, data.optout_text, data.window_enabled, data.window_start, data.window_end, data.window_days, ctx.actor.userId],
      { transaction },
    );
    const after = messagesOf(await messageSettingsOf(accountId, transaction));
    const { updated_at: _b, ...b } = before;
    const { updated_at: _a, ...a } = after;
    await recordAudit({ ...ctx, transaction }, "settings.messages.updated", { meta: { before: b, after: a } });
    return { data: after };
  });
}
