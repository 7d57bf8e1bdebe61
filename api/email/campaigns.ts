/**
 * An e-mail send to many (issue 17, ADR 038): one content — from, sender name, subject, HTML and/or
 * text with {{variables}} — to a list of addresses, a contact group (its contacts with an e-mail) or
 * a CSV file (./recipients-file.ts), now or at `scheduled_at`, as a campaign (channel `email`;
 * POST /api/email/campaigns). Like the WhatsApp and SMS bulk accepts, set-based inside PostgreSQL
 * and in ONE transaction:
 *   1. the from address must be of a validated domain of the account;
 *   2. the recipients are gathered into a temporary table with the values of the content's
 *      variables — a contact field ({{first_name}}, {{name}}, {{company}}, a custom field's key…)
 *      of the group's contact, of the file's column of that name, or of the account's contact with
 *      that address (a list); {{email}} is the address. A variable left without a value refuses the
 *      send naming it (and how many lack it);
 *   3. opt-outs (channel email) and the deny list mark theirs `optout` / `rejected` at price 0;
 *   4. the price per message is the account's e-mail price (api/sms/pricing.ts CHANNEL_PRICING.email);
 *   5. the campaign row holds the content ONCE (campaigns.content); each message only its
 *      recipient and, in `content`, the campaign id, domain, subject as written and its variables
 *      (the SMTP adapter renders it: ./campaign-content.ts) — `queued` with an outbox row, or
 *      `scheduled` (api/sms/release.ts queues them when due); the key's answer, the audit entry
 *      and the debit last (402: nothing written).
 * It is then controlled like the other channels' campaigns (api/campaigns/control.ts).
 */
import { createHash } from "node:crypto";
import { sequelize } from "../../models";
import { debitBalance } from "../accounts/balance";
import { recordAudit } from "../audit/record";
import { dispatchStream } from "../channels/registry";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { CONTACT_VARIABLES, type StagedFile } from "../sms/accept";
import { CHANNEL_PRICING, pickPrices, priceRowsSql, type PriceRow } from "../sms/pricing";
import { MAX_SCHEDULE_DAYS } from "../sms/schemas";
import { type CampaignContent, contentVariables } from "./campaign-content";
import { type EmailCampaignInput, emailCampaignSchema } from "./campaign-schemas";
import { messageSettingsOf } from "../message-settings/settings";
import { campaignSchedule } from "../message-settings/apply";
import { senderOf } from "./send";
import { EMAIL_PROVIDER } from "./provider";
import { refreshStatisticsAfterBulk } from "../messages/statistics";
import { templateForSend } from "./templates";

export type EmailCampaignAnswer = {
  data: {
    campaign_id: string;
    status: "running" | "scheduled" | "completed";
    total_price: number;
    currency: string;
    scheduled_at: string | null;
    summary: { messages: number; sendable: number; optout: number; rejected: number; invalid?: number };
  };
};

const fieldError = (field: string, key: string, params?: Record<string, string | number>) => new AppError("VALIDATION", { fields: { [field]: [key] }, params });

/** A variable's SQL for the recipient row `r` and its contact `c` (and the file row `s`, for a file). */
function valueSql(name: string, file: boolean): string {
  if (name === "email") return "r.recipient";
  const contact = `NULLIF(btrim(${CONTACT_VARIABLES[name] ?? `(c.custom->>'${name}')`}), '')`;
  return file ? `COALESCE(NULLIF(btrim(r.vars->>'${name}'), ''), ${contact})` : contact;
}

