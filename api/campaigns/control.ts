/**
 * Campaigns of the acting account, per channel (API /api/sms/campaigns and /api/whatsapp/campaigns,
 * the /sms/campaigns and /whatsapp/campaigns screens): list with per-status counts, one campaign,
 * pause / resume / cancel, delete. The channel is the caller's (CAMPAIGN_AREAS): a campaign of
 * another channel is not found.
 *
 * - Reading needs the channel's campaigns route of the policy; changing a campaign needs its send
 *   route too (who may send may stop or restart a send).
 * - Pause: the dispatcher stops claiming the campaign's messages (they stay `queued`, their
 *   entries are acked). Resume: status running and, in the same transaction, one outbox row per
 *   queued message of the campaign, so the relay publishes them again.
 * - Cancel: in ONE transaction the campaign becomes canceled, its unsent messages (scheduled,
 *   pending, queued) become `failed` with error_code `canceled`, each gets a `failed` and a
 *   `refund` event, and the sum of their prices returns to the balance. Messages being submitted
 *   at that moment (`sending`) finish normally: the row lock makes each message either canceled
 *   or submitted, never both.
 * - Delete: only a finished campaign (completed, canceled, failed); its messages keep their
 *   history (messages.campaign_id becomes null by the foreign key).
 * The same PUT twice answers the same campaign (idempotent); an impossible change is 409
 * CAMPAIGN_STATE.
 */
