/**
 * The dispatcher (pipeline step 2): one consumer group per channel stream (`messages:<channel>`,
 * fed by the outbox relay and by the lost-entry sweep). Entries are read in batches and handled
 * DISPATCH_CONCURRENCY at a time. For each entry {message_id}:
 *  1. claim the message: a conditional UPDATE to `sending` from pending/queued/due-scheduled
 *     (… WHERE status IN … RETURNING), so of two consumers holding duplicate entries only one
 *     sends — and not while its campaign is paused or canceled (the entry is acked and the message
 *     stays `queued`; resuming publishes it again through the outbox);
 *  2. take a slot of the route's rate limit (./rate-limit, shared by all workers in Redis) and
 *     call the provider adapter with idempotencyKey = message id. A provider's throttling
 *     (ThrottledError) pauses the route for its Retry-After and the submit is repeated: the
 *     provider did not take it, so it is neither a failed attempt nor a duplicate;
 *  3. record `sent`, the provider and its message id (through the status machine).
 * A transient adapter error leaves the message `sending` and the entry pending: the runner
 * redelivers it (XAUTOCLAIM after DISPATCH_RETRY_IDLE_MS). A redelivered or recovered entry for
 * a `sending` message first asks the provider whether the earlier submit arrived (adapter.lookup)
 * and records that instead of submitting again. After DISPATCH_MAX_ATTEMPTS the runner
 * dead-letters the entry and the message becomes `failed` with the reason. A permanent refusal
 * (PermanentSendError) fails the message at once. Failing a message that never reached the
 * provider refunds its price in the same transaction (`refund` event).
 * Nothing of an account that is not active (suspended, deleted) is claimed: its due messages fail
 * `account_suspended` / `account_inactive` and are refunded instead, a batch at a time (./suspended.ts, ADR 069).
 */
import { liveMessageStatus } from "../live/pipeline";
import { returnUnits } from "../products/products";
import { creditBalance } from "../accounts/balance";
import { type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAppLog } from "../app-logs/record";
import { DeferredSendError, PermanentSendError, ThrottledError, type ChannelAdapter, type OutboundMessage } from "../channels/contract";
import { adapterForConnection, connectionFor } from "../channels/provider-connections";
import { adapterFor, channels, defaultProvider, dispatchStream } from "../channels/registry";
import { startConsumer, type Entry } from "../jobs/runner";
import { env, parseRouteRates, type RouteRate } from "../lib/env";
import { nextStatus, type FailureStatus, type MessageStatus } from "../messages/status";
import { bucketFor, pause, waitForSlot } from "./rate-limit";
import { recoverLostEntries } from "./recovery";
import { exec, rows } from "../lib/sql";
import { prepared, preparedGeneric, preparedRows } from "../lib/prepared";
import { GroupCommit } from "../lib/group-commit";
import { ACCOUNT_ACTIVE, failOfStoppedAccounts, stoppedFailure } from "./suspended";

export const DISPATCH_GROUP = "dispatchers";
/** error_message of a message failed by a campaign's cancel (a locale key, like accept's reasons). */
export const CANCELED_REASON = "errors.CAMPAIGN_CANCELED";
/** Statuses before the provider took the message: failing from these refunds the price. */
/** Not yet taken by the provider (`deferred`: an e-mail the receiving server refused for now, retried). */
export const UNSENT_STATUSES = ["pending", "queued", "scheduled", "sending", "deferred"] as const;
/** Throttle answers tolerated in one handling before it counts as a failed attempt. */
const MAX_THROTTLES = 30;

type Row = {
  id: string;
  account_id: string;
  channel: string;
  direction: string;
  sender: string;
  recipient: string;
  body: string;
  segments: number;
  coding: "GSM7" | "UCS2" | null;
  route: string | null;
  status: MessageStatus;
  provider: string | null;
  campaign_id: string | null;
  content: unknown;
};

/** Row's columns, for statements that must name them. */
const ROW_COLUMNS = "id, account_id, channel, direction, sender, recipient, body, segments, coding, route, status, provider, campaign_id, content";

const db = () => sequelize();
const CLAIMABLE = `(status IN ('pending','queued') OR (status = 'scheduled' AND (scheduled_at IS NULL OR scheduled_at <= now())))`;
/** A campaign the account paused or canceled holds its messages back. */
const HELD = `(campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = messages.campaign_id AND c.status IN ('paused','canceled')))`;

