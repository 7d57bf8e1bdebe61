/** The worker process: Redis Streams consumers for background jobs. */
import { renewPlans } from "./plans/change";
import { renewAgentSeats } from "./seats/seats";
import { renewProducts } from "./products/products";
import { DEMO_EMAIL_DOMAIN, ensureDemoEmailDomain, ensureDemoEmailTemplates, usesLocalPeers } from "./email/demo";
import { recheckDueDomains } from "./email/domains";
import { startDispatchers } from "./dispatch/dispatcher";
import { startDispatchSweep } from "./dispatch/recovery";
import { startRelay } from "./dispatch/relay";
import { startConnectionLinks } from "./channels/provider-connections";
import { runImport, sweepImports } from "./imports/job";
import { IMPORT_STREAM } from "./imports/services";
import { runLookupList, sweepLookupLists } from "./lookup/job";
import { LOOKUP_STREAM } from "./lookup/services";
import { failEvent, INTEGRATION_STREAM, processEvent, sweepIntegrationEvents } from "./integrations/events";
import { channels, dispatchStream } from "./channels/registry";
import { CLOSE_SETTLE_MS, runBilling } from "./billing/cycles";
import { every } from "./jobs/every";
import { pruneAppLogs } from "./app-logs/record";
import { everyOnce } from "./jobs/lease";
import { ensureDemoWhatsapp, usesLoopbackPeer } from "./whatsapp/demo";
import { sweepPolledTemplates } from "./whatsapp/templates";
import { startConsumer } from "./jobs/runner";
import { env } from "./lib/env";
import { publishJob } from "./jobs/publish";
import { deliverMail, sweepQueuedMail } from "./mail/deliver";
import { MAIL_STREAM } from "./mail/enqueue";
import { maintainPartitions } from "./messages/partitions";
import { reconcileSent } from "./messages/reconcile";
import { sweepIdempotencyKeys } from "./sms/idempotency";
import { sweepStagedFiles } from "./sms/recipients-file";
import { releaseDue } from "./sms/release";
import { failExport, runExport, sweepExports } from "./sms/export-job";
import { EXPORT_STREAM } from "./sms/exports";
import { startWebhookWorkers } from "./webhooks/worker";
import { releaseAbsentAgents, sweepIdle } from "./live/rooms/sweeps";
import { startLiveOutbound } from "./live/outbound";
import { startFlowRunner, sweepFlows } from "./flows/runtime";
import { startClickWriter } from "./shortener/clicks";
import { DUE_SWEEP_MS, notifyDueTasks } from "./pipelines/due-tasks";
import { syncDue as syncReclameAqui } from "./ra/services";
import { initModels } from "../models";
import { watchReadReplica } from "./lib/read-replica";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();
// The read replica (ADR 030), when configured, is measured from the start: its state is logged now, not at the first report.
void watchReadReplica();

env();
const consumers = [
  startConsumer({ stream: MAIL_STREAM, group: "mailers", handler: (f) => deliverMail(f.id) }),
  // One import at a time per worker process (each is CPU- and database-heavy); more workers, more in parallel.
  startConsumer({ stream: IMPORT_STREAM, group: "importers", batch: 1, handler: (f, meta) => runImport(f.id, meta.touch) }),
  // Number lookup lists (issue 22, ADR 058): one list at a time per shard, in provider batches.
  startConsumer({ stream: LOOKUP_STREAM, group: "lookups", batch: 1, handler: (f, meta) => runLookupList(f.id, meta.touch) }),
  // Integrations (ADR 066): an e-commerce order event read at the store and sent to the buyer; a store that stays down fails the event.
  startConsumer({
    stream: INTEGRATION_STREAM,
    group: "integrations",
    concurrency: 4,
    maxAttempts: 5,
    handler: (f) => processEvent(f.id),
    onDead: (f) => failEvent(f.id).then(() => undefined),
  }),
  // Message pipeline step 2: one consumer group per channel stream, fed by the outbox relay.
  ...startDispatchers(),
  // SMS history exports: one at a time per worker (PostgreSQL streams the CSV; the worker copies bytes).
  startConsumer({
    stream: EXPORT_STREAM,
    group: "exporters",
    batch: 1,
    maxAttempts: 3,
    handler: (f, meta) => runExport(f.id, meta.touch),
    onDead: (f, reason) => failExport(f.id, reason),
  }),
  // Live chat: agents' messages to Telegram, Messenger and Instagram visitors (ADR 017).
  startLiveOutbound(),
  // Flows (ADR 054): each entry {stream_id} runs the stream's pending inputs in one transaction.
  startFlowRunner(),
  // Short links' clicks (ADR 057): the redirect host's stream written to PostgreSQL in batches.
  startClickWriter(),
];
const relay = startRelay();
// Lost stream entries (Redis restart) published again; finished campaigns marked completed.
const dispatchSweep = startDispatchSweep();
// Provider links (SMPP binds) stay open so receipts and inbound SMS flow (ADR 011).
const providerLinks = startConnectionLinks();
// Customer webhooks: fan-out of `webhooks:events` into deliveries, and the signed POSTs with retries.
const webhooks = startWebhookWorkers();

