/**
 * Step 3 of the message pipeline: a provider's status receipt, already authenticated by the
 * webhook route (or read off an SMPP deliver_sm), applied to our message. Idempotent and order-proof:
 *  - the message rows are locked (SELECT … ORDER BY id FOR UPDATE), so receipts of one message
 *    apply one at a time whichever process holds them, and batches do not deadlock each other (a
 *    batch rolled back by a lock cycle with another writer is applied again: applyBatch);
 *  - the receipt is recorded as a message_event deduplicated on (message, status, 'provider') —
 *    i.e. on (provider, provider message id, status); a repeat changes nothing;
 *  - the forward-only machine (./status) decides whether the status moves.
 * The message_events row is the announcement: its insert feeds the customer webhooks' outbox
 * (migration 0019's trigger) in the same transaction, so listeners never see a status the
 * database does not hold, and nothing is lost if Redis is down at that moment.
 * There is no actor: the tenant is the message's own account.
 *
 * Receipts arrive by the thousand per second when a provider catches up, and each is a few rows:
 * one transaction per receipt spends the time in round trips and commits. So receipts that arrive
 * while earlier ones are being written wait and go together: at most FLUSHES transactions run at
 * once, each applying up to BATCH receipts in four statements. At low load a receipt is written
 * alone, at once; under load the batches grow and the commit cost is shared (issue 4 bench:
 * docs/benchmarks.md). A caller still gets its own receipt's outcome only after the commit.
 */
import { retryOnConflict } from "../lib/retry-conflict";
import { type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { STATUS_TIMESTAMP, isFailure, nextStatus, type MessageStatus } from "./status";
import { rows } from "../lib/sql";
import { FORCE_GENERIC_PLANS, prepared, preparedRowsIn } from "../lib/prepared";

export type ProviderReceipt = {
  provider: string;
  providerMessageId: string;
  status: MessageStatus;
  errorCode?: string | null;
  errorMessage?: string | null;
  /** The handset's operator, when the provider names it; kept on the message (first one wins). */
  carrier?: string | null;
  occurredAt: Date;
  /** The provider's id of this receipt (webhook id or its own event id), kept for tracing. */
  eventId: string;
  /** Our message id when the caller already resolved it (a concatenated SMS's part receipt, ../channels/smpp/parts). */
  messageId?: string;
  /**
   * How we learned it when it was not the provider's receipt: `lookup` (the reconciliation
   * sweep asked the provider) or `expiry` (no final status within the validity period,
   * ./reconcile). Kept in the event's payload; everything else is exactly a receipt's.
   */
  via?: "lookup" | "expiry";
  /**
   * Whose message it must be (a WhatsApp number's webhook moves only that number's messages):
   * checked on the row the batch locks, so the check costs no statement of its own; a message of
   * another account or sender is `ignored`, as an unknown id is.
   */
  scope?: { accountId: string; sender: string };
  /** The channel the message must be of (an e-mail report names our id: it cannot move an SMS); checked on the locked row, like `scope`. */
  channel?: string;
  /** What else follows the receipt once applied (a live chat room's copy of the message); see ReceiptFollower. */
  follow?: ReceiptFollower;
};

/**
 * Work that follows applied receipts, run in the batch's own transaction with every applied receipt
 * of the flush that names it (one statement per flush instead of one per post); answers what to do
 * once that transaction committed (announce), run before the callers get their outcomes.
 */
export type ReceiptFollower = (
  applied: Array<{ receipt: ProviderReceipt; messageId: string; accountId: string; status: MessageStatus }>,
  transaction: Transaction,
) => Promise<() => Promise<void>>;

export type ReceiptOutcome =
  /** No message has this provider id (not ours, or already erased): nothing to do. */
  | { result: "ignored" }
  /** The same status was already reported for this message: nothing changed. */
  | { result: "duplicate"; messageId: string; status: MessageStatus }
  /** Recorded, but the status machine kept the current status (late or after a final state). */
  | { result: "unchanged"; messageId: string; status: MessageStatus }
  | { result: "applied"; messageId: string; status: MessageStatus; previous: MessageStatus };

const BATCH = 500;
const FLUSHES = 4;

type Waiting = { input: ProviderReceipt; resolve: (o: ReceiptOutcome) => void; reject: (e: unknown) => void };
const waiting: Waiting[] = [];
let flushing = 0;

export function applyProviderReceipt(input: ProviderReceipt): Promise<ReceiptOutcome> {
  return applyProviderReceipts([input]).then(([outcome]) => outcome);
}

/**
 * Several receipts posted together (a provider's batch): queued at once, so they are written in
 * their order in the same transaction (or consecutive ones past BATCH), not raced in parallel.
 */
export function applyProviderReceipts(inputs: ProviderReceipt[]): Promise<ReceiptOutcome[]> {
  const all = inputs.map((input) => new Promise<ReceiptOutcome>((resolve, reject) => waiting.push({ input, resolve, reject })));
  pump();
  return Promise.all(all);
}

let scheduled = false;

/**
 * Starts flushes for what waits. Deferred to the end of the current event-loop turn
 * (setImmediate, no timer): requests that arrived together are read first and go in one batch,
 * instead of the first one running alone.
 */
function pump() {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    while (flushing < FLUSHES && waiting.length > 0) {
      const batch = waiting.splice(0, BATCH);
      flushing++;
      applyBatch(batch.map((w) => w.input))
        .then(
          (outcomes) => {
            for (const [i, w] of batch.entries()) w.resolve(outcomes[i]);
          },
          (e) => {
            for (const w of batch) w.reject(e);
          },
        )
        .finally(() => {
          flushing--;
          pump();
        });
    }
  });
}

