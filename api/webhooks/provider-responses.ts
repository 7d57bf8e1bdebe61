/**
 * The success answer of POST /api/webhooks/providers/{provider} (./routes providerWebhookRoutes):
 * the outcome of a receipt (api/messages/receipts.ts) or an inbound SMS (api/messages/inbound.ts),
 * or, for a batch, their outcomes in order. A TypeBox schema for the OpenAPI document.
 */
import { t } from "elysia";

const MessageStatus = t.String({ description: "A status of spec section 4 (sent, delivered, failed…)" });
const messageId = t.String({ format: "uuid", description: "Our message's id" });

const ReceiptOutcome = t.Union([
  t.Object({ result: t.Literal("ignored", { description: "No message of ours has that provider id" }) }),
  t.Object({ result: t.Literal("duplicate", { description: "This event (or this status) was already applied" }), messageId, status: MessageStatus }),
  t.Object({ result: t.Literal("unchanged", { description: "The status would go backwards: kept" }), messageId, status: MessageStatus }),
  t.Object({ result: t.Literal("applied"), messageId, status: MessageStatus, previous: MessageStatus }),
]);

const InboundOutcome = t.Union([
  t.Object({ result: t.Literal("unrouted", { description: "No account owns the number it was sent to" }) }),
  t.Object({ result: t.Literal("duplicate"), messageId }),
  t.Object({
    result: t.Literal("stored"),
    messageId,
    accountId: t.String({ format: "uuid" }),
    keyword: t.Union([
      t.Object({ action: t.Union([t.Literal("optout"), t.Literal("resume")]), keyword: t.String() }, { description: "An opt-out or resume keyword it carried (and acted on)" }),
      t.Null(),
    ]),
  }),
]);

const Outcome = t.Union([ReceiptOutcome, InboundOutcome]);

export const ProviderWebhookAnswer = t.Union([Outcome, t.Object({ results: t.Array(Outcome, { description: "A batch: one outcome per item, in order" }) })]);
