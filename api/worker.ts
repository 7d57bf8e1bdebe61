/** The worker process: Redis Streams consumers for background jobs. */
import { startDispatchers } from "./dispatch/dispatcher";
import { startRelay } from "./dispatch/relay";
import { runImport, sweepImports } from "./imports/job";
import { IMPORT_STREAM } from "./imports/services";
import { channels, dispatchStream } from "./channels/registry";
import { startConsumer } from "./jobs/runner";
import { env } from "./lib/env";
import { key, redis } from "./lib/redis";
import { deliverMail, sweepQueuedMail } from "./mail/deliver";
import { MAIL_STREAM } from "./mail/enqueue";
import { startWebhookWorkers } from "./webhooks/worker";

env();
const consumers = [
  startConsumer({ stream: MAIL_STREAM, group: "mailers", handler: (f) => deliverMail(f.id) }),
  // One import at a time per worker process (each is CPU- and database-heavy); more workers, more in parallel.
  startConsumer({ stream: IMPORT_STREAM, group: "importers", batch: 1, handler: (f, meta) => runImport(f.id, meta.touch) }),
  // Message pipeline step 2: one consumer group per channel stream, fed by the outbox relay.
  ...startDispatchers(),
];
const relay = startRelay();
// Customer webhooks: fan-out of `webhooks:events` into deliveries, and the signed POSTs with retries.
const webhooks = startWebhookWorkers();

const sweep = setInterval(() => {
  sweepQueuedMail((id) => redis().xadd(key(MAIL_STREAM), "*", "id", id)).catch((e) => console.error("mail sweep failed", e));
}, env().MAIL_SWEEP_SECONDS * 1000);
const importSweep = setInterval(() => {
  sweepImports().catch((e) => console.error("import sweep failed", e));
}, env().IMPORT_SWEEP_SECONDS * 1000);

console.log(`worker consuming ${MAIL_STREAM}, ${IMPORT_STREAM}, ${channels().map(dispatchStream).join(", ")}; outbox relay every ${env().OUTBOX_POLL_MS} ms (smtp: ${env().SMTP_URL ? "on" : "off, local outbox"})`);

async function shutdown() {
  clearInterval(sweep);
  clearInterval(importSweep);
  await relay.stop();
  await webhooks.stop();
  await Promise.all(consumers.map((c) => c.stop()));
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
