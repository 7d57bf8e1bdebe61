/**
 * Reconciliation (issue 12 item 3): no message stays `sent` for ever. A receipt can be lost —
 * our API was down longer than the provider retries, the provider dropped it, a restart forgot
 * it — and then nothing else would ever move the message. The worker's sweep (every
 * RECONCILE_SWEEP_SECONDS) takes the outbound messages still `sent` RECONCILE_AFTER_SECONDS after
 * their submit, oldest first, and
 *  1. asks their provider for the status (ChannelAdapter.status, a look-up call); a status beyond
 *     `sent` is applied as the receipt it stands for;
 *  2. otherwise, once SMS_VALIDITY_SECONDS have passed since the submit (an SMS's validity period,
 *     72 h by default: a real SMSC gives up on the handset then too), ends the message
 *     `unavailable` with error EXPIRED — the spec's states have no `expired`; providers' EXPIRED
 *     receipts already map to `unavailable` (../channels/receipt-providers).
 * Both go through applyProviderReceipts, the one function receipts go through: the same status
 * machine, dedupe, message_events row and therefore the same customer webhook (the outbox trigger
 * of migration 0019). A late real receipt afterwards is a duplicate or changes nothing.
 *
 * Cheap: the partial index messages_sent_awaiting_receipt_idx holds only messages awaiting a
 * receipt; a batch is claimed by stamping `status_checked_at` (SKIP LOCKED: workers never share
 * one), so a message without an answer is asked again only RECONCILE_AFTER_SECONDS later.
 */
import { adapterForProvider } from "../channels/provider-connections";
import type { ProviderStatus } from "../channels/contract";
import { env } from "../lib/env";
import { applyProviderReceipts, type ProviderReceipt } from "./receipts";
import { nextStatus } from "./status";
import { rows } from "../lib/sql";

export const EXPIRED_ERROR = { code: "EXPIRED", message: "No final status from the provider within the message's validity period" };

const LOOKUPS_IN_FLIGHT = 16;

type Claimed = { id: string; channel: string; provider: string | null; provider_message_id: string | null; sent_at: Date; expired: boolean };

export type ReconcileOptions = { afterSeconds: number; validitySeconds: number; batch: number };

function options(): ReconcileOptions {
  const e = env();
  return { afterSeconds: e.RECONCILE_AFTER_SECONDS, validitySeconds: e.SMS_VALIDITY_SECONDS, batch: e.RECONCILE_BATCH };
}

/** Claims up to `batch` messages due for a look-up (stamps status_checked_at) and answers them. */
async function claim(o: ReconcileOptions): Promise<Claimed[]> {
  return rows<Claimed>(
    `UPDATE messages m SET status_checked_at = now()
     FROM (
       SELECT id FROM messages
       WHERE direction = 'outbound' AND status = 'sent' AND sent_at < now() - make_interval(secs => $1)
         AND (status_checked_at IS NULL OR status_checked_at < now() - make_interval(secs => $1))
       ORDER BY sent_at LIMIT $3 FOR UPDATE SKIP LOCKED
     ) due
     WHERE m.id = due.id
     RETURNING m.id, m.channel, m.provider, m.provider_message_id, m.sent_at, m.sent_at < now() - make_interval(secs => $2) AS expired`,
    [o.afterSeconds, o.validitySeconds, o.batch],
  );
}

/** The provider's answer, or null (no look-up call, unknown to it, or it failed: asked again later). */
async function askProvider(m: Claimed): Promise<ProviderStatus | null> {
  if (!m.provider || !m.provider_message_id) return null;
  const adapter = await adapterForProvider(m.channel, m.provider);
  if (!adapter?.status) return null;
  try {
    return await adapter.status({ providerMessageId: m.provider_message_id, idempotencyKey: m.id });
  } catch (e) {
    console.error(`reconcile: status look-up of ${m.id} at ${m.provider} failed: ${(e as Error).message}`);
    return null;
  }
}

/** What one claimed message becomes: the provider's later status, its expiry, or nothing yet. */
async function receiptFor(m: Claimed): Promise<ProviderReceipt | null> {
  const base = { provider: m.provider ?? "", providerMessageId: m.provider_message_id ?? "", messageId: m.id };
  const answer = await askProvider(m);
  if (answer && nextStatus("sent", answer.status).apply) {
    return {
      ...base,
      status: answer.status,
      errorCode: answer.errorCode,
      errorMessage: answer.errorMessage,
      carrier: answer.carrier,
      occurredAt: answer.occurredAt ?? new Date(),
      eventId: `reconcile_${m.id}_${answer.status}`,
      via: "lookup",
    };
  }
  if (!m.expired) return null;
  return { ...base, status: "unavailable", errorCode: EXPIRED_ERROR.code, errorMessage: EXPIRED_ERROR.message, occurredAt: new Date(), eventId: `expiry_${m.id}`, via: "expiry" };
}

/** One sweep: answers how many messages were looked at, moved by a look-up, and expired. */
export async function reconcileSent(o: ReconcileOptions = options()) {
  const claimed = await claim(o);
  const receipts: ProviderReceipt[] = [];
  // A few look-ups in flight at a time: a provider is not hit with a whole batch at once.
  for (let i = 0; i < claimed.length; i += LOOKUPS_IN_FLIGHT) {
    for (const r of await Promise.all(claimed.slice(i, i + LOOKUPS_IN_FLIGHT).map(receiptFor))) if (r) receipts.push(r);
  }
  const outcomes = receipts.length > 0 ? await applyProviderReceipts(receipts) : [];
  const applied = receipts.filter((_r, i) => outcomes[i].result === "applied");
  return { checked: claimed.length, resolved: applied.filter((r) => r.via === "lookup").length, expired: applied.filter((r) => r.via === "expiry").length };
}
