/**
 * What the inbound listener hears back about our e-mail (ADR 036), applied: each report names its
 * messages by their signed return paths (./inbound-smtp.ts checked them).
 * - a DSN's recipient `delivered` (or relayed, expanded): the message `delivered`;
 * - `failed`: `bounced` (a 5.7.x policy/spam refusal: `blocked`), and a hard bounce (5.x.x) puts
 *   the address on the account's deny list, so later sends to it are refused at accept;
 * - `delayed`: `deferred` — after `sent` it is recorded in the timeline and moves nothing;
 * - an ARF complaint: the address is opted out of the account's e-mail (source `complaint`).
 * Statuses go through the one receipt path (api/messages/receipts.ts: deduplicated per message and
 * status, forward-only, announced to the customer's webhooks), so a report received twice (a
 * retry after our 451) changes nothing the second time.
 */
import { applyProviderReceipts, type ProviderReceipt } from "../messages/receipts";
import type { MessageStatus } from "../messages/status";
import { exec, rows } from "../lib/sql";
import type { InboundReport } from "./inbound-smtp";
import { EMAIL_PROVIDER } from "./provider";

type Target = { id: string; account_id: string; recipient: string };

function statusOf(action: string, status: string): MessageStatus | null {
  if (action === "delivered" || action === "relayed" || action === "expanded") return "delivered";
  if (action === "delayed") return "deferred";
  if (action === "failed") return /^5\.7\./.test(status) ? "blocked" : "bounced";
  return null;
}

/**
 * The messages a report names, with their account and recipient (only those of the e-mail channel).
 * MATERIALIZED: the ids alone choose the plan (each month's primary key); a filter on channel or
 * direction in the same scan let the planner AND in a partial index over every outbound message.
 */
function targetsOf(ids: string[]): Promise<Target[]> {
  return rows<Target>(
    `WITH m AS MATERIALIZED (SELECT id, account_id, recipient, channel, direction FROM messages WHERE id = ANY($1::uuid[]))
     SELECT id, account_id, recipient FROM m WHERE channel = 'email' AND direction = 'outbound'`,
    [ids],
  );
}

export async function applyInboundReport({ report, recipients }: InboundReport): Promise<void> {
  if (report.kind === "other" || recipients.length === 0) return;
  if (report.kind === "arf") {
    for (const t of await targetsOf(recipients.map((r) => r.messageId))) {
      await exec(`INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'email', $2, 'complaint') ON CONFLICT (account_id, channel, recipient) DO NOTHING`, [
        t.account_id,
        t.recipient,
      ]);
    }
    return;
  }
  // The usual report: one message, one recipient line (ours have one recipient each), and a
  // success: the receipt names our id and needs nothing read first (the receipt path checks the
  // locked row is an e-mail). Anything else reads the messages to match lines to recipients.
  const [only] = report.recipients;
  if (recipients.length === 1 && report.recipients.length === 1 && statusOf(only.action, only.status) === "delivered") {
    const id = recipients[0].messageId;
    await applyProviderReceipts([
      { provider: EMAIL_PROVIDER, providerMessageId: id, messageId: id, channel: "email", status: "delivered", occurredAt: new Date(), eventId: `${id}:delivered` },
    ]);
    return;
  }
  const targets = await targetsOf(recipients.map((r) => r.messageId));
  const receipts: ProviderReceipt[] = [];
  const denied: Array<{ account: string; address: string; reason: string }> = [];
  for (const t of targets) {
    // The report's line about this message's recipient (one recipient per message); else its only line.
    const line = report.recipients.find((r) => r.recipient.toLowerCase() === t.recipient) ?? (report.recipients.length === 1 ? report.recipients[0] : undefined);
    if (!line) continue;
    const status = statusOf(line.action, line.status);
    if (!status) continue;
    const failed = status === "bounced" || status === "blocked";
    const reason = failed || status === "deferred" ? `${line.status} ${line.diagnostic ?? ""}`.trim().slice(0, 500) : null;
    receipts.push({
      provider: EMAIL_PROVIDER,
      providerMessageId: t.id,
      messageId: t.id,
      channel: "email",
      status,
      errorCode: failed ? line.status : null,
      errorMessage: failed ? reason : null,
      occurredAt: new Date(),
      eventId: `${t.id}:${status}`,
    });
    if (status === "bounced" && line.status.startsWith("5.")) denied.push({ account: t.account_id, address: t.recipient, reason: `bounced: ${reason}`.slice(0, 500) });
  }
  if (receipts.length) await applyProviderReceipts(receipts);
  for (const d of denied) {
    await exec(`INSERT INTO deny_list (account_id, recipient, reason) VALUES ($1, $2, $3) ON CONFLICT (account_id, recipient) DO NOTHING`, [d.account, d.address, d.reason]);
  }
}
