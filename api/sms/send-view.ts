/**
 * What the send screens show: the choices of /sms/send (groups with how many members have a
 * mobile, templates, routes with their price, senders: the short codes it may send from) and the outcome of one accepted send for
 * /sms/send/success (a message, or a campaign with counts by status). Account-scoped.
 */
import { SmsTemplate, sequelize } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { can } from "../policy/policy";
import { listSenders, smsRouteOffers } from "./catalog";
import { templateView } from "./templates";
import { rows } from "../lib/sql";

import { messageSettingsOf } from "../message-settings/settings";

function assertSend(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/sms/send")) throw new AppError("FORBIDDEN");
}

export async function sendOptions(ctx: SignedInCtx) {
  assertSend(ctx);
  const accountId = ctx.actor.accountId;
  const [groups, templates, routes, [account], senders, settings] = await Promise.all([
    rows<{ id: string; name: string; members: number }>(
      `SELECT g.id, g.name,
              (SELECT count(*)::int FROM contact_group_members m JOIN contacts c ON c.id = m.contact_id
                WHERE m.group_id = g.id AND c.mobile_number IS NOT NULL) AS members
         FROM contact_groups g WHERE g.account_id = $1 ORDER BY lower(g.name)`,
      [accountId],
    ),
    SmsTemplate.findAll({ where: { accountId }, order: [[sequelize().fn("lower", sequelize().col("name")), "ASC"]] }),
    smsRouteOffers(accountId),
    rows<{ currency: string }>(`SELECT currency FROM accounts WHERE id = $1`, [accountId]),
    listSenders(ctx),
    messageSettingsOf(accountId),
  ]);
  return {
    groups,
    templates: templates.map(templateView),
    routes,
    currency: (account?.currency ?? "BRL").trim(),
    senders: senders.data,
    /** What the account's message settings add (ADR 071): the sender a blank `from` takes, the signature every SMS gets, the opt-out text of a campaign. */
    defaults: {
      sender: settings.sms_sender,
      signature: settings.signature_channels.includes("sms") ? settings.signature : "",
      optout_text: settings.optout_text,
    },
  };
}

export type SendOutcome = {
  kind: "message" | "campaign";
  id: string;
  message_id: string | null;
  campaign: { id: string; name: string; status: string; source: Record<string, unknown> } | null;
  messages: number;
  by_status: Record<string, number>;
  optout: number;
  rejected: number;
  invalid: number;
  segments: number;
  total_price: number;
  currency: string;
  scheduled_at: string | null;
};

/** One accepted send of the account: `campaign` id or `message` id; NOT_FOUND otherwise. */
export async function sendOutcome(ctx: SignedInCtx, ref: { campaign?: string | null; message?: string | null }): Promise<SendOutcome> {
  assertSend(ctx);
  const accountId = ctx.actor.accountId;
  if (ref.campaign && UUID.test(ref.campaign)) {
    const [c] = await rows<{ id: string; name: string; status: string; source: Record<string, unknown>; scheduled_at: Date | null }>(
      `SELECT id, name, status, source, scheduled_at FROM campaigns WHERE id = $1 AND account_id = $2`,
      [ref.campaign, accountId],
    );
    if (!c) throw new AppError("NOT_FOUND");
    const found = await rows<{ status: string; n: number; segments: string; price: string; currency: string }>(
      `SELECT status, count(*)::int AS n, sum(segments) FILTER (WHERE price > 0) AS segments, sum(price) AS price, min(currency) AS currency
         FROM messages WHERE campaign_id = $1 AND account_id = $2 GROUP BY status`,
      [c.id, accountId],
    );
    const by = Object.fromEntries(found.map((r) => [r.status, r.n]));
    return {
      kind: "campaign",
      id: c.id,
      message_id: null,
      campaign: { id: c.id, name: c.name, status: c.status, source: c.source },
      messages: found.reduce((s, r) => s + r.n, 0),
      by_status: by,
      optout: by.optout ?? 0,
      rejected: by.rejected ?? 0,
      invalid: Number(c.source.invalid ?? 0),
      segments: found.reduce((s, r) => s + Number(r.segments ?? 0), 0),
      total_price: found.reduce((s, r) => s + Number(r.price ?? 0), 0),
      currency: (found[0]?.currency ?? "BRL").trim(),
      scheduled_at: c.scheduled_at ? new Date(c.scheduled_at).toISOString() : null,
    };
  }
  if (ref.message && UUID.test(ref.message)) {
    const [m] = await rows<{ id: string; status: string; segments: number; price: string; currency: string; scheduled_at: Date | null }>(
      `SELECT id, status, segments, price, currency, scheduled_at FROM messages WHERE id = $1 AND account_id = $2 AND channel = 'sms'`,
      [ref.message, accountId],
    );
    if (!m) throw new AppError("NOT_FOUND");
    const charged = Number(m.price) > 0;
    return {
      kind: "message",
      id: m.id,
      message_id: m.id,
      campaign: null,
      messages: 1,
      by_status: { [m.status]: 1 },
      optout: m.status === "optout" ? 1 : 0,
      rejected: m.status === "rejected" ? 1 : 0,
      invalid: 0,
      segments: charged ? m.segments : 0,
      total_price: Number(m.price),
      currency: m.currency.trim(),
      scheduled_at: m.scheduled_at ? new Date(m.scheduled_at).toISOString() : null,
    };
  }
  throw new AppError("NOT_FOUND");
}
