/**
 * RBM's statuses of RCS messages, applied as the RBM callback applies them (the one receipt path,
 * api/messages/receipts.ts, scoped to the agent, with the live rooms following through
 * api/live/pipeline.ts followLiveReceipts), in a process of its own against DATABASE_URL/REDIS_URL.
 * Usage: bun tests/support/rcs-receipt-run.ts '<json>'
 *   json: { accountId, sender: the agent's rbm_agent_id, receipts: [{ providerMessageId, status, errorCode?, errorMessage? }] }
 */
import { followLiveReceipts } from "../../api/live/pipeline";
import { applyProviderReceipts } from "../../api/messages/receipts";
import type { MessageStatus } from "../../api/messages/status";
import { initModels } from "../../models";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();

type Input = { accountId: string; sender: string; receipts: Array<{ providerMessageId: string; status: MessageStatus; errorCode?: string; errorMessage?: string }> };
const input = JSON.parse(process.argv[2] ?? "{}") as Input;
const outcomes = await applyProviderReceipts(
  input.receipts.map((r) => ({
    provider: "rbm",
    providerMessageId: r.providerMessageId,
    status: r.status,
    errorCode: r.errorCode ?? null,
    errorMessage: r.errorMessage ?? null,
    occurredAt: new Date(),
    eventId: `${r.providerMessageId}:${r.status}`,
    scope: { accountId: input.accountId, sender: input.sender },
    channel: "rcs",
    follow: followLiveReceipts,
  })),
);
console.log(JSON.stringify(outcomes.map((o) => o.result)));
process.exit(0);