// Periodic sweeps (./jobs/every: one run at a time per process, failures logged by name). Those
// that scan and re-announce, or ask providers, run once per period across all workers
// (./jobs/lease everyOnce); the others share the work safely (SKIP LOCKED, conditional writes).
const graceMs = env().LIVE_DISCONNECT_GRACE_SECONDS * 1000;
const sweeps = [
  everyOnce("mail sweep", env().MAIL_SWEEP_SECONDS * 1000, () => sweepQueuedMail((id) => publishJob(MAIL_STREAM, id, { id }))),
  every("import sweep", env().IMPORT_SWEEP_SECONDS * 1000, sweepImports),
  every("lookup sweep", env().IMPORT_SWEEP_SECONDS * 1000, sweepLookupLists),
  everyOnce("integration events sweep", env().IMPORT_SWEEP_SECONDS * 1000, sweepIntegrationEvents),
  everyOnce("idempotency key sweep", env().IDEMPOTENCY_SWEEP_SECONDS * 1000, sweepIdempotencyKeys),
  // Scheduled messages: released when due.
  every("schedule release", env().SCHEDULE_SWEEP_MS, releaseDue),
  // Messages left `sent` (receipt lost or late): asked at their provider, expired after their validity.
  everyOnce("reconciliation sweep", env().RECONCILE_SWEEP_SECONDS * 1000, reconcileSent),
  everyOnce("staged SMS files sweep", 10 * 60_000, sweepStagedFiles),
  // Live chat: open rooms whose visitor stopped answering the agent become idle contacts.
  every("live idle sweep", env().LIVE_IDLE_SWEEP_MS, sweepIdle),
  // Live chat: rooms waiting for an agent who has had no live connection for the grace time go back to
  // the queue. Checked four times per grace (between 0.25 s and 5 s) so the delay stays near the grace.
  every("live absent-agent sweep", Math.min(5_000, Math.max(250, graceMs / 4)), () => releaseAbsentAgents(graceMs)),
  everyOnce("sms export sweep", 15_000, sweepExports),
  // Flows: due timers (delays, question timeouts) woken, and streams whose wake-up Redis lost announced again.
  everyOnce("flow sweep", env().FLOW_SWEEP_MS, () => sweepFlows()),
  // Billing (ADR 044): postpaid cycles closed at their São Paulo midnight into one invoice each, overdue invoices
  // failed and their accounts suspended. Once per period across workers (it asks the payment provider for charges);
  // the job itself locks what it closes (SKIP LOCKED) and a period's invoice is unique, so two runs never bill twice.
  everyOnce("billing cycles", env().BILLING_SWEEP_SECONDS * 1000, () => runBilling(new Date(Date.now() - CLOSE_SETTLE_MS))),
  every("whatsapp template review sweep", env().WHATSAPP_TEMPLATE_SWEEP_MS, sweepPolledTemplates),
  // E-mail sending domains: their DNS rechecked when due (claimed per domain: workers side by side check each once).
  every("email domain recheck", env().EMAIL_DOMAIN_SWEEP_MS, () => recheckDueDomains()),
  // Plans that renew: the next period's fee debited when one ends (rows locked, SKIP LOCKED: paid once); ADR 045.
  every("plan renewals", 60_000, () => renewPlans()),
  // Agent seats: each paid at its São Paulo month's start (rows locked, SKIP LOCKED: once per seat and month); ADR 047.
  every("agent seat renewals", 60_000, () => renewAgentSeats()),
  // Products per customer: each weekly/biweekly/monthly product charged at its period's end (rows locked, SKIP LOCKED, the old period end in the UPDATE: once per period); ADR 048.
  every("product renewals", 60_000, () => renewProducts()),
  // messages / message_events partitions: months created ahead; months past the plans' retention exported,
  // verified, detached and dropped. One run over all workers (advisory lock); ADR 029.
  // Workflow boards: due tasks notify their owner (rows locked, SKIP LOCKED, notified_at stamped with the notification: once per due time).
  every("pipeline due tasks", DUE_SWEEP_MS, () => notifyDueTasks()),
  // /admin/logs' store kept bounded (ADR 062): 30 days, at most 100,000 rows. Idempotent: workers side by side may both run it.
  every("app log retention", 10 * 60_000, () => pruneAppLogs()),
  every("message partitions", env().MESSAGE_PARTITIONS_SWEEP_SECONDS * 1000, maintainPartitions),
  // Reclame Aqui: each connected account's complaints imported again every RA_SYNC_SECONDS (one worker at a time; ADR 067).
  everyOnce("reclame aqui sync", Math.min(60_000, env().RA_SYNC_SECONDS * 1000), () => syncReclameAqui(env().RA_SYNC_SECONDS * 1000)),
];
// Partitions ahead from the start, not an hour later.
void sweeps[sweeps.length - 1].kick();