/** created_at as PostgreSQL's text: exact to the microsecond, it names the message's month (partition, ADR 029). */
type Locked = { id: string; created_at: string; account_id: string; channel: string; sender: string; status: MessageStatus; provider: string; provider_message_id: string };
type Change = { status: MessageStatus; at: Partial<Record<"sent_at" | "delivered_at" | "read_at" | "failed_at", Date>>; error?: { code: string | null; message: string | null } };
const COLUMN = { queuedAt: null, sentAt: "sent_at", deliveredAt: "delivered_at", readAt: "read_at", failedAt: "failed_at" } as const;

/**
 * The statements every flush runs, prepared (api/lib/prepared.ts): planned once per connection
 * instead of once per flush (over every month's partition, planning cost more than running them).
 */

const LOCK_BY_IDS = prepared(
  "receipts_lock_by_ids",
  `SELECT id, created_at::text AS created_at, account_id, channel, sender, status, provider, provider_message_id FROM messages WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
);

const INSERT_EVENTS = prepared(
  "receipts_insert_events",
  `INSERT INTO message_events (message_id, message_created_at, account_id, status, source, provider_event_id, payload)
             SELECT e.message_id, e.created_at, e.account_id, e.status, 'provider', e.event_id, e.payload::jsonb
             FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) WITH ORDINALITY AS e(message_id, account_id, status, event_id, payload, created_at, n)
             ORDER BY e.n
             ON CONFLICT (message_id, message_created_at, status, source) WHERE source = 'provider' DO NOTHING
             RETURNING message_id, status`,
);

const UPDATE_MESSAGES = prepared(
  "receipts_update_messages",
  `UPDATE messages m SET status = COALESCE(c.status, m.status),
           sent_at = COALESCE(c.sent_at, m.sent_at), delivered_at = COALESCE(c.delivered_at, m.delivered_at),
           read_at = COALESCE(c.read_at, m.read_at), failed_at = COALESCE(c.failed_at, m.failed_at),
           error_code = CASE WHEN c.set_error THEN c.error_code ELSE m.error_code END,
           error_message = CASE WHEN c.set_error THEN c.error_message ELSE m.error_message END,
           carrier = COALESCE(m.carrier, c.carrier),
           updated_at = CASE WHEN c.status IS NULL THEN m.updated_at ELSE now() END
         FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[], $7::boolean[], $8::text[], $9::text[], $10::text[], $11::timestamptz[])
           AS c(id, status, sent_at, delivered_at, read_at, failed_at, set_error, error_code, error_message, carrier, created_at)
         WHERE m.id = c.id AND m.created_at = c.created_at`,
);

function lockByIds(ids: string[], transaction: Transaction): Promise<Locked[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return preparedRowsIn<Locked>(transaction, LOCK_BY_IDS, [ids]);
}

/**
 * Applies receipts in one transaction, in their order; answers one outcome per receipt. Every
 * writer of several message rows locks them in id order (the dispatcher's recordSentMany too), but
 * a statement of another kind may still meet this one in a lock cycle; PostgreSQL then rolls one
 * of them back whole, and the batch is simply applied again (receipts are idempotent), a few
 * times (retryOnConflict).
 */
export function applyBatch(inputs: ProviderReceipt[]): Promise<ReceiptOutcome[]> {
  return retryOnConflict(() => applyBatchOnce(inputs));
}

async function applyBatchOnce(inputs: ProviderReceipt[]): Promise<ReceiptOutcome[]> {
  const db = sequelize();
  const afterCommit: Array<() => Promise<void>> = [];
  const outcomes = await db.transaction(async (transaction) => {
    // The prepared statements below run their one generic plan: a custom plan per flush would be
    // planned again each time (PostgreSQL prefers them for a small `id = ANY` array), and planning
    // over every month's partition costs more than running them.
    await preparedRowsIn(transaction, FORCE_GENERIC_PLANS, []);
    const byId = inputs.filter((r) => r.messageId).map((r) => r.messageId!);
    const byPid = inputs.filter((r) => !r.messageId);
    const pidArrays = [byPid.map((r) => r.provider), byPid.map((r) => r.providerMessageId)];
    // Which messages, locked in id order. Usually every receipt names the provider's id: one
    // statement joins the batch (unnest) to messages and locks the rows it finds — PostgreSQL's
    // re-check of a row another batch just updated re-uses the unnest row and the new message
    // version, so it stays exact. When every receipt names our id (an e-mail's report), a plain
    // `id = ANY` locks them; when only some do (a concatenated SMS's parts), the ids are found
    // first and then locked the same way (ADR 013).
    let messages: Locked[];
    if (byPid.length === 0) {
      messages = await lockByIds(byId, transaction);
    } else if (byId.length === 0) {
      messages = await rows<Locked>(
        `SELECT m.id, m.created_at::text AS created_at, m.account_id, m.channel, m.sender, m.status, m.provider, m.provider_message_id
         FROM unnest($1::text[], $2::text[]) AS r(provider, pid)
         JOIN message_provider_ids k ON k.provider = r.provider AND k.provider_message_id = r.pid
         JOIN messages m ON m.id = k.message_id AND m.created_at = k.message_created_at
         ORDER BY m.id FOR UPDATE OF m`,
        pidArrays,
        { transaction },
      );
    } else {
      const found = await rows<{ id: string }>(
        `SELECT id FROM messages WHERE id = ANY($3::uuid[])
         UNION
         SELECT k.message_id FROM unnest($1::text[], $2::text[]) AS r(provider, pid)
         JOIN message_provider_ids k ON k.provider = r.provider AND k.provider_message_id = r.pid`,
        [...pidArrays, byId],
        { transaction },
      );
      messages = await lockByIds(
        found.map((f) => f.id),
        transaction,
      );
    }
    if (messages.length === 0) return inputs.map((): ReceiptOutcome => ({ result: "ignored" }));
    const byProviderId = new Map<string, Locked>();
    const byMessageId = new Map<string, Locked>();
    for (const m of messages) {
      byMessageId.set(m.id, m);
      if (m.provider_message_id) byProviderId.set(`${m.provider}\u0000${m.provider_message_id}`, m);
    }
    // Statuses this batch already reported per message. Those reported by earlier batches are
    // found by the insert below (ON CONFLICT … RETURNING): a status already reported can never move
    // the message (it applied then, or the message was already past it, and statuses only move
    // forward), so deciding first and labelling the repeats `duplicate` afterwards is exact.
    const seen = new Set<string>();
    const current = new Map(messages.map((m) => [m.id, m.status]));
    const changes = new Map<string, Change>();
    const events: { index: number; messageId: string; createdAt: string; accountId: string; status: string; eventId: string; payload: string }[] = [];
    const carriers = new Map<string, string>();
    const answers = inputs.map((input, index): ReceiptOutcome => {
      const message = input.messageId ? byMessageId.get(input.messageId) : byProviderId.get(`${input.provider}\u0000${input.providerMessageId}`);
      if (!message || (input.scope && (message.account_id !== input.scope.accountId || message.sender !== input.scope.sender))) return { result: "ignored" };
      if (input.channel && message.channel !== input.channel) return { result: "ignored" };
      const status = current.get(message.id)!;
      if (seen.has(`${message.id}:${input.status}`)) return { result: "duplicate", messageId: message.id, status };
      seen.add(`${message.id}:${input.status}`);
      if (input.carrier && !carriers.has(message.id)) carriers.set(message.id, input.carrier.slice(0, 40));
      const decision = nextStatus(status, input.status);
      events.push({
        index,
        messageId: message.id,
        createdAt: message.created_at,
        accountId: message.account_id,
        status: input.status,
        eventId: input.eventId,
        payload: JSON.stringify({
          provider: input.provider,
          occurred_at: input.occurredAt.toISOString(),
          error_code: input.errorCode ?? null,
          error_message: input.errorMessage ?? null,
          applied: decision.apply,
          previous: status,
          ...(input.via ? { via: input.via } : {}),
        }),
      });
      if (!decision.apply) return { result: "unchanged", messageId: message.id, status };
      current.set(message.id, decision.status);
      const change = changes.get(message.id) ?? { status: decision.status, at: {} };
      change.status = decision.status;
      const property = STATUS_TIMESTAMP[decision.status];
      const column = property ? COLUMN[property] : null;
      if (column) change.at[column] = input.occurredAt;
      if (isFailure(decision.status)) change.error = { code: input.errorCode ?? null, message: input.errorMessage ?? null };
      changes.set(message.id, change);
      return { result: "applied", messageId: message.id, status: decision.status, previous: status };
    });

    if (events.length > 0) {
      const inserted = new Set(
        (
          await preparedRowsIn<{ message_id: string; status: string }>(transaction, INSERT_EVENTS, [
            events.map((e) => e.messageId),
            events.map((e) => e.accountId),
            events.map((e) => e.status),
            events.map((e) => e.eventId),
            events.map((e) => e.payload),
            events.map((e) => e.createdAt),
          ])
        ).map((e) => `${e.message_id}:${e.status}`),
      );
      for (const e of events) {
        const answer = answers[e.index];
        if (!inserted.has(`${e.messageId}:${e.status}`) && answer.result === "unchanged") answers[e.index] = { ...answer, result: "duplicate" };
      }
    }
    // One UPDATE for the status changes and the first carrier named (a status that did not move
    // can still name the operator).
    const ids = [...new Set([...changes.keys(), ...carriers.keys()])];
    if (ids.length > 0) {
      const at = (c: keyof Change["at"]) => ids.map((id) => changes.get(id)?.at[c]?.toISOString() ?? null);
      await preparedRowsIn(transaction, UPDATE_MESSAGES, [
        ids,
        ids.map((id) => changes.get(id)?.status ?? null),
        at("sent_at"),
        at("delivered_at"),
        at("read_at"),
        at("failed_at"),
        ids.map((id) => Boolean(changes.get(id)?.error)),
        ids.map((id) => changes.get(id)?.error?.code ?? null),
        ids.map((id) => changes.get(id)?.error?.message ?? null),
        ids.map((id) => carriers.get(id) ?? null),
        ids.map((id) => byMessageId.get(id)!.created_at),
      ]);
    }
    // The followers of the applied receipts, each once for the flush.
    const followed = new Map<ReceiptFollower, Parameters<ReceiptFollower>[0]>();
    for (const [index, answer] of answers.entries()) {
      const follow = inputs[index].follow;
      if (!follow || answer.result !== "applied") continue;
      const list = followed.get(follow) ?? [];
      list.push({ receipt: inputs[index], messageId: answer.messageId, accountId: byMessageId.get(answer.messageId)!.account_id, status: answer.status });
      followed.set(follow, list);
    }
    for (const [follow, list] of followed) afterCommit.push(await follow(list, transaction));
    return answers;
  });
  // Announcements only: the receipts are committed, so one that fails is logged, not retried.
  for (const announce of afterCommit) await announce().catch((e) => console.warn(`receipt follower: ${(e as Error).message}`));
  return outcomes;
}