let rates: Record<string, RouteRate> | undefined;
/** The configured rate of a channel's route (SMS_ROUTE_RATES), if any. */
export function routeRate(channel: string, route: string | null): RouteRate | undefined {
  if (channel !== "sms" || !route) return undefined;
  rates ??= parseRouteRates(env().SMS_ROUTE_RATES);
  return rates[route];
}

/** `createdAt`: the message's created_at as PostgreSQL's text (exact to the microsecond; it names the month of the event's partition). */
async function systemEvent(t: Transaction, messageId: string, createdAt: string, accountId: string, status: string, payload: Record<string, unknown>) {
  await exec(
    `INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload) VALUES ($1, $2, $3, $4, 'system', $5::jsonb)`,
    [messageId, createdAt, accountId, status, JSON.stringify(payload)],
    { transaction: t },
  );
}

/**
 * Moves a message that has not reached the provider to `failed`, with the reason the person will
 * see, and returns its price to the account's balance in the same transaction (a `refund` event
 * with price and currency). The row lock and the status check make both happen at most once.
 * `opts`: only a message of this account, only from these statuses (default: any unsent one),
 * and more to write in the same transaction (an audit entry) when it failed.
 */
export async function failUnsent(
  messageId: string,
  code: string,
  reason: string,
  opts: { accountId?: string; from?: readonly MessageStatus[]; also?: (t: Transaction) => Promise<void>; status?: FailureStatus } = {},
): Promise<boolean> {
  const from: readonly string[] = opts.from ?? UNSENT_STATUSES;
  const status = opts.status ?? "failed";
  const row = await db().transaction(async (t) => {
    const [m] = await rows<{ account_id: string; created_at: string; status: MessageStatus; price: string; currency: string; product_id: string | null; segments: number }>(
      `SELECT account_id, created_at::text AS created_at, status, price, currency, product_id, segments FROM messages WHERE id = $1 AND ($2::uuid IS NULL OR account_id = $2::uuid) FOR UPDATE`,
      [messageId, opts.accountId ?? null],
      { transaction: t },
    );
    // Only before the provider took it: a `sent` message's fate is the provider's receipt.
    if (!m || !(UNSENT_STATUSES as readonly string[]).includes(m.status) || !from.includes(m.status) || !nextStatus(m.status, status).apply) return null;
    await exec(
      `UPDATE messages SET status = $5, failed_at = now(), error_code = $2, error_message = $3, updated_at = now() WHERE id = $1 AND created_at = $4`,
      [messageId, code.slice(0, 100), reason.slice(0, 1000), m.created_at, status],
      { transaction: t },
    );
    await systemEvent(t, messageId, m.created_at, m.account_id, status, { error_code: code, error_message: reason, previous: m.status });
    const price = Number(m.price);
    if (price > 0) {
      await creditBalance(m.account_id, price, t, { kind: "refund", reference: `message:${messageId}`, reason: code });
      await systemEvent(t, messageId, m.created_at, m.account_id, "refund", { price, currency: m.currency.trim(), reason: code });
    }
    // A message a product covered gives its units back to it instead (ADR 048).
    if (m.product_id) await returnUnits(m.account_id, m.product_id, m.segments, t);
    await opts.also?.(t);
    return m;
  });
  // A live chat message that went out as this one (a WhatsApp room's) fails with it.
  if (row) await liveMessageStatus(row.account_id, messageId, "failed", reason).catch((e) => console.warn(`live message of ${messageId}: ${(e as Error).message}`));
  return Boolean(row);
}

/** A submit the provider refused for now: the message is `deferred` with the reason (an event per attempt), and retried by the runner. */
async function recordDeferred(messageId: string, e: DeferredSendError) {
  await db().transaction(async (t) => {
    const [m] = await rows<{ account_id: string; created_at: string; status: MessageStatus }>(
      `UPDATE messages SET status = 'deferred', error_code = $2, error_message = $3, updated_at = now()
        WHERE id = $1 AND status IN ('sending','deferred') RETURNING account_id, created_at::text AS created_at, status`,
      [messageId, e.code.slice(0, 100), e.message.slice(0, 1000)],
      { transaction: t },
    );
    if (m) await systemEvent(t, messageId, m.created_at, m.account_id, "deferred", { error_code: e.code, error_message: e.message });
  });
}