import { campaignClicks, emailCampaignClicks } from "../shortener/campaign-links";
import { returnUnits } from "../products/products";
import { creditBalance } from "../accounts/balance";
import { type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import { dispatchStream } from "../channels/registry";
import { CANCELED_REASON } from "../dispatch/dispatcher";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { keyset, MAX_LIMIT, pageInput } from "../lib/page";
import { intParam, validate } from "../lib/validate";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { can } from "../policy/policy";
import { CAMPAIGNS_PER_PAGE, controlCampaignSchema, listCampaignsSchema, type CampaignStatus } from "./schemas";
import { exec, rows } from "../lib/sql";
import { retryOnConflict } from "../lib/retry-conflict";

/** Message statuses of a campaign that are not finished yet (the campaign is still running). */
export const UNFINISHED = ["scheduled", "pending", "queued", "sending"];
const FINISHED_CAMPAIGN: CampaignStatus[] = ["completed", "canceled", "failed"];
/** From which campaign statuses each control is possible (the same status again is a no-op). */
const ALLOWED_FROM: Record<"paused" | "running" | "canceled", CampaignStatus[]> = {
  paused: ["scheduled", "preparing", "running"],
  running: ["paused"],
  canceled: ["scheduled", "preparing", "running", "paused"],
};

type CampaignRow = {
  id: string;
  account_id: string;
  channel: string;
  name: string;
  status: CampaignStatus;
  sender: string;
  body: string;
  route: string | null;
  total: number;
  created_by: string | null;
  /** Where the recipients came from: {kind: "file", file_name, rows, invalid, columns} for a CSV file. */
  source: Record<string, unknown> | null;
  scheduled_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  canceled_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type CampaignView = {
  id: string;
  channel: string;
  name: string;
  status: CampaignStatus;
  /** The sender of its messages (the spec's name). */
  from: string;
  /** @deprecated alias of from */
  sender: string;
  body: string;
  route: string | null;
  total: number;
  /** Messages per status (only statuses that occur). */
  counts: Record<string, number>;
  /** Messages past sending (sent, delivered, failed…): the progress numerator. */
  done: number;
  /** 0..100, done / max(total, messages). */
  progress: number;
  scheduled_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  canceled_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const db = () => sequelize();

function view(c: CampaignRow, counts: Record<string, number>): CampaignView {
  const messages = Object.values(counts).reduce((s, n) => s + n, 0);
  const unfinished = UNFINISHED.reduce((s, st) => s + (counts[st] ?? 0), 0);
  const done = messages - unfinished;
  const denominator = Math.max(c.total, messages);
  return {
    id: c.id,
    channel: c.channel,
    name: c.name,
    status: c.status,
    from: c.sender,
    sender: c.sender,
    body: c.body,
    route: c.route,
    total: c.total,
    counts,
    done,
    progress: denominator === 0 ? 0 : Math.floor((done * 100) / denominator),
    scheduled_at: c.scheduled_at,
    started_at: c.started_at,
    completed_at: c.completed_at,
    canceled_at: c.canceled_at,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

async function countsOf(ids: string[], transaction?: Transaction): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>(ids.map((id) => [id, {}]));
  if (ids.length === 0) return out;
  const found = await rows<{ campaign_id: string; status: string; n: string }>(
    `SELECT campaign_id, status, count(*) AS n FROM messages WHERE campaign_id = ANY($1::uuid[]) GROUP BY campaign_id, status`,
    [ids],
    { transaction },
  );
  for (const r of found) out.get(r.campaign_id)![r.status] = Number(r.n);
  return out;
}

/** The channels with campaigns, and the screens (policy routes) that read and change theirs. */
export const CAMPAIGN_AREAS = {
  sms: { read: "/sms/campaigns", write: "/sms/send" },
  whatsapp: { read: "/whatsapp/campaigns", write: "/whatsapp/send" },
  email: { read: "/mail/campaigns", write: "/mail/send" },
  rcs: { read: "/rcs/campaigns", write: "/rcs/send" },
} as const;
/** The screens' path prefix of each channel's campaigns (/sms/campaigns, /whatsapp/campaigns, /mail/campaigns). */
export const CAMPAIGN_BASE: Record<CampaignChannel, string> = { sms: "/sms", whatsapp: "/whatsapp", email: "/mail", rcs: "/rcs" };
export type CampaignChannel = keyof typeof CAMPAIGN_AREAS;

function canRead(ctx: SignedInCtx, channel: CampaignChannel) {
  if (!can(ctx.actor, CAMPAIGN_AREAS[channel].read)) throw new AppError("FORBIDDEN");
}
function canControl(ctx: SignedInCtx, channel: CampaignChannel) {
  canRead(ctx, channel);
  if (!can(ctx.actor, CAMPAIGN_AREAS[channel].write)) throw new AppError("FORBIDDEN");
}

/** The list's input: the screen's page and status, and the API's keyset `cursor` and `limit` (default 20). */
const campaignPageSchema = listCampaignsSchema.extend({ cursor: pageInput.cursor, limit: intParam(1, MAX_LIMIT, CAMPAIGNS_PER_PAGE) });

/**
 * The account's SMS campaigns, newest first (created_at, id), `limit` a page (default 20), each
 * with its per-status counts. `cursor` (the previous answer's next_cursor) pages by keyset; `page`
 * (OFFSET, the screen's numbered pages) stays, with per_page, total and last_page.
 */
/** The channels whose campaigns the person may read (their campaigns routes of the policy). */
export function readableChannels(ctx: SignedInCtx): CampaignChannel[] {
  return (Object.keys(CAMPAIGN_AREAS) as CampaignChannel[]).filter((ch) => can(ctx.actor, CAMPAIGN_AREAS[ch].read));
}

/**
 * `channel` "all" (/campaigns): the campaigns of every channel the person may read, newest first,
 * `channel` in the input choosing one of them (another is a 422 on `channel`).
 */
export async function listCampaigns(ctx: SignedInCtx, input: unknown, channel: CampaignChannel | "all" = "sms") {
  if (channel !== "all") canRead(ctx, channel);
  const readable = channel === "all" ? readableChannels(ctx) : [channel];
  const q = validate(campaignPageSchema, input ?? {});
  if (q.channel && !readable.includes(q.channel)) throw new AppError("VALIDATION", { fields: { channel: ["validation.option"] } });
  const channels = q.channel ? [q.channel] : readable;
  const after = timeIdCursor(q.cursor);
  const accountId = ctx.actor.accountId;
  const filter = q.status ? `AND status = $3` : "";
  const bind: unknown[] = [accountId, channels, ...(q.status ? [q.status] : [])];
  const [{ n }] = await rows<{ n: string }>(`SELECT count(*) AS n FROM campaigns WHERE account_id = $1 AND channel = ANY($2::text[]) ${filter}`, bind);
  const pageBind = [...bind, ...(after ?? [])];
  const found = await rows<CampaignRow & { position: string }>(
    `SELECT *, ${POSITION_SQL("created_at")} AS position FROM campaigns WHERE account_id = $1 AND channel = ANY($2::text[]) ${filter}
       ${after ? `AND (created_at, id) < ($${bind.length + 1}::timestamptz, $${bind.length + 2}::uuid)` : ""}
     ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1} OFFSET ${after ? 0 : (q.page - 1) * q.limit}`,
    pageBind,
  );
  const counts = await countsOf(found.slice(0, q.limit).map((r) => r.id));
  const total = Number(n);
  return {
    ...keyset(
      found,
      q.limit,
      (r) => [r.position, r.id],
      (r) => view(r, counts.get(r.id)!),
    ),
    page: q.page,
    per_page: q.limit,
    total,
    last_page: Math.max(1, Math.ceil(total / q.limit)),
  };
}

async function findCampaign(ctx: SignedInCtx, id: string, channel: CampaignChannel, opts: { transaction?: Transaction; lock?: boolean } = {}) {
  assertId(id);
  const [row] = await rows<CampaignRow>(
    `SELECT * FROM campaigns WHERE id = $1 AND account_id = $2 AND channel = $3 ${opts.lock ? "FOR NO KEY UPDATE" : ""}`,
    [id, ctx.actor.accountId, channel],
    { transaction: opts.transaction },
  );
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}

/** One campaign with its counts, and what it cost (its messages' prices, minor units of the account's currency). */
export async function getCampaign(ctx: SignedInCtx, id: string, channel: CampaignChannel = "sms") {
  canRead(ctx, channel);
  const row = await findCampaign(ctx, id, channel);
  const [counts, [money]] = await Promise.all([
    countsOf([row.id]),
    rows<{ cost: string | null; currency: string }>(
      `SELECT (SELECT sum(price) FROM messages WHERE campaign_id = $1 AND account_id = $2) AS cost, currency FROM accounts WHERE id = $2`,
      [row.id, ctx.actor.accountId],
    ),
  ]);
  return {
    data: {
      ...view(row, counts.get(row.id)!),
      cost: Number(money?.cost ?? 0),
      currency: (money?.currency ?? "BRL").trim(),
      /** Rows of a CSV-file send that had no valid number (GET /sms/campaigns/{id}/invalid_rows lists them). */
      invalid_rows: Number(row.source?.invalid ?? 0),
    },
  };
}

/**
 * Who clicked the campaign's links shortened per recipient (ADR 060), or an e-mail campaign's
 * tracked links: null data when it shortened none (for e-mail: until a click is recorded). Read like the campaign (its channel's readers, the account's own only).
 */
export async function getCampaignClicks(ctx: SignedInCtx, id: string, channel: CampaignChannel = "sms") {
  canRead(ctx, channel);
  const row = await findCampaign(ctx, id, channel);
  // E-mail's links are tracked per message already (ADR 039): its clicks name their recipients.
  return { data: channel === "email" ? await emailCampaignClicks(ctx.actor.accountId, row.id) : await campaignClicks(ctx.actor.accountId, row.id) };
}

/** PUT {status: "paused" | "running" | "canceled"}. */
export async function controlCampaign(ctx: SignedInCtx, id: string, input: unknown, channel: CampaignChannel = "sms") {
  canControl(ctx, channel);
  const { status } = validate(controlCampaignSchema, input);
  // The dispatcher claims a batch of messages in one statement while a cancel fails the rest of the
  // campaign's: the cancel locks them in id order, and a lock cycle PostgreSQL still finds rolls the
  // cancel back whole, so it runs again (retryOnConflict) instead of answering an error.
  const result = await retryOnConflict(() =>
    db().transaction(async (transaction) => {
      const c = await findCampaign(ctx, id, channel, { transaction, lock: true });
      if (c.status === status) return { changed: false, refunded: 0, canceled: 0, republished: 0 };
      if (!ALLOWED_FROM[status].includes(c.status)) throw new AppError("CAMPAIGN_STATE", { params: { status: c.status } });
      let refunded = 0;
      let canceled = 0;
      let republished = 0;
      if (status === "paused") {
        await exec(`UPDATE campaigns SET status = 'paused', updated_at = now() WHERE id = $1`, [c.id], { transaction });
      } else if (status === "running") {
        await exec(`UPDATE campaigns SET status = 'running', started_at = COALESCE(started_at, now()), updated_at = now() WHERE id = $1`, [c.id], { transaction });
        // Entries of paused messages were acked: publish every queued message again (duplicates are harmless).
        const found = await rows<{ n: string }>(
          `WITH o AS (
           INSERT INTO outbox (topic, payload)
           SELECT $2, jsonb_build_object('message_id', id::text) FROM messages WHERE campaign_id = $1 AND status = 'queued'
           RETURNING 1
         ) SELECT count(*) AS n FROM o`,
          [c.id, dispatchStream(c.channel)],
          { transaction },
        );
        republished = Number(found[0]?.n ?? 0);
      } else {
        await exec(`UPDATE campaigns SET status = 'canceled', canceled_at = now(), updated_at = now() WHERE id = $1`, [c.id], { transaction });
        const [r] = await rows<{ n: string; refunded: string | null; units: Array<{ product_id: string; units: number }> | null }>(
          `WITH l AS MATERIALIZED (
           SELECT id, created_at FROM messages WHERE campaign_id = $1 AND account_id = $2 AND status IN ('scheduled','pending','queued') ORDER BY id FOR UPDATE
         ), f AS (
           UPDATE messages m SET status = 'failed', failed_at = now(), error_code = 'canceled', error_message = $3, updated_at = now()
           FROM l WHERE m.id = l.id AND m.created_at = l.created_at AND m.status IN ('scheduled','pending','queued')
           RETURNING m.id, m.created_at, m.price, m.currency, m.product_id, m.segments
         ), ev AS (
           INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
           SELECT id, created_at, $2, 'failed', 'system', jsonb_build_object('error_code', 'canceled', 'error_message', $3::text, 'campaign_id', $1::text) FROM f
           UNION ALL
           SELECT id, created_at, $2, 'refund', 'system', jsonb_build_object('price', price, 'currency', trim(currency), 'reason', 'canceled') FROM f WHERE price > 0
         )
         SELECT count(*) AS n, sum(price) AS refunded,
                (SELECT json_agg(x) FROM (SELECT product_id, sum(segments)::int AS units FROM f WHERE product_id IS NOT NULL GROUP BY product_id) x) AS units
           FROM f`,
          [c.id, ctx.actor.accountId, CANCELED_REASON],
          { transaction },
        );
        canceled = Number(r.n);
        refunded = Number(r.refunded ?? 0);
        // Messages a product covered give their units back to it (ADR 048): the product row before the balance row, the order an accept locks them in.
        for (const u of r.units ?? []) await returnUnits(ctx.actor.accountId, u.product_id, u.units, transaction);
        await creditBalance(ctx.actor.accountId, refunded, transaction, { kind: "refund", reference: `campaign:${c.id}`, reason: "campaign canceled", by: ctx.actor.userId });
      }
      await recordAudit({ ...ctx, transaction }, `campaign.${status === "running" ? "resumed" : status}`, {
        meta: { campaign_id: c.id, previous: c.status, canceled, refunded, republished },
      });
      return { changed: true, refunded, canceled, republished };
    }),
  );
  const out = await getCampaign(ctx, id, channel);
  return { ...out, meta: result };
}

/**
 * DELETE: only a finished campaign; its messages stay (campaign_id set null). Receipts still
 * arrive for a finished campaign's messages, and their batches lock message rows in id order
 * (api/messages/receipts.ts). The foreign key's SET NULL would lock them in its scan order and
 * could meet such a batch in a lock cycle (a canceled RCS campaign's delete was rolled back so in
 * CI), so the campaign's messages are locked in id order first; a cycle with a statement of
 * another kind still runs the delete again (retryOnConflict) instead of answering an error.
 */
export async function deleteCampaign(ctx: SignedInCtx, id: string, channel: CampaignChannel = "sms") {
  canControl(ctx, channel);
  await retryOnConflict(() =>
    db().transaction(async (transaction) => {
      const c = await findCampaign(ctx, id, channel, { transaction, lock: true });
      if (!FINISHED_CAMPAIGN.includes(c.status)) throw new AppError("CAMPAIGN_STATE", { params: { status: c.status } });
      await rows(`SELECT 1 FROM messages WHERE campaign_id = $1 AND account_id = $2 ORDER BY id FOR UPDATE`, [c.id, ctx.actor.accountId], { transaction });
      await exec(`DELETE FROM campaigns WHERE id = $1 AND account_id = $2`, [c.id, ctx.actor.accountId], { transaction });
      await recordAudit({ ...ctx, transaction }, "campaign.deleted", { meta: { campaign_id: c.id, status: c.status, total: c.total } });
    }),
  );
  return { ok: true };
}
