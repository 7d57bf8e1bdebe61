/**
 * An RCS send to many (issue 21): one content (or a template's) from one launched agent to every
 * contact of a group or every row of a CSV file, now or scheduled, as a campaign (channel rcs;
 * POST /api/rcs/campaigns, the /rcs/campaigns/new screen). The rules of one send are the single
 * accept's (./send.ts planRcs: the agent, the content's checks, the price class and its price in
 * the account's currency, the fallback decided at accept); the content is the same for everyone,
 * so the class and the price are the same for every message. Set-based inside PostgreSQL and in
 * ONE transaction, like the WhatsApp campaign (api/whatsapp/bulk.ts):
 *   1. the recipients — a group's contacts with a mobile, or a file staged by the shared CSV reader
 *      of the SMS file send (api/sms/recipients-file.ts: delimiter, encoding, phone column, rows
 *      without a valid number kept with their line for the campaign's report) — are gathered into
 *      a temporary table, one row per handset;
 *   2. opt-outs (channel rcs) and the deny list mark theirs `optout` / `rejected` at price 0;
 *   3. the account's RCS product covers what its credits allow (ADR 048); the balance pays the rest;
 *   4. the campaign, its messages written in batches of BATCH rows — `queued` with one outbox row
 *      each (topic messages:rcs), or `scheduled` (api/sms/release.ts queues them when due) — the
 *      invalid rows of a file, the key's answer and the audit entry; the ONE debit last (402
 *      INSUFFICIENT_BALANCE and nothing written).
 * It is then controlled like every campaign (api/campaigns/control.ts: pause, resume, cancel with
 * refunds, delete, live counts by status).
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
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { claimUnitsSql } from "../products/products";
import type { StagedFile } from "../sms/accept";
import { storedAnswer } from "../sms/idempotency";
import { dropStagedFile, PHONE_COLUMN, stageFile } from "../sms/recipients-file";
import { MultipartReader } from "../imports/multipart";
import type { RcsPriceRoute } from "../sms/pricing";
import { MAX_SCHEDULE_DAYS } from "../sms/schemas";
import { rcsContentSchema } from "./content";
import { messageSettingsOf } from "../message-settings/settings";
import { campaignSchedule } from "../message-settings/apply";
import { RCS_PROVIDER, flag, planRcs } from "./send";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Messages per INSERT statement (each with its outbox row). */
export const BATCH = 20_000;

export const rcsCampaignSchema = z
  .object({
    /** Absent or blank: the account's default agent (/settings/resources, ADR 071). */
    agent_id: z.string().trim().regex(UUID, "validation.option").optional().or(z.literal("")),
    name: z.string().trim().max(120, "validation.maxLength::120").optional(),
    content: rcsContentSchema.optional(),
    template_id: z.string().trim().regex(UUID, "validation.option").optional(),
    group_id: z.string().trim().regex(UUID, "validation.option").optional(),
    fallback_sms: flag,
    scheduled_at: z.coerce.date("validation.date").optional(),
  })
  .superRefine((m, ctx) => {
    if (!m.content && !m.template_id) ctx.addIssue({ code: "custom", path: ["content", "type"], message: "validation.required" });
  });
export type RcsCampaignInput = z.input<typeof rcsCampaignSchema>;

export type RcsCampaignAnswer = {
  data: {
    campaign_id: string;
    status: "running" | "scheduled" | "completed";
    price_class: RcsPriceRoute;
    /** The price of one message sent to (the same for all: the content is the same). */
    price: number;
    total_price: number;
    currency: string;
    fallback_sms: boolean;
    scheduled_at: string | null;
    summary: { messages: number; sendable: number; optout: number; rejected: number; invalid: number };
  };
};

const fieldError = (field: string, key: string, params?: Record<string, string | number>) => new AppError("VALIDATION", { fields: { [field]: [key] }, params });

