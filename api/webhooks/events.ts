/**
 * Fan-out of account events into webhook deliveries (worker, consumer of `webhooks:events`).
 * The outbox rows come from the database triggers of migration 0019 (a message_events insert, an
 * inbound messages insert); each entry lists row ids of one account. For each row we build the
 * event exactly once from what the database recorded, and insert one delivery per matching
 * enabled endpoint — idempotent on (endpoint, event id), so a redelivered entry adds nothing.
 */
import { randomUUID } from "node:crypto";
import { DEFAULT_LOCALE } from "../lib/i18n";
import { errorMessageText } from "../sms/error-message";
import { TEST_EVENT_TYPE } from "./schemas";
import { rows } from "../lib/sql";

export const WEBHOOK_EVENTS_STREAM = "webhooks:events";

export type WebhookEvent = { id: string; type: string; payload: { type: string; timestamp: string; data: Record<string, unknown> } };

type EventRow = {
  id: string;
  public_id: string;
  message_id: string;
  status: string;
  source: string;
  payload: Record<string, unknown>;
  created_at: Date;
  channel: string;
  direction: string;
  sender: string;
  recipient: string;
  campaign_id: string | null;
};

type InboundRow = {
  id: string;
  channel: string;
  sender: string;
  recipient: string;
  body: string;
  segments: number;
  created_at: Date;
  status: string;
  content: { suggestionResponse?: { postbackData?: unknown } } | null;
};

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

/** message.status_changed events of outbound messages, from their message_events rows. */
async function statusEvents(accountId: string, ids: string[]): Promise<WebhookEvent[]> {
  const found = await rows<EventRow>(
    `SELECT e.id::text, e.public_id, e.message_id, e.status, e.source, e.payload, e.created_at, m.channel, m.direction, m.sender, m.recipient, m.campaign_id
     FROM message_events e JOIN messages m ON m.id = e.message_id AND m.created_at = e.message_created_at
     WHERE e.account_id = $1 AND e.id = ANY($2::bigint[]) AND m.direction = 'outbound' ORDER BY e.id`,
    [accountId, ids],
  );
  return found.map((r) => {
    const p = r.payload ?? {};
    return {
      // The row's random public id, never the serial (a counter shared by every account: issue 12 item 16).
      id: `evt_ms_${r.public_id}`,
      type: "message.status_changed",
      payload: {
        type: "message.status_changed",
        timestamp: new Date(r.created_at).toISOString(),
        data: {
          message_id: r.message_id,
          channel: r.channel,
          from: r.sender,
          to: r.recipient,
          status: r.status,
          previous_status: str(p.previous),
          source: r.source,
          error_code: str(p.error_code) ?? str(p.reason),
          // Our reasons are stored as locale keys (moderation.held, errors.MESSAGE_CANCELED): the
          // receiver names no language, so it reads them in the platform's (pt-BR); error_code is
          // the stable code a program branches on.
          error_message: errorMessageText(str(p.error_message), DEFAULT_LOCALE) ?? null,
          occurred_at: str(p.occurred_at) ?? new Date(r.created_at).toISOString(),
          campaign_id: r.campaign_id,
        },
      },
    };
  });
}

/** message.received events of inbound messages. */
async function inboundEvents(accountId: string, ids: string[]): Promise<WebhookEvent[]> {
  const found = await rows<InboundRow>(
    `SELECT id, channel, sender, recipient, body, segments, created_at, status, content FROM messages
     WHERE account_id = $1 AND id = ANY($2::uuid[]) AND direction = 'inbound' ORDER BY created_at, id`,
    [accountId, ids],
  );
  return found.map((r) => ({
    id: `evt_mr_${r.id}`,
    type: "message.received",
    payload: {
      type: "message.received",
      timestamp: new Date(r.created_at).toISOString(),
      data: {
        message_id: r.id,
        channel: r.channel,
        from: r.sender,
        to: r.recipient,
        body: r.body,
        segments: r.segments,
        status: r.status,
        received_at: new Date(r.created_at).toISOString(),
        // An RCS suggestion the user tapped: the postbackData the message's author gave it.
        ...(typeof r.content?.suggestionResponse?.postbackData === "string" ? { postback_data: r.content.suggestionResponse.postbackData } : {}),
      },
    },
  }));
}

/** Inserts one delivery per (event, matching enabled endpoint); returns how many are new. */
export async function createDeliveries(accountId: string, events: WebhookEvent[], onlyEndpointId?: string): Promise<number> {
  if (events.length === 0) return 0;
  const found = await rows<{ id: string }>(
    `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, payload, next_attempt_at)
     SELECT w.id, w.account_id, ev.id, ev.type, ev.payload, now()
     FROM unnest($2::text[], $3::text[], $4::jsonb[]) AS ev(id, type, payload)
     JOIN webhook_endpoints w ON w.account_id = $1 AND (w.enabled OR $5::uuid IS NOT NULL)
       AND ($5::uuid IS NULL OR w.id = $5::uuid)
       AND (ev.type = ANY(w.events) OR '*' = ANY(w.events) OR ev.type = '${TEST_EVENT_TYPE}')
     ON CONFLICT (endpoint_id, event_id) DO NOTHING
     RETURNING id`,
    [accountId, events.map((e) => e.id), events.map((e) => e.type), events.map((e) => JSON.stringify(e.payload)), onlyEndpointId ?? null],
  );
  return found.length;
}

/** Handles one `webhooks:events` entry ({kind, account_id, ids}). */
export async function fanOut(fields: Record<string, string>): Promise<number> {
  const accountId = fields.account_id;
  if (!/^[0-9a-f-]{36}$/i.test(accountId ?? "")) return 0;
  let ids: string[] = [];
  try {
    ids = (JSON.parse(fields.ids ?? "[]") as unknown[]).map(String);
  } catch {
    return 0;
  }
  if (ids.length === 0) return 0;
  if (fields.kind === "message_events") return createDeliveries(accountId, await statusEvents(accountId, ids));
  if (fields.kind === "inbound") return createDeliveries(accountId, await inboundEvents(accountId, ids));
  return 0;
}

/** A `webhook.test` event for one endpoint (sent even to a disabled one? no: it waits until enabled). */
export function testEvent(endpointId: string): WebhookEvent {
  const id = `evt_test_${randomUUID()}`;
  return {
    id,
    type: TEST_EVENT_TYPE,
    payload: { type: TEST_EVENT_TYPE, timestamp: new Date().toISOString(), data: { endpoint_id: endpointId, message: "This is a test event from Mensageria." } },
  };
}
