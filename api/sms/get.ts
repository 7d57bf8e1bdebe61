/** One SMS of the acting account with its history (GET /api/sms/messages/:id). */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { can } from "../policy/policy";
import { prepared, preparedRows } from "../lib/prepared";

/**
 * The message and its history in one round trip (a prepared statement: integrators poll this once
 * per message they sent, so it is planned once per connection).
 */
const ONE_MESSAGE = prepared(
  "sms-message",
  `SELECT m.*, COALESCE((SELECT json_agg(json_build_object('status', e.status, 'source', e.source, 'payload', e.payload, 'created_at', e.created_at) ORDER BY e.id)
                           FROM message_events e WHERE e.message_id = m.id AND e.message_created_at = m.created_at AND e.account_id = m.account_id), '[]') AS events
     FROM messages m WHERE m.id = $1 AND m.account_id = $2 AND m.channel = 'sms'`,
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Row = {
  id: string;
  direction: string;
  sender: string;
  recipient: string;
  body: string;
  segments: number;
  coding: string | null;
  status: string;
  route: string | null;
  provider: string | null;
  provider_message_id: string | null;
  error_code: string | null;
  error_message: string | null;
  price: string;
  currency: string;
  scheduled_at: Date | null;
  queued_at: Date | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  type: string;
  latitude: string | null;
  longitude: string | null;
  carrier: string | null;
  campaign_id: string | null;
};

export async function getSmsMessage(ctx: SignedInCtx, id: string) {
  if (!can(ctx.actor, "/sms/history")) throw new AppError("FORBIDDEN");
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const [m] = await preparedRows<Row & { events: Array<{ status: string; source: string; payload: Record<string, unknown>; created_at: string }> }>(ONE_MESSAGE, [
    id,
    ctx.actor.accountId,
  ]);
  if (!m) throw new AppError("NOT_FOUND");
  return {
    data: {
      id: m.id,
      direction: m.direction,
      from: m.sender,
      to: m.recipient,
      body: m.body,
      status: m.status,
      segments: m.segments,
      coding: m.coding,
      route: m.route,
      provider: m.provider,
      provider_message_id: m.provider_message_id,
      price: Number(m.price),
      currency: m.currency.trim(),
      type: m.type,
      latitude: m.latitude === null ? null : Number(m.latitude),
      longitude: m.longitude === null ? null : Number(m.longitude),
      carrier: m.carrier,
      campaign_id: m.campaign_id,
      error_code: m.error_code,
      error_message: m.error_message,
      scheduled_at: m.scheduled_at,
      queued_at: m.queued_at,
      sent_at: m.sent_at,
      delivered_at: m.delivered_at,
      read_at: m.read_at,
      failed_at: m.failed_at,
      created_at: m.created_at,
      updated_at: m.updated_at,
      events: m.events.map((e) => ({ status: e.status, source: e.source, created_at: new Date(e.created_at), details: e.payload })),
    },
  };
}
