/**
 * The WhatsApp Cloud API behind the one channel contract (api/channels/contract.ts): the
 * dispatcher hands it a message of channel `whatsapp` whose sender is the number's phone number id
 * and whose content is Graph's message object (api/whatsapp/send.ts wrote it); it sends with the
 * number's own token. Graph refusing the message (a 4xx: a number not on WhatsApp, a template not
 * approved, a window closed meanwhile — Meta's code kept) fails it for good and refunds it; a
 * network error, a 5xx or 429 is transient and retried. Statuses come back by the number's
 * signed webhook (api/whatsapp/webhooks.ts), not through `webhooks` here.
 */
import { ownNumberByPhone } from "../../whatsapp/numbers";
import { PermanentSendError, type ChannelAdapter } from "../contract";
import { GraphError, sendCloudMessage } from "./cloud";

export const CLOUD_PROVIDER = "whatsapp_cloud";
/** The older integration's provider (a BSP speaking the On-Premises API shape). */
export const ONPREM_PROVIDER = "whatsapp_onprem";

/** The provider name of a number's integration: what its messages and receipts are keyed by. */
export const whatsappProvider = (integration: "cloud" | "onprem") => (integration === "onprem" ? ONPREM_PROVIDER : CLOUD_PROVIDER);

export const whatsappCloudAdapter: ChannelAdapter = {
  channel: "whatsapp",
  provider: CLOUD_PROVIDER,
  capabilities: { text: true, media: true, deliveryReceipts: true, idempotentSubmit: false },
  configured: () => true,
  async send(message) {
    const number = await ownNumberByPhone(message.accountId, message.sender);
    if (!number) throw new PermanentSendError("whatsapp_number_gone", "The WhatsApp number was disconnected before the message went out");
    const content = message.content && typeof message.content === "object" ? (message.content as Record<string, unknown>) : { type: "text", text: { body: message.body } };
    try {
      return { providerMessageId: await sendCloudMessage(number.phone_number_id, number.secrets.access_token, message.recipient, content) };
    } catch (e) {
      if (e instanceof GraphError && e.permanent) throw new PermanentSendError(`whatsapp_${e.code ?? e.status}`, e.message);
      throw e;
    }
  },
};
