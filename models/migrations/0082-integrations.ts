import type { MigrationFn } from "../migrate";

/**
 * Integrations (issue 23, ADR 066): e-commerce platforms whose order events send a message to the
 * buyer (api/integrations/).
 * - integrations: one installed platform of an account (`kind`, e.g. nuvemshop), the store it is
 *   (`external_id`: one account per store and kind), its plain settings and its secrets sealed
 *   (api/lib/crypto.ts seal of a JSON object: the store's token and the app's webhook secret).
 * - integration_rules: per event (order/created, order/paid, order/fulfilled) the channel and the
 *   text (with {{variables}}) sent to the buyer, and whether it is on.
 * - integration_events: every event received, once per store + order + event (a retried webhook
 *   finds its row and sends nothing), what the worker did with it and the message it produced.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE integrations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('nuvemshop')),
      external_id text NOT NULL CHECK (char_length(external_id) BETWEEN 1 AND 64),
      name text NOT NULL DEFAULT '' CHECK (char_length(name) <= 200),
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'error')),
      status_detail text,
      settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      secrets text NOT NULL,
      last_event_at timestamptz,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (kind, external_id)
    );
    CREATE INDEX integrations_account_idx ON integrations(account_id, created_at DESC);

    CREATE TABLE integration_rules (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      integration_id uuid NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
      event text NOT NULL CHECK (event IN ('order/created', 'order/paid', 'order/fulfilled')),
      channel text NOT NULL CHECK (channel IN ('sms', 'email', 'whatsapp')),
      subject text NOT NULL DEFAULT '' CHECK (char_length(subject) <= 200),
      text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 1000),
      enabled boolean NOT NULL DEFAULT true,
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (integration_id, event)
    );

    CREATE TABLE integration_events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      integration_id uuid NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
      event text NOT NULL,
      order_id text NOT NULL CHECK (char_length(order_id) BETWEEN 1 AND 64),
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'skipped', 'failed')),
      order_number text,
      channel text,
      recipient text,
      text text,
      message_id uuid,
      error text,
      received_at timestamptz NOT NULL DEFAULT now(),
      processed_at timestamptz,
      UNIQUE (integration_id, order_id, event)
    );
    CREATE INDEX integration_events_list_idx ON integration_events(integration_id, received_at DESC, id DESC);
    CREATE INDEX integration_events_queued_idx ON integration_events(received_at) WHERE status = 'queued';
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS integration_events; DROP TABLE IF EXISTS integration_rules; DROP TABLE IF EXISTS integrations;`);
};
