/**
 * A WhatsApp send to many (issue 16): one approved template of one number to a list of numbers
 * or a contact group, now or scheduled, as a campaign (POST /api/whatsapp/campaigns). Like the
 * SMS bulk accept (api/sms/accept.ts acceptBulk), set-based inside PostgreSQL and in ONE
 * transaction:
 *   1. the template must be approved; each variable is a value, or a contact field written
 *      {{first_name}} ({{name}}, {{company}}, a custom field's key…) filled per recipient from the
 *      contact (a list's numbers are looked up among the account's contacts by their mobile); a
 *      recipient left without a value refuses the send naming the variable (and how many lack it);
 *   2. the recipients are gathered into a temporary table with their variables, their body text
 *      and Graph's template object built by SQL; opt-outs (channel whatsapp) and the deny list
 *      mark theirs `optout` / `rejected` at price 0;
 *   3. the price is the template category's (api/sms/pricing.ts CHANNEL_PRICING.whatsapp) per
 *      message sent to; 402 when balance + credit limit cannot cover it;
 *   4. the campaign (channel whatsapp), the messages — `queued` with one outbox row each, or
 *      `scheduled` (api/sms/release.ts queues them when due) — the audit entry and the key's
 *      answer; the debit last.
 * With `shorten_links`, the addresses in the variables' values become short links with a code per
 * recipient (api/shortener/campaign-links.ts, ADR 060), and the campaign's clicks say who clicked.
 * The campaign is then controlled like an SMS one (api/campaigns/control.ts: pause, resume,
 * cancel with refunds, live counts).
 */
import { createHash } from "node:crypto";
import { sequelize } from "../../models";
import { debitBalance } from "../accounts/balance";
import { recordAudit } from "../audit/record";
import { whatsappProvider } from "../channels/whatsapp/adapter";
import { dispatchStream } from "../channels/registry";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { exec, row, rows } from "../lib/sql";
import { claimUnitsSql } from "../products/products";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { CONTACT_VARIABLES } from "../sms/accept";
import { CHANNEL_PRICING, pickPrices, priceRowsSql, type PriceRow, type WhatsappPriceRoute } from "../sms/pricing";
import { MAX_SCHEDULE_DAYS } from "../sms/schemas";
import { SENDING_NUMBER, sendingNumber } from "./numbers";
import { messageSettingsOf } from "../message-settings/settings";
import { campaignSchedule } from "../message-settings/apply";
import { variablesOf } from "./schemas";
import { mediaHeaderComponent, mediaLink } from "./send";
import { CODES_SQL, insertCodes, linksIn, markLinks, shortenCampaignLinks, tableCodesSql, unmarkSql } from "../shortener/campaign-links";

const E164 = /^\+[1-9]\d{7,14}$/;
/** Recipients of one list send (a group has no limit but its own size). */
export const MAX_LIST = 10_000;
const value = z.string().trim().min(1, "validation.required").max(1000, "validation.maxLength::1000");

export const whatsappCampaignSchema = z.object({
  /** The sending number; absent or blank: the account's default WhatsApp number (/settings/resources, ADR 071). */
  from: z.string().trim().regex(SENDING_NUMBER, "validation.option").optional().or(z.literal("")),
  name: z.string().trim().max(120, "validation.maxLength::120").optional(),
  template: z.object({
    name: z.string().trim().min(1, "validation.required").max(512),
    language: z.string().trim().min(2, "validation.required").max(10),
    variables: z.array(value).max(100).optional().default([]),
    header_variable: value.optional(),
    header_media: z.object({ link: mediaLink }).optional(),
    button_variable: value.optional(),
  }),
  to: z.array(z.string().trim().regex(E164, "validation.phone")).min(1, "validation.required").max(MAX_LIST, `validation.maxItems::${MAX_LIST}`).optional(),
  group_id: z
    .string()
    .regex(/^[0-9a-f-]{36}$/i, "validation.option")
    .optional(),
  scheduled_at: z.coerce.date("validation.date").optional(),
  /** Addresses in the values of the variables become short links, a code per recipient (ADR 060): the campaign shows who clicked. */
  shorten_links: z.boolean("validation.option").optional().default(false),
});
export type WhatsappCampaignInput = z.infer<typeof whatsappCampaignSchema>;

