/** The worker process: Redis Streams consumers for background jobs. */
import { startConsumer } from "./jobs/runner";
import { env } from "./lib/env";
import { key, redis } from "./lib/redis";
import { deliverMail, sweepQueuedMail } from "./mail/deliver";
import { MAIL_STREAM } from "./mail/enqueue";

env();
const consumers = [startConsumer({ stream: MAIL_STREAM, group: "mailers", handler: (f) => deliverMail(f.id) })];

const sweep = setInterval(() => {
  sweepQueuedMail((id) => redis().xadd(key(MAIL_STREAM), "*", "id", id)).catch((e) => console.error("mail sweep failed", e));
}, env().MAIL_SWEEP_SECONDS * 1000);

console.log(`worker consuming ${MAIL_STREAM} (smtp: ${env().SMTP_URL ? "on" : "off, local outbox"})`);

async function shutdown() {
  clearInterval(sweep);
  await Promise.all(consumers.map((c) => c.stop()));
  process.exit(0);
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
