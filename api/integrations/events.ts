/**
 * An order event, from the platform's webhook to the buyer's message (issue 23, ADR 066, 072).
 *
 * receiveEvent (the public route POST /api/webhooks/integrations/{kind}): the body is read raw;
 * the store it names must be installed (404 otherwise) and the platform's signature over the raw
 * body must check with that integration's app secret (401 otherwise); then ONE row per store +
 * order + event (integration_events' unique key): a retried or repeated webhook finds its row and
 * is answered `duplicate` with nothing queued. A new row is announced on INTEGRATION_STREAM.
 *
 * processEvent (the worker): reads the order at the store through the guarded client, fills the
 * event's rule ({{first_name}}, {{order_number}}, {{total}}, {{tracking_code}}, {{store}}: the
 * text of an SMS or e-mail rule, the template parameters of a WhatsApp one) and sends it to the
 * buyer on the rule's channel (./channels.ts RULE_CHANNELS: the channel's own
 * accept use-case, as the account's first owner, with the event's Idempotency-Key, so a job run
 * twice writes one message). The row then names the message, or why nothing was sent (rule off,
 * no address of that kind on the order, the send refused). A store that does not answer is
 * retried by the stream (maxAttempts), then the row is failed (onDead).
 */
import { loadActor } from "../auth/actor";
import { publishJob } from "../jobs/publish";
import { AppError, isAppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { exec, row, rows } from "../lib/sql";
import { RULE_CHANNELS, type RuleSettings } from "./channels";
import { type Order, platform } from "./platform";
import { orderVariables } from "./render";
import { openSecrets } from "./services";
import type { RuleTemplate } from "./whatsapp-rule";

export const INTEGRATION_STREAM = "jobs:integrations";
/** A store's event is small. */
export const MAX_EVENT_BYTES = 64 * 1024;

export type ReceiveResult = { result: "queued" | "duplicate" | "ignored"; event_id: string | null };

export async function receiveEvent(kind: string, rawBody: string, headers: Headers): Promise<ReceiveResult> {
  const p = platform(kind);
  if (!p) throw new AppError("NOT_FOUND");
  if (rawBody.length > MAX_EVENT_BYTES) throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
  }
  const e = p.parse(json);
  if (!e) throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
  const integration = await row<{ id: string; account_id: string; secrets: string }>(`SELECT id, account_id, secrets FROM integrations WHERE kind = $1 AND external_id = $2`, [
    kind,
    e.storeId,
  ]);
  if (!integration) throw new AppError("NOT_FOUND");
  if (!p.verify(rawBody, headers, openSecrets(integration.secrets))) throw new AppError("UNAUTHENTICATED");
  const event = p.events[e.event];
  if (!event) return { result: "ignored", event_id: null };
  const created = await row<{ id: string }>(
    `WITH touched AS (UPDATE integrations SET last_event_at = now() WHERE id = $2)
     INSERT INTO integration_events (account_id, integration_id, event, order_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (integration_id, order_id, event) DO NOTHING RETURNING id`,
    [integration.account_id, integration.id, event, e.orderId.slice(0, 64)],
  );
  if (!created) return { result: "duplicate", event_id: null };
  await publishJob(INTEGRATION_STREAM, created.id, { id: created.id });
  return { result: "queued", event_id: created.id };
}

export { orderVariables, renderRule } from "./render";

type Work = {
  id: string;
  account_id: string;
  integration_id: string;
  event: string;
  order_id: string;
  status: string;
  kind: string;
  external_id: string;
  name: string;
  settings: RuleSettings;
  secrets: string;
  channel: string | null;
  subject: string | null;
  text: string | null;
  template: RuleTemplate | null;
  number_id: string | null;
  enabled: boolean | null;
  owner: string | null;
};

