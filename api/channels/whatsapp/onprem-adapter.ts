/**
 * The older WhatsApp integration (a BSP's client in the On-Premises API shape, ADR 035) behind the
 * one channel contract (api/channels/contract.ts), provider `whatsapp_onprem`: the dispatcher hands
 * it a message of channel `whatsapp` whose sender is an onprem number's phone number (digits) and
 * whose content is Graph's message object (api/whatsapp/send.ts wrote it, whichever integration);
 * it is sent to the number's client, logged in with the number's own credentials
 * (./onprem.ts: token kept until it expires, renewed on a 401), as the On-Premises API takes it —
 * a template with the number's template namespace and the deterministic language policy.
 *
 * A client older than v2.39 refuses a contact it never checked (1006 "unknown contact"): the
 * contact is checked (POST /v1/contacts, blocking) and the message sent once more. The client
 * refusing the message (a 4xx: 1013 user not valid, a parameter refused…) fails it for good with
 * its code (whatsapp_<code>) and refunds it; no answer, a 5xx or 429 is transient and retried.
 * Statuses come back by the number's webhook (api/whatsapp/onprem-webhooks.ts).
 */
import { onpremConnection } from "../../whatsapp/integrations";
import { ownNumberByPhone } from "../../whatsapp/numbers";
import { PermanentSendError, type ChannelAdapter } from "../contract";
import { ONPREM_PROVIDER } from "./adapter";
import { checkOnpremContacts, onpremMessageBody, OnpremError, sendOnpremMessage, UNKNOWN_CONTACT } from "./onprem";

export const whatsappOnpremAdapter: ChannelAdapter = {
  channel: "whatsapp",
  provider: ONPREM_PROVIDER,
  capabilities: { text: true, media: true, deliveryReceipts: true, idempotentSubmit: false },
  configured: () => true,
  async send(message) {
    const number = await ownNumberByPhone(message.accountId, message.sender, "onprem");
    if (!number) throw new PermanentSendError("whatsapp_number_gone", "The WhatsApp number was disconnected before the message went out");
    const content = message.content && typeof message.content === "object" ? (message.content as Record<string, unknown>) : { type: "text", text: { body: message.body } };
    const body = onpremMessageBody(content, number.template_namespace);
    if (!body) throw new PermanentSendError("whatsapp_no_namespace", "The number's template namespace is not known yet (the BSP names it with the number's templates)");
    const connection = onpremConnection(number);
    try {
      try {
        return { providerMessageId: await sendOnpremMessage(connection, message.recipient, body) };
      } catch (e) {
        if (!(e instanceof OnpremError && e.code === UNKNOWN_CONTACT)) throw e;
        await checkOnpremContacts(connection, [message.recipient]);
        return { providerMessageId: await sendOnpremMessage(connection, message.recipient, body) };
      }
    } catch (e) {
      if (e instanceof OnpremError && e.permanent) throw new PermanentSendError(`whatsapp_${e.code ?? e.status}`, e.message);
      throw e;
    }
  },
};
