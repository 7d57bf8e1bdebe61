import type { MigrationFn } from "../migrate";

/**
 * Customer-facing webhook event ids must not reveal a global counter (issue 12 item 16): the
 * message.status_changed event id was `evt_ms_<message_events.id>`, a bigserial shared by every
 * account, so a customer could read the platform's traffic off two of its own events. Each event
 * row gets a random public id; the serial stays the internal key (the outbox and ordering use it).
 * The id is fixed per row, so a redelivered outbox entry still builds the same event id and the
 * (endpoint, event id) uniqueness of webhook_deliveries keeps the fan-out idempotent.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE message_events ADD COLUMN public_id uuid NOT NULL DEFAULT gen_random_uuid();`);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE message_events DROP COLUMN IF EXISTS public_id;`);
};