/**
 * Accept a campaign: `input` as rcsCampaignSchema with `group_id`, or `file` (a CSV already staged
 * by stageRcsFile / the multipart reader; the caller drops it whatever happens — accepted, the
 * transaction removed its rows).
 */
export async function acceptRcsCampaign(ctx: SignedInCtx, input: unknown, idempotencyKey: string | null = null, file: StagedFile | null = null): Promise<RcsCampaignAnswer> {
  if (!can(ctx.actor, "/rcs/send")) throw new AppError("FORBIDDEN");
  const data = validate(rcsCampaignSchema, input);
  if (!data.group_id === !file) throw fieldError("group_id", file ? "sms.errors.oneSource" : "sms.errors.recipientRequired");
  const scheduledAt = data.scheduled_at ?? null;
  if (scheduledAt && scheduledAt.getTime() <= Date.now()) throw fieldError("scheduled_at", "sms.errors.schedulePast");
  if (scheduledAt && scheduledAt.getTime() > Date.now() + MAX_SCHEDULE_DAYS * 86_400_000) throw fieldError("scheduled_at", `sms.errors.scheduleTooFar::${MAX_SCHEDULE_DAYS}`);
  const accountId = ctx.actor.accountId;
  const hash = createHash("sha256")
    .update(JSON.stringify({ ...data, scheduled_at: scheduledAt?.toISOString() ?? null, file: file?.hash ?? null }))
    .digest("hex");
  // The marketing window (ADR 071): outside it, the campaign waits for its next opening.
  const sendAt = campaignSchedule(await messageSettingsOf(accountId), scheduledAt);

  return sequelize().transaction(async (transaction) => {
    const t = { transaction };
    const write = (sql: string, bind: unknown[] = []) => exec(sql, bind, t);
    if (idempotencyKey !== null) {
      const stored = await storedAnswer<RcsCampaignAnswer>(accountId, idempotencyKey, hash, transaction);
      if (stored) return stored;
    }
    // The single send's rules: the agent (the account's, launched), the content or the template's, class and price.
    const p = await planRcs(accountId, data, transaction);
    const agent = await row<{ name: string }>(`SELECT name FROM rcs_agents WHERE account_id = $1 AND id = $2`, [accountId, p.agent.id], t);

    // 1. The recipients, one row per handset, n dense from 1 (the batches below cut on it).
    await write(`CREATE TEMP TABLE rcs_accept_rows (n bigint, recipient text, why text, segments int NOT NULL DEFAULT 1, product uuid) ON COMMIT DROP`);
    let label: string;
    let source: Record<string, unknown>;
    if (data.group_id) {
      const group = await row<{ id: string; name: string }>(`SELECT id, name FROM contact_groups WHERE id = $1 AND account_id = $2`, [data.group_id, accountId], t);
      if (!group) throw fieldError("group_id", "validation.option");
      label = group.name;
      source = { kind: "group", group_id: group.id, group_name: group.name };
      await write(
        `INSERT INTO rcs_accept_rows (n, recipient)
         SELECT row_number() OVER (ORDER BY c.mobile_number), c.mobile_number
           FROM contact_group_members gm JOIN contacts c ON c.id = gm.contact_id AND c.account_id = gm.account_id
          WHERE gm.group_id = $1 AND gm.account_id = $2 AND c.mobile_number IS NOT NULL
          GROUP BY c.mobile_number`,
        [group.id, accountId],
      );
    } else {
      const f = file!;
      label = f.name;
      source = { kind: "file", file_name: f.name, rows: f.rows, invalid: f.invalid, columns: f.columns };
      await write(
        `INSERT INTO rcs_accept_rows (n, recipient)
         SELECT row_number() OVER (ORDER BY s.n), s.recipient
           FROM (SELECT DISTINCT ON (recipient) n, recipient FROM sms_send_rows WHERE batch_id = $1 AND reason IS NULL ORDER BY recipient, n) s`,
        [f.batchId],
      );
    }
    await write(`ANALYZE rcs_accept_rows`);
    // 2. Opted out (the handset's own choice) wins over the deny list when a number is on both.
    await write(`UPDATE rcs_accept_rows r SET why = 'deny_list' FROM deny_list d WHERE d.account_id = $1 AND d.recipient = r.recipient`, [accountId]);
    await write(`UPDATE rcs_accept_rows r SET why = 'optout' FROM optouts o WHERE o.account_id = $1 AND o.channel = 'rcs' AND o.recipient = r.recipient`, [accountId]);
    const [counts] = await rows<{ messages: number; sendable: number; optout: number; rejected: number }>(
      `SELECT count(*)::int AS messages, count(*) FILTER (WHERE why IS NULL)::int AS sendable,
              count(*) FILTER (WHERE why = 'optout')::int AS optout, count(*) FILTER (WHERE why = 'deny_list')::int AS rejected FROM rcs_accept_rows`,
      [],
      t,
    );
    if (counts.messages === 0) throw fieldError(data.group_id ? "group_id" : "file", "sms.errors.noRecipients");

    // 3. The product's credits first (ADR 048), the balance the rest: one price for every message.
    const covered = p.hasProduct && p.price > 0 ? await claimUnitsSql(accountId, "rcs", "rcs_accept_rows", transaction) : 0;
    const total = (counts.sendable - covered) * p.price;

    // 4. The campaign and its messages; the debit last.
    const status = sendAt ? "scheduled" : counts.sendable === 0 ? "completed" : "running";
    const campaign = await row<{ id: string }>(
      `INSERT INTO campaigns (account_id, channel, name, status, sender, body, route, source, total, created_by, scheduled_at, started_at, completed_at)
       VALUES ($1, 'rcs', $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, CASE WHEN $3 = 'scheduled' THEN NULL ELSE now() END, CASE WHEN $3 = 'completed' THEN now() END)
       RETURNING id`,
      [
        accountId,
        (data.name || `${label} · ${agent?.name ?? "RCS"}`).slice(0, 120),
        status,
        p.agent.rbm_agent_id,
        p.text,
        p.priceClass,
        JSON.stringify({
          ...source,
          agent_id: p.agent.id,
          agent_name: agent?.name ?? null,
          type: p.content.type,
          template_id: data.template_id ?? null,
          fallback_sms: p.content.fallbackSms,
        }),
        counts.messages,
        ctx.actor.userId,
        sendAt,
      ],
      t,
    );
    const content = JSON.stringify(p.content);
    for (let from = 0; from < counts.messages; from += BATCH) {
      await write(
        `WITH m AS (
           INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, provider, route, price, currency, type, content, error_code, error_message,
                                 scheduled_at, queued_at, campaign_id, product_id)
           SELECT $1, 'rcs', 'outbound', $2, r.recipient, $3, 1,
                  CASE r.why WHEN 'optout' THEN 'optout' WHEN 'deny_list' THEN 'rejected' ELSE CASE WHEN $9::timestamptz IS NULL THEN 'queued' ELSE 'scheduled' END END,
                  $4, $5, CASE WHEN r.why IS NULL AND r.product IS NULL THEN $6::bigint ELSE 0 END, $7, $8, $13::jsonb, r.why,
                  CASE r.why WHEN 'optout' THEN 'errors.RECIPIENT_OPTED_OUT' WHEN 'deny_list' THEN 'errors.RECIPIENT_DENIED' END,
                  $9::timestamptz, CASE WHEN r.why IS NULL AND $9::timestamptz IS NULL THEN now() END, $10, r.product
             FROM rcs_accept_rows r WHERE r.n > $11 AND r.n <= $12 ORDER BY r.n
           RETURNING id, status
         )
         INSERT INTO outbox (topic, payload) SELECT $14, jsonb_build_object('message_id', m.id::text) FROM m WHERE m.status = 'queued'`,
        [
          accountId,
          p.agent.rbm_agent_id,
          p.text,
          RCS_PROVIDER,
          p.priceClass,
          p.price,
          p.currency,
          p.content.type,
          sendAt,
          campaign!.id,
          from,
          from + BATCH,
          content,
          dispatchStream("rcs"),
        ],
      );
    }
    const invalid = file?.invalid ?? 0;
    if (file) {
      // The file's rows without a valid number stay with the campaign, for its report (line, cell, reason).
      if (invalid > 0) {
        await write(
          `INSERT INTO campaign_invalid_rows (campaign_id, account_id, line, value, reason)
           SELECT $2, $3, n, recipient, reason FROM sms_send_rows WHERE batch_id = $1 AND reason IS NOT NULL ON CONFLICT DO NOTHING`,
          [file.batchId, campaign!.id, accountId],
        );
      }
      await write(`DELETE FROM sms_send_rows WHERE batch_id = $1`, [file.batchId]);
    }
    const answer: RcsCampaignAnswer = {
      data: {
        campaign_id: campaign!.id,
        status,
        price_class: p.priceClass,
        price: p.price,
        total_price: total,
        currency: p.currency,
        fallback_sms: p.content.fallbackSms,
        scheduled_at: sendAt?.toISOString() ?? null,
        summary: { ...counts, invalid },
      },
    };
    if (idempotencyKey !== null) {
      await write(`INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, $4::jsonb)`, [
        accountId,
        idempotencyKey,
        hash,
        JSON.stringify(answer),
      ]);
    }
    await recordAudit({ ...ctx, transaction }, "rcs.campaign_accepted", {
      meta: { campaign_id: campaign!.id, type: p.content.type, price_class: p.priceClass, ...counts, invalid, total_price: total, currency: p.currency, source: source.kind },
    });
    if (
      total > 0 &&
      !(await debitBalance(accountId, total, transaction, { kind: "message", reference: `campaign:${campaign!.id}`, reason: "RCS bulk send", by: ctx.actor.userId }))
    )
      throw new AppError("INSUFFICIENT_BALANCE");
    return answer;
  });
}