export async function acceptEmailCampaign(ctx: SignedInCtx, input: unknown, opts: { idempotencyKey?: string | null; file?: StagedFile } = {}): Promise<EmailCampaignAnswer> {
  if (!can(ctx.actor, "/mail/send")) throw new AppError("FORBIDDEN");
  const data: EmailCampaignInput = validate(emailCampaignSchema, input);
  const file = opts.file;
  const sources = [data.to ? "to" : null, data.group_id ? "group_id" : null, file ? "file" : null].filter(Boolean) as string[];
  if (sources.length !== 1) throw fieldError(sources[1] ?? "group_id", sources.length ? "sms.errors.oneSource" : "sms.errors.recipientRequired");
  const scheduledAt = data.scheduled_at ?? null;
  if (scheduledAt && scheduledAt.getTime() <= Date.now()) throw fieldError("scheduled_at", "sms.errors.schedulePast");
  if (scheduledAt && scheduledAt.getTime() > Date.now() + MAX_SCHEDULE_DAYS * 86_400_000) throw fieldError("scheduled_at", `sms.errors.scheduleTooFar::${MAX_SCHEDULE_DAYS}`);
  const accountId = ctx.actor.accountId;
  const idempotencyKey = opts.idempotencyKey ?? null;
  const hash = createHash("sha256")
    .update(JSON.stringify({ ...data, scheduled_at: scheduledAt?.toISOString() ?? null, file: file?.hash ?? null }))
    .digest("hex");
  // The account's settings (ADR 071): its default sender when none is named, and the marketing window.
  const { from, fromName } = await senderOf(accountId, data);
  const domain = from.slice(from.lastIndexOf("@") + 1);
  const sendAt = campaignSchedule(await messageSettingsOf(accountId), scheduledAt);

  const accepted = await sequelize().transaction(async (transaction) => {
    const t = { transaction };
    if (idempotencyKey !== null) {
      const stored = await row<{ request_hash: string; response: EmailCampaignAnswer }>(
        `SELECT request_hash, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
        [accountId, idempotencyKey],
        t,
      );
      if (stored) {
        if (stored.request_hash !== hash) throw new AppError("IDEMPOTENCY_CONFLICT");
        return stored.response;
      }
    }
    // 1. The domain and the price.
    const facts = (await row<{ currency: string; prices: PriceRow[]; domain_ok: boolean }>(
      `SELECT a.currency, (SELECT coalesce(json_agg(p), '[]'::json) FROM (${priceRowsSql("email", "$1", "NULL")}) p) AS prices,
              EXISTS (SELECT 1 FROM email_domains WHERE account_id = $1 AND domain = $2 AND status = 'validated') AS domain_ok
         FROM accounts a WHERE a.id = $1`,
      [accountId, domain],
      t,
    ))!;
    if (!facts.domain_ok) throw fieldError("from", "validation.emailDomainNotValidated");
    const currency = facts.currency.trim();
    const [price] = pickPrices(CHANNEL_PRICING.email, currency, facts.prices);
    if (!price) throw fieldError("from", "validation.emailNotOffered");

    // A template's subject and parts (active, the account's), or the content as given.
    const tpl = data.template_id ? await templateForSend(accountId, data.template_id, transaction) : null;
    const parts = tpl ? { subject: tpl.subject, html: tpl.html, text: tpl.text ?? undefined } : { subject: data.subject ?? "", html: data.html, text: data.text };

    // 2. The recipients and their variables.
    const vars = contentVariables(parts.subject, parts.html, parts.text);
    const bind: unknown[] = [accountId];
    let source: string;
    let label: string;
    let campaignSource: Record<string, unknown>;
    let contactJoin = "";
    if (data.group_id) {
      const group = await row<{ id: string; name: string }>(`SELECT id, name FROM contact_groups WHERE id = $1 AND account_id = $2`, [data.group_id, accountId], t);
      if (!group) throw fieldError("group_id", "validation.option");
      bind.push(group.id);
      // One message per address: a contact twice in the group, or two contacts with one address, get one.
      source = `SELECT DISTINCT ON (lower(c.email::text)) row_number() OVER () AS n, lower(c.email::text) AS recipient, NULL::jsonb AS vars, c.id AS contact_id
                  FROM contact_group_members gm JOIN contacts c ON c.id = gm.contact_id AND c.account_id = gm.account_id
                 WHERE gm.group_id = $2 AND gm.account_id = $1 AND c.email IS NOT NULL AND c.email::text LIKE '%_@_%'
                 ORDER BY lower(c.email::text), gm.contact_id`;
      contactJoin = "LEFT JOIN contacts c ON c.id = r.contact_id";
      label = group.name;
      campaignSource = { kind: "group", group_id: group.id, group_name: group.name };
    } else if (data.to) {
      bind.push(data.to);
      source = `SELECT min(n) AS n, recipient, NULL::jsonb AS vars FROM unnest($2::text[]) WITH ORDINALITY AS u(recipient, n) WHERE $1::uuid IS NOT NULL GROUP BY recipient`;
      label = parts.subject;
      campaignSource = { kind: "list", count: data.to.length };
    } else {
      const f = file!;
      bind.push(f.batchId);
      source = `SELECT DISTINCT ON (recipient) n, recipient, vars FROM sms_send_rows WHERE batch_id = $2 AND reason IS NULL AND $1::uuid IS NOT NULL ORDER BY recipient, n`;
      label = f.name;
      campaignSource = { kind: "file", file_name: f.name, rows: f.rows, invalid: f.invalid, columns: f.columns };
    }
    if (!contactJoin && vars.some((v) => v !== "email")) {
      contactJoin = `LEFT JOIN LATERAL (SELECT * FROM contacts c0 WHERE c0.account_id = $1 AND c0.email = r.recipient::citext ORDER BY c0.created_at LIMIT 1) c ON true`;
    }
    const valueExprs = vars.map((v) => valueSql(v, Boolean(file)));
    const varsSql = vars.length ? `jsonb_build_object(${vars.map((v, i) => `'${v}', ${valueExprs[i]}`).join(", ")})` : `'{}'::jsonb`;
    const missingSql = vars.length ? `CASE ${vars.map((v, i) => `WHEN ${valueExprs[i]} IS NULL THEN '${v}'`).join(" ")} END` : "NULL";
    await exec(`CREATE TEMP TABLE email_accept_rows (n bigint, recipient text, vars jsonb, missing text, why text) ON COMMIT DROP`, [], t);
    await exec(
      `INSERT INTO email_accept_rows (n, recipient, vars, missing)
       SELECT r.n, r.recipient, ${varsSql}, ${missingSql} FROM (${source}) r ${contactJoin}`,
      bind,
      t,
    );
    const [gap] = await rows<{ missing: string; count: number }>(
      `SELECT missing, count(*)::int AS count FROM email_accept_rows WHERE missing IS NOT NULL GROUP BY missing ORDER BY count(*) DESC, missing LIMIT 1`,
      [],
      t,
    );
    if (gap) throw fieldError(`variables.${gap.missing}`, `sms.errors.variableMissing::${gap.missing}`, { variable: gap.missing, count: gap.count });
    await exec(`ANALYZE email_accept_rows`, [], t);
    // 3. Opted out (the recipient's own choice) wins over the deny list when an address is on both.
    await exec(`UPDATE email_accept_rows r SET why = 'deny_list' FROM deny_list d WHERE d.account_id = $1 AND d.recipient = r.recipient`, [accountId], t);
    await exec(`UPDATE email_accept_rows r SET why = 'optout' FROM optouts o WHERE o.account_id = $1 AND o.channel = 'email' AND o.recipient = r.recipient`, [accountId], t);
    const [counts] = await rows<{ messages: number; sendable: number; optout: number; rejected: number }>(
      `SELECT count(*)::int AS messages, count(*) FILTER (WHERE why IS NULL)::int AS sendable,
              count(*) FILTER (WHERE why = 'optout')::int AS optout, count(*) FILTER (WHERE why = 'deny_list')::int AS rejected FROM email_accept_rows`,
      [],
      t,
    );
    if (counts.messages === 0) throw fieldError(file ? "file" : data.group_id ? "group_id" : "to", "emailCampaigns.errors.noRecipients");
    const total = counts.sendable * price.pricePerSegment;

    // 5. The campaign (the content, once) and its messages.
    const content: CampaignContent = {
      subject: parts.subject,
      html: parts.html?.trim() ? parts.html : null,
      text: parts.text?.trim() ? parts.text : null,
      template_id: tpl?.id ?? null,
      from_name: fromName || null,
      reply_to: data.reply_to ?? null,
      domain,
    };
    const status = sendAt ? "scheduled" : counts.sendable === 0 ? "completed" : "running";
    const campaign = (await row<{ id: string }>(
      `INSERT INTO campaigns (account_id, channel, name, status, sender, body, source, total, created_by, scheduled_at, started_at, completed_at, content)
       VALUES ($1, 'email', $2, $3, $4, $5, $6::jsonb, $7, $8, $9, CASE WHEN $3 = 'scheduled' THEN NULL ELSE now() END, CASE WHEN $3 = 'completed' THEN now() END, $10::jsonb)
       RETURNING id`,
      [
        accountId,
        (data.name || label).slice(0, 120),
        status,
        from,
        parts.subject,
        JSON.stringify(campaignSource),
        counts.messages,
        ctx.actor.userId,
        sendAt,
        JSON.stringify(content),
      ],
      t,
    ))!;
    await exec(
      `WITH m AS (
         INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, provider, price, currency, type, content, error_code, error_message,
                               scheduled_at, queued_at, campaign_id)
         SELECT $1, 'email', 'outbound', $2, r.recipient, '', 1,
                CASE r.why WHEN 'optout' THEN 'optout' WHEN 'deny_list' THEN 'rejected' ELSE CASE WHEN $6::timestamptz IS NULL THEN 'queued' ELSE 'scheduled' END END,
                $3, CASE WHEN r.why IS NULL THEN $4::bigint ELSE 0 END, $5, 'email',
                jsonb_build_object('campaign_id', $7::text, 'domain', $9::text, 'subject', $10::text, 'vars', r.vars),
                r.why, CASE r.why WHEN 'optout' THEN 'errors.RECIPIENT_OPTED_OUT' WHEN 'deny_list' THEN 'errors.RECIPIENT_DENIED' END,
                $6::timestamptz, CASE WHEN r.why IS NULL AND $6::timestamptz IS NULL THEN now() END, $7::uuid
           FROM email_accept_rows r ORDER BY r.n
         RETURNING id, status
       )
       INSERT INTO outbox (topic, payload) SELECT $8, jsonb_build_object('message_id', m.id::text) FROM m WHERE m.status = 'queued'`,
      [accountId, from, EMAIL_PROVIDER, price.pricePerSegment, currency, sendAt, campaign.id, dispatchStream("email"), domain, parts.subject],
      t,
    );
    if (file) {
      // The invalid rows stay with the campaign, for its report (api/sms/invalid-rows.ts), as an SMS file send's do.
      if (file.invalid > 0) {
        await exec(
          `INSERT INTO campaign_invalid_rows (campaign_id, account_id, line, value, reason)
           SELECT $2, $3, n, recipient, reason FROM sms_send_rows WHERE batch_id = $1 AND reason IS NOT NULL ON CONFLICT DO NOTHING`,
          [file.batchId, campaign.id, accountId],
          t,
        );
      }
      await exec(`DELETE FROM sms_send_rows WHERE batch_id = $1`, [file.batchId], t);
    }
    const summary = { ...counts, ...(file ? { invalid: file.invalid } : {}) };
    const answer: EmailCampaignAnswer = { data: { campaign_id: campaign.id, status, total_price: total, currency, scheduled_at: sendAt?.toISOString() ?? null, summary } };
    if (idempotencyKey !== null) {
      await exec(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, $4::jsonb)`,
        [accountId, idempotencyKey, hash, JSON.stringify(answer)],
        t,
      );
    }
    await recordAudit({ ...ctx, transaction }, "email.campaign_accepted", {
      meta: { campaign_id: campaign.id, domain, ...summary, total_price: total, currency, source: campaignSource.kind },
    });
    if (total > 0 && !(await debitBalance(accountId, total, transaction, { kind: "message", reference: `campaign:${campaign.id}`, by: ctx.actor.userId })))
      throw new AppError("INSUFFICIENT_BALANCE");
    return answer;
  });
  refreshStatisticsAfterBulk(accepted.data.campaign_id, accepted.data.summary.messages);
  return accepted;
}

/** The account's contact groups for /mail/send, each with how many of its contacts have an e-mail address. */
export async function emailSendGroups(ctx: SignedInCtx): Promise<Array<{ id: string; name: string; members: number }>> {
  if (!can(ctx.actor, "/mail/send")) throw new AppError("FORBIDDEN");
  return rows<{ id: string; name: string; members: number }>(
    `SELECT g.id, g.name, (SELECT count(*)::int FROM contact_group_members gm JOIN contacts c ON c.id = gm.contact_id
                             WHERE gm.group_id = g.id AND gm.account_id = g.account_id AND c.email IS NOT NULL) AS members
       FROM contact_groups g WHERE g.account_id = $1 ORDER BY lower(g.name) LIMIT 500`,
    [ctx.actor.accountId],
  );
}