/** Records `sent` with the provider's id (status machine under the row lock). */
async function recordSent(messageId: string, provider: string, providerMessageId: string) {
  // The usual case in one round trip: still `sending` (ours), so `sent` applies.
  const [fast] = await rows<{ account_id: string }>(
    `WITH u AS (
       UPDATE messages SET provider = $2, provider_message_id = $3, status = 'sent', sent_at = now(), updated_at = now()
       WHERE id = $1 AND status = 'sending' RETURNING id, created_at, account_id
     ), e AS (
       INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
       SELECT id, created_at, account_id, 'sent', 'system', jsonb_build_object('provider', $2::text, 'provider_message_id', $3::text, 'previous', 'sending') FROM u
     )
     SELECT account_id FROM u`,
    [messageId, provider, providerMessageId],
  );
  if (fast) return;
  // Anything else (a receipt got there first…): the status machine decides under the row lock.
  await db().transaction(async (t) => {
    const [m] = await rows<{ status: MessageStatus; account_id: string; created_at: string }>(
      `SELECT status, account_id, created_at::text AS created_at FROM messages WHERE id = $1 FOR UPDATE`,
      [messageId],
      { transaction: t },
    );
    const decision = nextStatus(m.status, "sent");
    await exec(
      `UPDATE messages SET provider = $2, provider_message_id = $3, status = $4,
         sent_at = CASE WHEN $5 THEN now() ELSE sent_at END, updated_at = now(),
         -- A deferral's reason is history once the retry went out (the timeline keeps it).
         error_code = CASE WHEN $7 = 'deferred' THEN NULL ELSE error_code END,
         error_message = CASE WHEN $7 = 'deferred' THEN NULL ELSE error_message END
       WHERE id = $1 AND created_at = $6`,
      [messageId, provider, providerMessageId, decision.status, decision.apply, m.created_at, m.status],
      { transaction: t },
    );
    if (decision.apply) await systemEvent(t, messageId, m.created_at, m.account_id, "sent", { provider, provider_message_id: providerMessageId, previous: m.status });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits `ms`, keeping the stream entry ours (touch) so no other consumer reclaims it meanwhile. */
async function waitKeeping(ms: number, touch?: () => Promise<void>) {
  const step = Math.max(100, Math.floor(env().DISPATCH_RETRY_IDLE_MS / 3));
  let left = ms;
  while (left > 0) {
    const chunk = Math.min(step, left);
    await sleep(chunk);
    left -= chunk;
    if (left > 0 && touch) await touch().catch(() => undefined);
  }
}

/** The adapter a message goes out through: its route's provider connection (ADR 011), else the channel's default. */
async function adapterOf(message: Pick<Row, "channel" | "provider" | "route">): Promise<ChannelAdapter | undefined> {
  const connection = await connectionFor(message.channel, message.route);
  if (connection) return connection.enabled ? adapterForConnection(connection) : undefined;
  const provider = message.provider ?? defaultProvider(message.channel);
  const adapter = provider ? adapterFor(message.channel, provider) : undefined;
  return adapter?.configured() ? adapter : undefined;
}

export type DispatchMeta = { deliveries: number; recovered?: boolean; touch?: () => Promise<void> };
export type DispatchResult = "sent" | "skipped" | "held" | "failed";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function dispatchMessage(messageId: string, meta: DispatchMeta): Promise<DispatchResult> {
  if (!UUID.test(messageId ?? "")) return "skipped";
  // 1. Claim (not while its campaign is paused or canceled).
  const [claimed] = await rows<Row>(
    `UPDATE messages SET status = 'sending', updated_at = now() WHERE id = $1 AND direction = 'outbound' AND ${CLAIMABLE} AND NOT ${HELD} AND ${ACCOUNT_ACTIVE} RETURNING *`,
    [messageId],
  );
  let message: Row | undefined = claimed;
  let resubmit = false;
  let stopped: string | null = null;
  if (!message) {
    const [current] = await rows<Row & { campaign_status: string | null; account_status: string }>(
      `SELECT m.*, c.status AS campaign_status, a.status AS account_status FROM messages m
         JOIN accounts a ON a.id = m.account_id LEFT JOIN campaigns c ON c.id = m.campaign_id WHERE m.id = $1`,
      [messageId],
    );
    if (!current) return "skipped";
    if (["pending", "queued", "scheduled"].includes(current.status) && current.campaign_status === "canceled") {
      // Written into a campaign after its cancel: fail and refund it like the cancel did the others.
      await failUnsent(current.id, "canceled", CANCELED_REASON);
      return "failed";
    }
    // Its account stopped (suspended, deleted): a due message fails and is refunded, never sent (ADR 069).
    if (current.account_status !== "active" && (await failOfStoppedAccounts([current.id])).has(current.id)) return "failed";
    // Paused: ack the entry; resuming the campaign publishes its queued messages again.
    if (current.campaign_status === "paused" && current.status === "queued") return "held";
    // Gone, inbound, not due, or already past `sending` (or `deferred`, retried): nothing to submit (a duplicate publish).
    if (current.status !== "sending" && current.status !== "deferred") return "skipped";
    // `sending` on a first delivery: another entry for this message holds it (a duplicate
    // publish in flight, or an earlier attempt whose own entry the runner will redeliver).
    if (meta.deliveries <= 1 && !meta.recovered) return "skipped";
    message = current; // A redelivery of the entry that claimed it, or a recovered one.
    resubmit = true;
    stopped = current.account_status !== "active" ? current.account_status : null;
  }

  const result = await submit(message, meta, resubmit, stopped);
  if (result === "failed") return "failed";
  await recordSent(message.id, result.provider, result.providerMessageId);
  return "sent";
}

type Submitted = { provider: string; providerMessageId: string };

/**
 * A provider's refusal or error while sending, kept for /admin/logs (ADR 062): the adapter's code
 * and message, the channel, provider and message id; never the body or the recipient.
 */
function logProviderError(msg: Row, provider: string, e: unknown) {
  const err = e as { code?: unknown; name?: unknown; message?: unknown };
  const code = typeof err?.code === "string" ? err.code : typeof err?.name === "string" ? err.name : "ERROR";
  const kind = e instanceof PermanentSendError ? "permanent" : e instanceof DeferredSendError ? "deferred" : "transient";
  return recordAppLog({
    source: "provider",
    code,
    message: String(err?.message ?? e),
    accountId: msg.account_id,
    detail: { channel: msg.channel, provider, message_id: msg.id, kind },
  });
}

/**
 * Steps 2 of a claimed message: the adapter, the provider lookup for a resubmit, the route's rate
 * slot and the submit (throttling waited out). Answers the provider's id, or "failed" when the
 * message was failed (and refunded) for good; throws on a transient error. `stopped`: the status
 * of the message's account when it is no longer active (a resubmit): what the provider did not
 * get is failed and refunded instead of submitted again.
 */
async function submit(msg: Row, meta: DispatchMeta, resubmit: boolean, stopped: string | null = null): Promise<Submitted | "failed"> {
  const adapter = await adapterOf(msg);
  if (!adapter) {
    const reason = `No provider is configured for channel ${msg.channel}${msg.provider ? ` (${msg.provider})` : ""}`;
    void recordAppLog({
      source: "provider",
      code: "no_provider",
      message: reason,
      accountId: msg.account_id,
      detail: { channel: msg.channel, message_id: msg.id, kind: "permanent" },
    });
    await failUnsent(msg.id, "no_provider", reason);
    return "failed";
  }
  // An earlier attempt may have reached the provider before its worker died: ask, don't resubmit.
  if (resubmit && adapter.lookup) {
    const known = await adapter.lookup(msg.id);
    if (known) return { provider: adapter.provider, providerMessageId: known.providerMessageId };
  }
  if (stopped) {
    const { code, reason } = stoppedFailure(stopped);
    await failUnsent(msg.id, code, reason);
    return "failed";
  }
  const outbound: OutboundMessage = {
    id: msg.id,
    accountId: msg.account_id,
    channel: msg.channel,
    sender: msg.sender,
    recipient: msg.recipient,
    body: msg.body,
    segments: msg.segments,
    coding: msg.coding,
    route: msg.route,
    content: msg.content,
  };
  const bucket = bucketFor(msg.channel, adapter.provider, msg.route);
  const limit = routeRate(msg.channel, msg.route);
  for (let throttles = 0; ; ) {
    await waitForSlot(bucket, limit?.rate ?? 0, limit?.burst ?? 1, (ms) => waitKeeping(ms, meta.touch));
    try {
      const { providerMessageId } = await adapter.send(outbound, { idempotencyKey: msg.id });
      return { provider: adapter.provider, providerMessageId };
    } catch (e) {
      if (e instanceof ThrottledError && ++throttles <= MAX_THROTTLES) {
        await pause(bucket, e.retryAfterMs);
        continue;
      }
      if (!(e instanceof ThrottledError)) void logProviderError(msg, adapter.provider, e);
      if (e instanceof PermanentSendError) {
        await failUnsent(msg.id, e.code, e.message, { status: e.status });
        // What the provider does after such a failure (RCS: the SMS fallback); never fails the dispatch.
        if (adapter.afterFailure) {
          await adapter.afterFailure(outbound, e).catch((err) => console.error(`afterFailure of ${adapter.channel}/${adapter.provider} for ${msg.id}:`, err));
        }
        return "failed";
      }
      if (e instanceof DeferredSendError) await recordDeferred(msg.id, e);
      throw e; // transient: the runner redelivers, then dead-letters
    }
  }
}

/**
 * The `sent` write of recordSentMany, prepared and run on its generic plan (api/lib/prepared.ts):
 * planned once per connection, not on every group commit (planning cost ~1.7 ms a call, more than
 * running it).
 */
const SENT_MANY = prepared(
  "dispatch_sent_many",
  `WITH v AS (
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v(id, provider, pmid)
   ), l AS MATERIALIZED (
     SELECT m.id, m.created_at FROM messages m JOIN v ON m.id = v.id WHERE m.status = 'sending' ORDER BY m.id FOR UPDATE OF m
   ), u AS (
     UPDATE messages m SET provider = v.provider, provider_message_id = v.pmid, status = 'sent', sent_at = now(), updated_at = now()
     FROM v, l WHERE m.id = l.id AND m.created_at = l.created_at AND v.id = l.id AND m.status = 'sending'
     RETURNING m.id, m.created_at, m.account_id, v.provider, v.pmid
   ), e AS (
     INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
     SELECT id, created_at, account_id, 'sent', 'system', jsonb_build_object('provider', provider, 'provider_message_id', pmid, 'previous', 'sending') FROM u
   )
   SELECT id, account_id FROM u`,
);

/**
 * `sent` for many submitted messages in one statement; the ones no longer `sending` go through
 * recordSent. The rows are locked in id order first (`l`), as the receipts' batches lock theirs:
 * a provider's receipt can arrive before its `sent` is written (an e-mail's DSN), and two writers
 * of several rows that lock them in different orders deadlock.
 */
async function recordSentMany(list: Array<{ id: string } & Submitted>) {
  if (list.length === 0) return;
  const done = await preparedGeneric<{ id: string; account_id: string }>(SENT_MANY, [list.map((m) => m.id), list.map((m) => m.provider), list.map((m) => m.providerMessageId)]);
  const recorded = new Set(done.map((d) => d.id));
  for (const m of list) if (!recorded.has(m.id)) await recordSent(m.id, m.provider, m.providerMessageId);
}

/**
 * `sent` is written as the submits return, not once the whole batch is done: the submits that
 * return while one write is in flight go together in the next (group commit, api/lib/group-commit.ts;
 * one statement each, recordSentMany). Waiting for the batch's slowest submit left its first ones
 * `sending` long enough for their providers' receipts (an e-mail's DSN) to arrive first, and each
 * of those then took the one-by-one path.
 */
const sentWriter = new GroupCommit<{ id: string } & Submitted, void>(async (_key, items) => {
  await recordSentMany(items);
  return items.map(() => undefined);
});

/**
 * The batch's claim, prepared (planned once per connection). PostgreSQL picks its generic plan by
 * itself after five calls (measured: 35 ms of planning in all at 10,000 messages), so it needs no
 * transaction to force it, unlike SENT_MANY (three round trips fewer per batch). Its columns are named:
 * a prepared `RETURNING *` would fail ("cached plan must not change result type") on every
 * connection that prepared it before a migration added a column.
 */
const CLAIM_MANY = prepared(
  "dispatch_claim_many",
  `UPDATE messages SET status = 'sending', updated_at = now() WHERE id = ANY($1::uuid[]) AND direction = 'outbound' AND ${CLAIMABLE} AND NOT ${HELD} AND ${ACCOUNT_ACTIVE}
   RETURNING ${ROW_COLUMNS}`,
);

/**
 * A batch of entries: one claim statement for all their messages, the submits DISPATCH_CONCURRENCY
 * at a time, each recorded `sent` as it returns (grouped, above). Entries whose message was not
 * claimed take the one-by-one path (held campaign, duplicate, redelivery of a `sending` message…).
 */
export async function dispatchBatch(entries: Entry[]): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const ids = [...new Set(entries.map((e) => e.fields.message_id).filter((id) => UUID.test(id ?? "")))];
  const claimed = ids.length ? await preparedRows<Row>(CLAIM_MANY, [ids]) : [];
  const mine = new Map(claimed.map((r) => [r.id, r]));
  // Not claimed: due messages of accounts that stopped fail (refunded) in one statement; the rest go one by one below.
  const unclaimed = ids.filter((id) => !mine.has(id));
  const stopped = unclaimed.length ? await failOfStoppedAccounts(unclaimed) : new Set<string>();
  const seen = new Set<string>();
  const writes: Array<Promise<void>> = [];
  const limit = Math.max(1, env().DISPATCH_CONCURRENCY);
  let next = 0;
  const lane = async () => {
    while (next < entries.length) {
      const e = entries[next++];
      const id = e.fields.message_id;
      const meta: DispatchMeta = { deliveries: e.deliveries, recovered: e.fields.recovered === "1", touch: e.touch };
      try {
        if (!UUID.test(id ?? "") || seen.has(id) || stopped.has(id)) continue; // junk, the same message twice in one batch, or failed above
        seen.add(id);
        const row = mine.get(id);
        if (!row) {
          await dispatchMessage(id, meta);
          continue;
        }
        const result = await submit(row, meta, false);
        // Written without holding the lane: the lane goes on to its next submit at once (a rate-limited
        // route keeps its pace), the batch waits for every write before it is acked. Submitted but
        // not recorded (the write failed): the entry stays pending; its redelivery finds the submit by lookup.
        if (result !== "failed") writes.push(sentWriter.run("sent", { id, ...result }).catch((err) => void failures.set(e.id, err)));
      } catch (err) {
        failures.set(e.id, err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, lane));
  await Promise.all(writes);
  return failures;
}

/**
 * The dead-letter hook: the message fails (and is refunded) unless the provider does have it —
 * a submit that succeeded but whose `sent` could not be recorded is recorded now instead.
 */
export async function deadLetter(messageId: string, reason: string) {
  if (!UUID.test(messageId ?? "")) return;
  const [m] = await rows<Row>(`SELECT * FROM messages WHERE id = $1`, [messageId]);
  if (!m) return;
  const adapter = m.status === "sending" || m.status === "deferred" ? await adapterOf(m) : undefined;
  const known = adapter?.lookup ? await adapter.lookup(m.id).catch(() => null) : null;
  if (adapter && known) await recordSent(m.id, adapter.provider, known.providerMessageId);
  else await failUnsent(m.id, "dispatch_failed", reason, { status: m.status === "deferred" ? (adapter?.exhaustedStatus ?? "failed") : "failed" });
}

/** One consumer per channel that has a provider. */
export function startDispatchers() {
  const concurrency = env().DISPATCH_CONCURRENCY;
  return channels().map((channel) =>
    startConsumer({
      stream: dispatchStream(channel),
      group: DISPATCH_GROUP,
      // Batches of DISPATCH_CONCURRENCY, two in flight: the next batch's claim overlaps the
      // current batch's last submits, so a rate-limited route never idles between batches.
      batch: concurrency,
      concurrency: concurrency * 2,
      pipelined: true,
      deleteAcked: true,
      maxAttempts: env().DISPATCH_MAX_ATTEMPTS,
      reclaimIdleMs: env().DISPATCH_RETRY_IDLE_MS,
      batchHandler: dispatchBatch,
      onDead: async (fields, reason) => {
        if (fields.message_id) await deadLetter(fields.message_id, reason);
      },
      // Redis lost the stream: every queued/sending message without an entry is lost work, whatever its age.
      onLost: () => recoverLostEntries(channel, 0),
    }),
  );
}
