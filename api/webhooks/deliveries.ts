/**
 * Deliveries of an endpoint with their attempts, a manual retry, and a test event. Same
 * permission and tenancy as the endpoints (./endpoints).
 */
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { DEFAULT_LIMIT, decodeCursor, keyset } from "../lib/page";
import { validate } from "../lib/validate";
import { assertWebhooks, ownedEndpoint } from "./endpoints";
import { createDeliveries, testEvent } from "./events";
import { deliveriesQuerySchema } from "./schemas";
import { rows } from "../lib/sql";

export const DELIVERIES_PAGE = 20;

export type WebhookAttempt = { id: string; started_at: Date; duration_ms: number; status_code: number | null; error: string | null; response_excerpt: string };
export type WebhookDelivery = {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: unknown;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  succeeded_at: Date | null;
  attempt_log: WebhookAttempt[];
};

const COLUMNS = "id, endpoint_id, event_id, event_type, payload, status, attempts, next_attempt_at, last_status_code, last_error, created_at, succeeded_at";

async function withAttempts(deliveries: Omit<WebhookDelivery, "attempt_log">[]): Promise<WebhookDelivery[]> {
  if (deliveries.length === 0) return [];
  const attempts = await rows<WebhookAttempt & { delivery_id: string }>(
    `SELECT id::text, delivery_id, started_at, duration_ms, status_code, error, response_excerpt FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY id`,
    [deliveries.map((r) => r.id)],
  );
  return deliveries.map((r) => ({ ...r, attempt_log: attempts.filter((a) => a.delivery_id === r.id).map(({ delivery_id: _, ...a }) => a) }));
}

/**
 * Newest first, optionally one status. Paged by keyset (`cursor` = the previous answer's
 * next_cursor, `limit` rows, 20 by default here); the web screen's numbered `page` (without a
 * cursor) still works and also answers page, last_page and total.
 */
export async function listDeliveries(ctx: SignedInCtx, endpointId: string, input: unknown = {}) {
  assertWebhooks(ctx);
  await ownedEndpoint(ctx, endpointId);
  const q = validate(deliveriesQuerySchema, input ?? {});
  const bind: unknown[] = [endpointId, ctx.actor.accountId];
  let where = "endpoint_id = $1 AND account_id = $2";
  if (q.status) {
    bind.push(q.status);
    where += ` AND status = $${bind.length}`;
  }
  const size = q.limit === DEFAULT_LIMIT && !q.cursor ? DELIVERIES_PAGE : q.limit;
  const after = decodeCursor(q.cursor, ["string", "string"]);
  let offset = 0;
  let keyed = where;
  if (after) {
    bind.push(after[0], after[1]);
    keyed += ` AND (created_at, id) < ($${bind.length - 1}::timestamptz, $${bind.length}::uuid)`;
  } else offset = (q.page - 1) * size;
  const [[{ n }], found] = await Promise.all([
    rows<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE ${where}`, bind.slice(0, after ? -2 : undefined)),
    rows<Omit<WebhookDelivery, "attempt_log"> & { key_at: string }>(
      `SELECT ${COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS key_at
         FROM webhook_deliveries WHERE ${keyed} ORDER BY created_at DESC, id DESC LIMIT ${size + 1} OFFSET ${offset}`,
      bind,
    ),
  ]);
  const page = keyset(
    found,
    size,
    (r) => [r.key_at, r.id],
    ({ key_at: _, ...r }) => r,
  );
  return { data: await withAttempts(page.data), next_cursor: page.next_cursor, page: q.page, last_page: Math.max(1, Math.ceil(n / size)), total: n };
}

/** Sends the delivery again now (any status); a failed one gets one more attempt, then fails again if refused. */
export async function retryDelivery(ctx: SignedInCtx, deliveryId: string): Promise<{ data: WebhookDelivery }> {
  assertWebhooks(ctx);
  assertId(deliveryId);
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const [row] = await rows<Omit<WebhookDelivery, "attempt_log">>(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now()
       WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [deliveryId, ctx.actor.accountId],
      { transaction },
    );
    if (!row) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "webhook.delivery_retried", { meta: { id: deliveryId, endpoint_id: row.endpoint_id } });
    return { data: { ...row, attempt_log: [] } };
  });
}

/** Queues a `webhook.test` event for the endpoint (sent by the worker's next sweep). */
export async function sendTestEvent(ctx: SignedInCtx, endpointId: string): Promise<{ data: { event_id: string; delivery_id: string } }> {
  assertWebhooks(ctx);
  await ownedEndpoint(ctx, endpointId);
  const event = testEvent(endpointId);
  await createDeliveries(ctx.actor.accountId, [event], endpointId);
  const [row] = await rows<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2`, [endpointId, event.id]);
  if (!row) throw new AppError("NOT_FOUND");
  return { data: { event_id: event.id, delivery_id: row.id } };
}
