/**
 * The worker's part of customer webhooks: the fan-out consumer, the sweep of event batches Redis
 * lost (./recovery), and the delivery sender.
 */
import { everyOnce } from "../jobs/lease";
import { startConsumer } from "../jobs/runner";
import { env } from "../lib/env";
import { fanOut, WEBHOOK_EVENTS_STREAM } from "./events";
import { markHandled, recoverLostEvents } from "./recovery";
import { startWebhookSender } from "./sender";

export function startWebhookWorkers() {
  const sender = startWebhookSender();
  const consumer = startConsumer({
    stream: WEBHOOK_EVENTS_STREAM,
    group: "webhook-fanout",
    batch: 50,
    // The stream then holds only unfinished work: what is in none of its entries and not handled was lost.
    deleteAcked: true,
    handler: async (fields) => {
      const created = await fanOut(fields);
      await markHandled(fields.outbox_id);
      if (created > 0) sender.wake();
    },
    // Redis lost the stream: every published, unhandled batch is announced again at once, whatever its age.
    onLost: () => recoverLostEvents(0),
  });
  const sweep = everyOnce("webhook events sweep", env().DISPATCH_SWEEP_SECONDS * 1000, () => recoverLostEvents());
  return {
    async stop() {
      await sweep.stop();
      await Promise.all([consumer.stop(), sender.stop()]);
    },
  };
}