const finish = (
  id: string,
  fields: {
    status: "sent" | "skipped" | "failed";
    error?: string | null;
    channel?: string | null;
    recipient?: string | null;
    text?: string | null;
    message_id?: string | null;
    order_number?: string | null;
  },
) =>
  exec(
    `UPDATE integration_events SET status = $2, error = $3, channel = coalesce($4, channel), recipient = coalesce($5, recipient), text = coalesce($6, text),
            message_id = coalesce($7, message_id), order_number = coalesce($8, order_number), processed_at = now()
      WHERE id = $1 AND status = 'queued'`,
    [id, fields.status, fields.error ?? null, fields.channel ?? null, fields.recipient ?? null, fields.text ?? null, fields.message_id ?? null, fields.order_number ?? null],
  );

const errorKey = (e: AppError) => Object.values(e.fields ?? {})[0]?.[0] ?? `errors.${e.code}`;

export async function processEvent(id: string): Promise<void> {
  if (!UUID.test(id)) return;
  const [w] = await rows<Work>(
    `SELECT e.id, e.account_id, e.integration_id, e.event, e.order_id, e.status, i.kind, i.external_id, i.name, i.settings, i.secrets,
            r.channel, r.subject, r.text, r.template, r.number_id, r.enabled,
            (SELECT user_id FROM memberships WHERE account_id = e.account_id AND role = 'owner' ORDER BY created_at LIMIT 1) AS owner
       FROM integration_events e
       JOIN integrations i ON i.id = e.integration_id
       LEFT JOIN integration_rules r ON r.integration_id = e.integration_id AND r.event = e.event
      WHERE e.id = $1`,
    [id],
  );
  if (!w || w.status !== "queued") return;
  if (!w.enabled || !w.channel) return void (await finish(id, { status: "skipped", error: "integrations.skip.ruleOff" }));
  const channel = Object.hasOwn(RULE_CHANNELS, w.channel) ? RULE_CHANNELS[w.channel as keyof typeof RULE_CHANNELS] : null;
  if (!channel) return void (await finish(id, { status: "skipped", error: "integrations.skip.ruleOff" }));
  let order: Order;
  try {
    order = await platform(w.kind)!.order(w.external_id, openSecrets(w.secrets), w.order_id);
  } catch (e) {
    // The store answered that it has no such order (or refused our token): nothing to send; anything else is retried.
    const status = (e as { status?: number }).status;
    if (status === 404 || status === 401 || status === 403) return void (await finish(id, { status: "failed", error: "integrations.errors.orderUnreadable" }));
    throw e;
  }
  const vars = orderVariables(order, w.name);
  const rule = { subject: w.subject ?? "", text: w.text ?? "", template: w.template, number_id: w.number_id };
  const text = channel.content(rule, vars);
  const to = channel.recipient(order);
  if (!to) return void (await finish(id, { status: "failed", error: `integrations.errors.noRecipient.${w.channel}`, channel: w.channel, text, order_number: order.number }));
  if (!w.owner) return void (await finish(id, { status: "failed", error: "errors.FORBIDDEN", channel: w.channel, text, order_number: order.number }));
  try {
    const actor = await loadActor(w.owner, w.account_id, { strict: true });
    const sent = await channel.send(actor, { to, rule, vars, fallbackSubject: w.name, settings: w.settings, idempotencyKey: `integration-event:${id}` });
    await finish(id, { status: "sent", channel: w.channel, recipient: to, text: sent.text, message_id: sent.id, order_number: order.number });
  } catch (e) {
    if (!isAppError(e) || e.status >= 500) throw e;
    await finish(id, { status: "failed", error: errorKey(e), channel: w.channel, recipient: to, text, order_number: order.number });
  }
}

/** The stream gave up on an event (its store never answered): the row says so. */
export const failEvent = (id: string) => finish(id, { status: "failed", error: "errors.PROVIDER_UNAVAILABLE" });

/** Events left queued (their announcement lost: Redis down at receipt, a crash before publishing): announced again. */
export async function sweepIntegrationEvents(): Promise<number> {
  const found = await rows<{ id: string }>(
    `SELECT id FROM integration_events WHERE status = 'queued' AND received_at < now() - interval '1 minute' ORDER BY received_at LIMIT 500`,
  );
  for (const r of found) await publishJob(INTEGRATION_STREAM, r.id, { id: r.id });
  return found.length;
}
