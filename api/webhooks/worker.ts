/** The worker's part of customer webhooks: the fan-out consumer and the delivery sweep. */
import { startConsumer } from "../jobs/runner";
import { fanOut, WEBHOOK_EVENTS_STREAM } from "./events";
import { startWebhookSender } from "./sender";

export function startWebhookWorkers() {
  const sender = startWebhookSender();
  const consumer = startConsumer({
    stream: WEBHOOK_EVENTS_STREAM,
    group: "webhook-fanout",
    batch: 50,
    handler: async (fields) => {
      if ((await fanOut(fields)) > 0) sender.wake();
    },
  });
  return {
    async stop() {
      await Promise.all([consumer.stop(), sender.stop()]);
    },
  };
}
