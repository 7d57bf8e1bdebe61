import type { MigrationFn } from "../migrate";

/**
 * Customer webhooks (issue 4; docs/decisions/012-webhooks-and-moderation.md).
 *
 * - webhook_endpoints: the URLs an account registers, the event types each wants ('*' = all) and
 *   its signing secret (sealed with api/lib/crypto seal(): we must sign, so it cannot be a hash).
 * - webhook_deliveries: one event for one endpoint (unique (endpoint, event id): fan-out is
 *   idempotent), with the exact payload sent on every attempt and the retry state
 *   (pending → succeeded | failed, next_attempt_at driving the sweep).
 * - webhook_attempts: every POST made, with its status code, duration, error and ≤ 1 KB of the answer.
 *
 * Getting events: every status change of a message writes a message_events row in the same
 * transaction as the change, and an inbound message is a messages row. Statement-level AFTER
 * INSERT triggers on both write one outbox row (topic `webhooks:events`) per statement and
 * account — only for accounts with an enabled endpoint — listing the new rows' ids. So the event
 * is announced if and only if the change commits, without touching the code that makes changes.
 * message_events rows the status machine did not apply (payload.applied = false: a late or
 * duplicate receipt) are history, not changes, and are not announced.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE webhook_endpoints (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      url text NOT NULL CHECK (length(url) BETWEEN 8 AND 2000),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 255),
      events text[] NOT NULL CHECK (cardinality(events) >= 1),
      secret_sealed text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints(account_id, created_at);
    CREATE INDEX webhook_endpoints_enabled_idx ON webhook_endpoints(account_id) WHERE enabled;

    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      event_id text NOT NULL,
      event_type text NOT NULL,
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','succeeded','failed')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at timestamptz,
      last_status_code integer,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      succeeded_at timestamptz,
      UNIQUE (endpoint_id, event_id)
    );
    CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries(next_attempt_at) WHERE status = 'pending';
    CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries(endpoint_id, created_at DESC, id DESC);

    CREATE TABLE webhook_attempts (
      id bigserial PRIMARY KEY,
      delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
      started_at timestamptz NOT NULL,
      duration_ms integer NOT NULL CHECK (duration_ms >= 0),
      status_code integer,
      error text,
      response_excerpt text NOT NULL DEFAULT '' CHECK (octet_length(response_excerpt) <= 1024)
    );
    CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts(delivery_id, id);

    CREATE FUNCTION webhooks_announce_message_events() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO outbox (topic, payload)
      SELECT 'webhooks:events', jsonb_build_object('kind', 'message_events', 'account_id', g.account_id::text, 'ids', g.ids)
      FROM (
        SELECT n.account_id, to_jsonb(array_agg(n.id ORDER BY n.id)) AS ids
        FROM new_rows n
        WHERE COALESCE(n.payload->>'applied', 'true') <> 'false'
          AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = n.account_id AND w.enabled)
        GROUP BY n.account_id, n.id / 500
      ) g;
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER message_events_webhooks AFTER INSERT ON message_events
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhooks_announce_message_events();

    CREATE FUNCTION webhooks_announce_inbound() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      INSERT INTO outbox (topic, payload)
      SELECT 'webhooks:events', jsonb_build_object('kind', 'inbound', 'account_id', g.account_id::text, 'ids', g.ids)
      FROM (
        SELECT n.account_id, to_jsonb(array_agg(n.id::text)) AS ids
        FROM new_rows n
        WHERE n.direction = 'inbound'
          AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = n.account_id AND w.enabled)
        GROUP BY n.account_id
      ) g;
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER messages_inbound_webhooks AFTER INSERT ON messages
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhooks_announce_inbound();
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TRIGGER IF EXISTS messages_inbound_webhooks ON messages;
    DROP TRIGGER IF EXISTS message_events_webhooks ON message_events;
    DROP FUNCTION IF EXISTS webhooks_announce_inbound();
    DROP FUNCTION IF EXISTS webhooks_announce_message_events();
    DROP TABLE IF EXISTS webhook_attempts;
    DROP TABLE IF EXISTS webhook_deliveries;
    DROP TABLE IF EXISTS webhook_endpoints;
  `);
};