// Development with the loopback WhatsApp peer: the demo account's number and templates (api/whatsapp/demo.ts),
// tried until the api, web and simulator answer (Meta's handshake goes through them), then not again.
if (usesLoopbackPeer()) {
  void (async () => {
    for (let attempt = 1; attempt <= 60; attempt++) {
      try {
        const done = await ensureDemoWhatsapp();
        if (done !== "skipped") console.log(`whatsapp demo number: ${done}`);
        return;
      } catch (e) {
        if (attempt === 60) console.warn(`whatsapp demo number: not connected (${(e as Error).message})`);
        await new Promise((r) => setTimeout(r, 3000).unref?.());
      }
    }
  })();
}

// Development with the simulator: the demo account's sending domain, validated on its DNS peer (api/email/demo.ts).
if (usesLocalPeers()) {
  void (async () => {
    for (let attempt = 1; attempt <= 60; attempt++) {
      try {
        const done = await ensureDemoEmailDomain();
        if (done !== "skipped") console.log(`e-mail demo domain ${DEMO_EMAIL_DOMAIN}: ${done}`);
        const made = await ensureDemoEmailTemplates();
        if (made) console.log(`e-mail demo templates: ${made} made from the library`);
        return;
      } catch (e) {
        if (attempt === 60) console.warn(`e-mail demo domain: not validated (${(e as Error).message})`);
        await new Promise((r) => setTimeout(r, 3000).unref?.());
      }
    }
  })();
}

console.log(
  `worker consuming ${MAIL_STREAM}, ${IMPORT_STREAM}, ${channels().map(dispatchStream).join(", ")}; outbox relay every ${env().OUTBOX_POLL_MS} ms (smtp: ${env().SMTP_URL ? "on" : "off, local outbox"})`,
);

async function shutdown() {
  await Promise.all(sweeps.map((s) => s.stop()));
  await dispatchSweep.stop();
  providerLinks.stop();
  await relay.stop();
  await webhooks.stop();
  await Promise.all(consumers.map((c) => c.stop()));
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