export type WhatsappCampaignAnswer = {
  data: {
    campaign_id: string;
    status: "running" | "scheduled" | "completed";
    category: WhatsappPriceRoute;
    total_price: number;
    currency: string;
    scheduled_at: string | null;
    summary: { messages: number; sendable: number; optout: number; rejected: number };
  };
};

const fieldError = (field: string, key: string, params?: Record<string, string | number>) => new AppError("VALIDATION", { fields: { [field]: [key] }, params });

/** A variable's SQL: a contact field ({{first_name}}, a custom field's key) read from `c`, else the literal value (bound). */
function valueSql(v: string, bind: unknown[]): string {
  const field = /^\{\{\s*([A-Za-z0-9_]{1,40})\s*\}\}$/.exec(v)?.[1];
  if (field) {
    if (field === "mobile") return "r.recipient";
    return `NULLIF(btrim(${CONTACT_VARIABLES[field] ?? `(c.custom->>'${field}')`}), '')`;
  }
  bind.push(v);
  return `$${bind.length}::text`;
}

type TemplateRow = {
  id: string;
  name: string;
  language: string;
  category: WhatsappPriceRoute;
  status: string;
  components: Array<{ type: string; text?: string; format?: string; example?: { header_handle?: string[] }; buttons?: Array<{ type: string; url?: string }> }>;
};