async function* one<T>(item: T) {
  yield item;
}

/** A CSV file of handsets staged by the SMS file send's reader (the same rules: delimiter, encoding, phone column, invalid rows with their line). */
export function stageRcsFile(ctx: SignedInCtx, files: AsyncIterable<{ name: string; stream: ReadableStream<Uint8Array> }>): Promise<StagedFile> {
  return stageFile(ctx, files, "/rcs/send", PHONE_COLUMN);
}

const TEXT_FIELDS = new Set(["agent_id", "name", "template_id", "group_id", "fallback_sms", "scheduled_at"]);

/**
 * POST /api/rcs/campaigns as multipart/form-data: a `file` part (CSV of handsets) and the JSON
 * body's fields as plain parts, `content` as JSON text. Fields may come before or after the file.
 */
export async function acceptRcsCampaignMultipart(ctx: SignedInCtx, body: ReadableStream<Uint8Array>, boundary: string, idempotencyKey: string | null): Promise<RcsCampaignAnswer> {
  const reader = new MultipartReader(body, boundary);
  const input: Record<string, unknown> = {};
  let staged: StagedFile | null = null;
  try {
    for await (const part of reader.parts()) {
      if (part.kind === "file") {
        if (part.field !== "file" || staged) continue;
        staged = await stageRcsFile(ctx, one({ name: part.name, stream: part.stream }));
        continue;
      }
      if (part.field === "content") {
        try {
          input.content = JSON.parse(part.value);
        } catch {
          throw fieldError("content", "validation.invalid");
        }
      } else if (TEXT_FIELDS.has(part.field) && part.value !== "") input[part.field] = part.value;
    }
    if (!staged) throw fieldError("file", "validation.required");
    return await acceptRcsCampaign(ctx, input, idempotencyKey, staged);
  } catch (e) {
    await reader.drain().catch(() => undefined);
    throw e;
  } finally {
    // Accepted: the transaction removed the rows (this deletes nothing); refused or answered from the key: they go now.
    await dropStagedFile(staged).catch(() => undefined);
  }
}
