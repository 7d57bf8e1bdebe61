/** The worker process: Redis Streams consumers for background jobs. */
import { startDispatchers } from "./dispatch/dispatcher";
import { startDispatchSweep } from "./dispatch/recovery";
import { startRelay } from "./dispatch/relay";
import { startConnectionLinks } from "./channels/connections";
import { runImport, sweepImports } from "./imports/job";
import { IMPORT_STREAM } from "./imports/services";
import { channels, dispatchStream } from "./channels/registry";
import { startConsumer } from "./jobs/runner";
import { env } from "./lib/env";
import { key, redis } from "./lib/redis";
import { deliverMail, sweepQueuedMail } from "./mail/deliver";
import { MAIL_STREAM } from "./mail/enqueue";
import { reconcileSent } from "./messages/reconcile";
import { sweepIdempotencyKeys } from "./sms/idempotency";
import { sweepStagedFiles } from "./sms/recipients-file";
import { releaseDue } from "./sms/release";
import { failExport, runExport, sweepExports } from "./sms/export-job";
import { EXPORT_STREAM } from "./sms/exports";
import { startWebhookWorkers } from "./webhooks/worker";
import { releaseAbsentAgents, sweepIdle } from "./live/rooms";
import { startLiveOutbound } from "./live/outbound";

env();
const consumers = [
  startConsumer({ stream: MAIL_STREAM, group: "mailers", handler: (f) => deliverMail(f.id) }),
  // One import at a time per worker process (each is CPU- and database-heavy); more workers, more in parallel.
  startConsumer({ stream: IMPORT_STREAM, group: "importers", batch: 1, handler: (f, meta) => runImport(f.id, meta.touch) }),
  // Message pipeline step 2: one consumer group per channel stream, fed by the outbox relay.
  ...startDispatchers(),
  // SMS history exports: one at a time per worker (PostgreSQL streams the CSV; the worker copies bytes).
  startConsumer({ stream: EXPORT_STREAM, group: "exporters", batch: 1, maxAttempts: 3, handler: (f, meta) => runExport(f.id, meta.touch), onDead: (f, reason) => failExport(f.id, reason) }),
  // Live chat: agents' messages to Telegram, Messenger and Instagram visitors (ADR 017).
  startLiveOutbound(),
];
const relay = startRelay();
// Lost stream entries (Redis restart) published again; finished campaigns marked completed.
const dispatchSweep = startDispatchSweep();
// Provider links (SMPP binds) stay open so receipts and inbound SMS flow (ADR 011).
const providerLinks = startConnectionLinks();
// Customer webhooks: fan-out of `webhooks:events` into deliveries, and the signed POSTs with retries.
const webhooks = startWebhookWorkers();

const sweep = setInterval(() => {
  sweepQueuedMail((id) => redis().xadd(key(MAIL_STREAM), "*", "id", id)).catch((e) => console.error("mail sweep failed", e));
}, env().MAIL_SWEEP_SECONDS * 1000);
const importSweep = setInterval(() => {
  sweepImports().catch((e) => console.error("import sweep failed", e));
}, env().IMPORT_SWEEP_SECONDS * 1000);
const idempotencySweep = setInterval(() => {
  sweepIdempotencyKeys().catch((e) => console.error("idempotency key sweep failed", e));
}, env().IDEMPOTENCY_SWEEP_SECONDS * 1000);

// Scheduled messages: released when due (one run at a time in this process; other workers are safe by SKIP LOCKED).
let releasing = false;
const scheduleSweep = setInterval(() => {
  if (releasing) return;
  releasing = true;
  releaseDue()
    .catch((e) => console.error("schedule release failed", e))
    .finally(() => (releasing = false));
}, env().SCHEDULE_SWEEP_MS);
// Messages left `sent` (receipt lost or late): asked at their provider, expired after their validity.
let reconciling = false;
const reconcileSweep = setInterval(() => {
  if (reconciling) return;
  reconciling = true;
  reconcileSent()
    .catch((e) => console.error("reconciliation sweep failed", e))
    .finally(() => (reconciling = false));
}, env().RECONCILE_SWEEP_SECONDS * 1000);
const stagedSweep = setInterval(() => {
  sweepStagedFiles().catch((e) => console.error("staged SMS files sweep failed", e));
}, 10 * 60_000);
// Live chat: open rooms whose visitor stopped answering the agent become idle contacts.
const liveIdleSweep = setInterval(() => {
  sweepIdle().catch((e) => console.error("live idle sweep failed", e));
}, env().LIVE_IDLE_SWEEP_MS);
// Live chat: rooms waiting for an agent who has had no live connection for the grace time go back to
// the queue. Checked four times per grace (between 0.25 s and 5 s) so the delay stays near the grace.
const graceMs = env().LIVE_DISCONNECT_GRACE_SECONDS * 1000;
let releasingAbsent = false;
const liveAbsentSweep = setInterval(() => {
  if (releasingAbsent) return;
  releasingAbsent = true;
  releaseAbsentAgents(graceMs)
    .catch((e) => console.error("live absent-agent sweep failed", e))
    .finally(() => (releasingAbsent = false));
}, Math.min(5_000, Math.max(250, graceMs / 4)));
const exportSweep = setInterval(() => {
  sweepExports().catch((e) => console.error("sms export sweep failed", e));
}, 15_000);

console.log(`worker consuming ${MAIL_STREAM}, ${IMPORT_STREAM}, ${channels().map(dispatchStream).join(", ")}; outbox relay every ${env().OUTBOX_POLL_MS} ms (smtp: ${env().SMTP_URL ? "on" : "off, local outbox"})`);

async function shutdown() {
  clearInterval(sweep);
  clearInterval(liveIdleSweep);
  clearInterval(liveAbsentSweep);
  clearInterval(importSweep);
  clearInterval(idempotencySweep);
  clearInterval(scheduleSweep);
  clearInterval(stagedSweep);
  clearInterval(reconcileSweep);
  clearInterval(exportSweep);
  dispatchSweep.stop();
  providerLinks.stop();
  await relay.stop();
  await webhooks.stop();
  await Promise.all(consumers.map((c) => c.stop()));
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