export async function acceptWhatsappCampaign(ctx: SignedInCtx, input: unknown, idempotencyKey: string | null = null): Promise<WhatsappCampaignAnswer> {
  if (!can(ctx.actor, "/whatsapp/send")) throw new AppError("FORBIDDEN");
  const data = validate(whatsappCampaignSchema, input);
  if (!data.to === !data.group_id) throw fieldError(data.to ? "group_id" : "to", data.to ? "sms.errors.oneSource" : "sms.errors.recipientRequired");
  const scheduledAt = data.scheduled_at ?? null;
  if (scheduledAt && scheduledAt.getTime() <= Date.now()) throw fieldError("scheduled_at", "sms.errors.schedulePast");
  if (scheduledAt && scheduledAt.getTime() > Date.now() + MAX_SCHEDULE_DAYS * 86_400_000) throw fieldError("scheduled_at", `sms.errors.scheduleTooFar::${MAX_SCHEDULE_DAYS}`);
  const accountId = ctx.actor.accountId;
  // The account's settings (ADR 071): its default number when none is named, and the marketing window.
  const settings = await messageSettingsOf(accountId);
  const number = await sendingNumber(accountId, data.from || settings.whatsapp_number_id || "");
  if (!number) throw fieldError("from", data.from ? "validation.option" : "validation.required");
  const hash = createHash("sha256")
    .update(JSON.stringify({ ...data, scheduled_at: scheduledAt?.toISOString() ?? null }))
    .digest("hex");
  const sendAt = campaignSchedule(settings, scheduledAt);

  return sequelize().transaction(async (transaction) => {
    const t = { transaction };
    const q = <T extends object>(sql: string, bind: unknown[]) => rows<T>(sql, bind, t);
    if (idempotencyKey !== null) {
      const stored = await row<{ request_hash: string; response: WhatsappCampaignAnswer }>(
        `SELECT request_hash, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
        [accountId, idempotencyKey],
        t,
      );
      if (stored) {
        if (stored.request_hash !== hash) throw new AppError("IDEMPOTENCY_CONFLICT");
        return stored.response;
      }
    }
    // 1. The template, approved, and what its variables are.
    const tpl = await row<TemplateRow>(
      `SELECT id, name, language, category, status, components FROM whatsapp_templates WHERE account_id = $1 AND number_id = $2 AND name = $3 AND language = $4`,
      [accountId, number.id, data.template.name, data.template.language],
      t,
    );
    if (!tpl) throw fieldError("template.name", "validation.option");
    if (tpl.status !== "approved") throw fieldError("template.name", "validation.waTemplateNotApproved");
    const part = (type: string) => tpl.components.find((c) => c.type === type);
    const body = part("BODY")?.text ?? "";
    const header = part("HEADER");
    const urlButton = part("BUTTONS")?.buttons?.findIndex((b) => b.type === "URL" && variablesOf(b.url ?? "").length > 0) ?? -1;
    const headerVar = header?.format === "TEXT" && variablesOf(header.text ?? "").length > 0;
    if (variablesOf(body).length !== data.template.variables.length || (headerVar && !data.template.header_variable) || (urlButton >= 0 && !data.template.button_variable)) {
      throw fieldError("template.variables", "validation.waFillParameters");
    }
    const mediaHeader = mediaHeaderComponent(header, data.template.header_media?.link);
    if (mediaHeader === undefined) throw fieldError("template.header_media.link", "validation.waFillParameters");

    // Links shortened per recipient (ADR 060): the addresses written in the variables' values (not a
    // URL button's suffix) are marked, each row draws its codes and gets its short URLs in their place.
    const values = [...data.template.variables, ...(headerVar ? [data.template.header_variable!] : [])];
    const urls = data.shorten_links ? [...new Set(values.flatMap((v) => linksIn(v)))] : [];
    const links = urls.length
      ? {
          short: await shortenCampaignLinks({ accountId, userId: ctx.actor.userId }, data.name?.trim() || `WhatsApp · ${tpl.name}`, urls, transaction, "template.variables"),
          marked: (v: string) => markLinks(v, urls),
        }
      : null;

    // 2. The recipients with their variables, body and Graph's object, built by SQL.
    const bind: unknown[] = [accountId];
    if (links) bind.push(links.short.prefix);
    const prefixParam = `$${bind.length}`;
    const withLinks = (v: string) => {
      const sql = valueSql(links ? links.marked(v) : v, bind);
      return links ? unmarkSql(sql, urls.length, "r.codes", prefixParam) : sql;
    };
    const vars = data.template.variables.map(withLinks);
    const headerSql = headerVar ? withLinks(data.template.header_variable!) : null;
    const buttonSql = urlButton >= 0 ? valueSql(data.template.button_variable!, bind) : null;
    let source: string;
    let label: string;
    let campaignSource: Record<string, unknown>;
    if (data.group_id) {
      const group = await row<{ id: string; name: string }>(`SELECT id, name FROM contact_groups WHERE id = $1 AND account_id = $2`, [data.group_id, accountId], t);
      if (!group) throw fieldError("group_id", "validation.option");
      bind.push(group.id);
      source = `SELECT row_number() OVER () AS n, c.mobile_number AS recipient FROM contact_group_members gm
                 JOIN contacts c ON c.id = gm.contact_id AND c.account_id = gm.account_id
                WHERE gm.group_id = $${bind.length} AND gm.account_id = $1 AND c.mobile_number IS NOT NULL`;
      label = group.name;
      campaignSource = { kind: "group", group_id: group.id, group_name: group.name };
    } else {
      bind.push(data.to);
      source = `SELECT min(n) AS n, recipient FROM unnest($${bind.length}::text[]) WITH ORDINALITY AS u(recipient, n) GROUP BY recipient`;
      label = "WhatsApp";
      campaignSource = { kind: "list", count: data.to!.length };
    }
    // Body text: the template's texts around its {{n}} variables.
    const texts = body.split(/\{\{\s*\d+\s*\}\}/);
    const order = variablesOf(body);
    bind.push(texts);
    const textsParam = `($${bind.length}::text[])`;
    const bodySql = [`${textsParam}[1]`, ...order.flatMap((n, i) => [`COALESCE(x.v[${n}], '')`, `${textsParam}[${i + 2}]`])].join(" || ");
    if (mediaHeader) bind.push(JSON.stringify(mediaHeader));
    const mediaHeaderParam = mediaHeader ? `$${bind.length}::jsonb` : null;
    const components = [
      mediaHeaderParam,
      headerSql ? `jsonb_build_object('type','header','parameters', jsonb_build_array(jsonb_build_object('type','text','text', x.h)))` : null,
      vars.length
        ? `jsonb_build_object('type','body','parameters', (SELECT jsonb_agg(jsonb_build_object('type','text','text', p) ORDER BY i) FROM unnest(x.v) WITH ORDINALITY AS a(p, i)))`
        : null,
      buttonSql
        ? `jsonb_build_object('type','button','sub_type','url','index','${urlButton}','parameters', jsonb_build_array(jsonb_build_object('type','text','text', x.b)))`
        : null,
    ].filter(Boolean);
    bind.push(tpl.name, tpl.language);
    const templateObject = `jsonb_build_object('type','template','template', jsonb_build_object('name', $${bind.length - 1}::text, 'language', jsonb_build_object('code', $${bind.length}::text)${
      components.length ? `, 'components', jsonb_build_array(${components.join(", ")})` : ""
    }))`;
    await exec(
      `CREATE TEMP TABLE wa_accept_rows (n bigint, recipient text, body text, content jsonb, missing text, why text, segments int NOT NULL DEFAULT 1, product uuid, codes text[]) ON COMMIT DROP`,
      [],
      t,
    );
    const missingSql = [
      ...vars.map((_, i) => `WHEN x.v[${i + 1}] IS NULL THEN '${i + 1}'`),
      ...(headerSql ? ["WHEN x.h IS NULL THEN 'header'"] : []),
      ...(buttonSql ? ["WHEN x.b IS NULL THEN 'button'"] : []),
    ];
    await exec(
      `INSERT INTO wa_accept_rows (n, recipient, body, content, missing, codes)
       SELECT x.n, x.recipient, ${bodySql}, ${templateObject}, ${missingSql.length ? `CASE ${missingSql.join(" ")} END` : "NULL"}, x.codes
         FROM (SELECT r.n, r.recipient, ARRAY[${vars.join(", ") || "NULL"}]::text[] AS v, ${headerSql ?? "NULL::text"} AS h, ${buttonSql ?? "NULL::text"} AS b, r.codes
                 FROM (SELECT s.*, ${links ? CODES_SQL(urls.length) : "NULL::text[]"} AS codes FROM (${source}) s OFFSET 0) r
                 LEFT JOIN contacts c ON c.account_id = $1 AND c.mobile_number = r.recipient) x`,
      bind,
      t,
    );
    const [gap] = await q<{ missing: string; count: number }>(
      `SELECT missing, count(*)::int AS count FROM wa_accept_rows WHERE missing IS NOT NULL GROUP BY missing ORDER BY count(*) DESC, missing LIMIT 1`,
      [],
    );
    if (gap) {
      const field = gap.missing === "header" ? "template.header_variable" : gap.missing === "button" ? "template.button_variable" : `template.variables.${Number(gap.missing) - 1}`;
      throw fieldError(field, `sms.errors.variableMissing::${gap.missing}`, { variable: gap.missing, count: gap.count });
    }
    await exec(`ANALYZE wa_accept_rows`, [], t);
    // Opted out (the contact's own choice) wins over the deny list when a number is on both.
    await exec(`UPDATE wa_accept_rows r SET why = 'deny_list' FROM deny_list d WHERE d.account_id = $1 AND d.recipient = r.recipient`, [accountId], t);
    await exec(`UPDATE wa_accept_rows r SET why = 'optout' FROM optouts o WHERE o.account_id = $1 AND o.channel = 'whatsapp' AND o.recipient = r.recipient`, [accountId], t);
    const [counts] = await q<{ messages: number; sendable: number; optout: number; rejected: number }>(
      `SELECT count(*)::int AS messages, count(*) FILTER (WHERE why IS NULL)::int AS sendable,
              count(*) FILTER (WHERE why = 'optout')::int AS optout, count(*) FILTER (WHERE why = 'deny_list')::int AS rejected FROM wa_accept_rows`,
      [],
    );
    if (counts.messages === 0) throw fieldError("group_id", "sms.errors.noRecipients");

    // 3. The price of the template's category, in the account's currency.
    const facts = await row<{ currency: string; prices: PriceRow[] }>(
      `SELECT a.currency, (SELECT coalesce(json_agg(p), '[]'::json) FROM (${priceRowsSql("whatsapp", "$1", "NULL")}) p) AS prices FROM accounts a WHERE a.id = $1`,
      [accountId],
      t,
    );
    const currency = (facts?.currency ?? "BRL").trim();
    const [price] = pickPrices({ ...CHANNEL_PRICING.whatsapp, routes: [tpl.category] }, currency, facts?.prices ?? []);
    if (!price) throw fieldError("template.name", "validation.option");
    // The account's WhatsApp product covers what its credits allow, in order (ADR 048); the balance pays the rest.
    const covered = price.pricePerSegment > 0 ? await claimUnitsSql(accountId, "whatsapp", "wa_accept_rows", transaction) : 0;
    const total = (counts.sendable - covered) * price.pricePerSegment;

    // 4. The campaign and its messages; the debit last.
    const status = sendAt ? "scheduled" : counts.sendable === 0 ? "completed" : "running";
    const campaign = await row<{ id: string }>(
      `INSERT INTO campaigns (account_id, channel, name, status, sender, body, source, total, created_by, scheduled_at, started_at, completed_at)
       VALUES ($1, 'whatsapp', $2, $3, $4, $5, $6::jsonb, $7, $8, $9, CASE WHEN $3 = 'scheduled' THEN NULL ELSE now() END, CASE WHEN $3 = 'completed' THEN now() END)
       RETURNING id`,
      [
        accountId,
        (data.name || `${label} · ${tpl.name}`).slice(0, 120),
        status,
        number.phone_number_id,
        body,
        JSON.stringify({ ...campaignSource, template: { name: tpl.name, language: tpl.language, category: tpl.category } }),
        counts.messages,
        ctx.actor.userId,
        sendAt,
      ],
      t,
    );
    await exec(
      `WITH m AS (
         INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, provider, price, currency, type, content, error_code, error_message,
                               scheduled_at, queued_at, campaign_id, product_id)
         SELECT $1, 'whatsapp', 'outbound', $2, r.recipient, r.body, 1,
                CASE r.why WHEN 'optout' THEN 'optout' WHEN 'deny_list' THEN 'rejected' ELSE CASE WHEN $6::timestamptz IS NULL THEN 'queued' ELSE 'scheduled' END END,
                $3, CASE WHEN r.why IS NULL AND r.product IS NULL THEN $4::bigint ELSE 0 END, $5, 'template', r.content, r.why,
                CASE r.why WHEN 'optout' THEN 'errors.RECIPIENT_OPTED_OUT' WHEN 'deny_list' THEN 'errors.RECIPIENT_DENIED' END,
                $6::timestamptz, CASE WHEN r.why IS NULL AND $6::timestamptz IS NULL THEN now() END, $7, r.product
           FROM wa_accept_rows r ORDER BY r.n
         RETURNING id, status
       )
       INSERT INTO outbox (topic, payload) SELECT $8, jsonb_build_object('message_id', m.id::text) FROM m WHERE m.status = 'queued'`,
      [accountId, number.phone_number_id, whatsappProvider(number.integration), price.pricePerSegment, currency, sendAt, campaign!.id, dispatchStream("whatsapp")],
      t,
    );
    if (links) await insertCodes(links.short, accountId, campaign!.id, tableCodesSql("wa_accept_rows"), [links.short.linkIds], counts.messages * urls.length, transaction);
    const answer: WhatsappCampaignAnswer = {
      data: { campaign_id: campaign!.id, status, category: tpl.category, total_price: total, currency, scheduled_at: sendAt?.toISOString() ?? null, summary: counts },
    };
    if (idempotencyKey !== null) {
      await exec(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, $4::jsonb)`,
        [accountId, idempotencyKey, hash, JSON.stringify(answer)],
        t,
      );
    }
    await recordAudit({ ...ctx, transaction }, "whatsapp.campaign_accepted", {
      meta: { campaign_id: campaign!.id, template: tpl.name, category: tpl.category, ...counts, total_price: total, currency, source: campaignSource.kind },
    });
    if (total > 0 && !(await debitBalance(accountId, total, transaction, { kind: "message", reason: "WhatsApp bulk send", by: ctx.actor.userId })))
      throw new AppError("INSUFFICIENT_BALANCE");
    return answer;
  });
}
