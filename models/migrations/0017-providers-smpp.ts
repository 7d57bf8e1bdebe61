import type { MigrationFn } from "../migrate";

/**
 * Providers, routes and SMPP (issue 4, ADR 011).
 * - `provider_connections`: one configured provider link of the platform (the simulator, an SMSC
 *   reached over SMPP, or a generic HTTP provider); `settings` holds host, port, system_id,
 *   password, system_type, tps (SMPP) or url, api_key, webhook_secret (HTTP). `name` is also the
 *   `messages.provider` of what it sent and the :provider of its webhook URL.
 * - `sms_route_connections`: route T1/T2/T4/T6 -> the connection its messages go out through
 *   (platform level; seeded: every route -> the simulator).
 * - `message_parts`: the parts of a concatenated SMS as an SMSC accepted them (one provider id
 *   each), so a retried submit resends only the parts not yet accepted and each part's receipt
 *   finds its message.
 * - `smpp_users`: SMPP credentials an account creates for our SMPP server (api/smpp/server.ts);
 *   `smpp_messages`: messages submitted through them, and whether their receipt went back.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE provider_connections (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL UNIQUE CHECK (name ~ '^[a-z][a-z0-9_-]{1,40}$'),
      channel text NOT NULL DEFAULT 'sms' CHECK (channel ~ '^[a-z][a-z0-9_]{1,30}$'),
      kind text NOT NULL CHECK (kind IN ('smpp','http','simulator')),
      settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      enabled boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO provider_connections (name, channel, kind) VALUES ('simulator', 'sms', 'simulator');

    CREATE TABLE sms_route_connections (
      route text PRIMARY KEY CHECK (route IN ('T1','T2','T4','T6')),
      connection_id uuid NOT NULL REFERENCES provider_connections(id) ON DELETE RESTRICT,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO sms_route_connections (route, connection_id)
      SELECT r, (SELECT id FROM provider_connections WHERE name = 'simulator') FROM unnest(ARRAY['T1','T2','T4','T6']) AS r;

    CREATE TABLE message_parts (
      message_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
      part integer NOT NULL CHECK (part >= 1),
      total integer NOT NULL CHECK (total >= 1),
      provider text NOT NULL,
      provider_message_id text NOT NULL,
      status text NOT NULL DEFAULT 'sent',
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (message_id, part)
    );
    CREATE UNIQUE INDEX message_parts_provider_idx ON message_parts(provider, provider_message_id);

    -- An inbound SMS (MO) finds its account by the last outbound message to that mobile (ADR 011).
    CREATE INDEX messages_outbound_recipient_idx ON messages(recipient, created_at DESC) WHERE direction = 'outbound';

    CREATE TABLE smpp_users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      system_id text NOT NULL UNIQUE CHECK (system_id ~ '^[A-Za-z0-9_.-]{3,15}$'),
      password_hash text NOT NULL,
      route text NOT NULL DEFAULT 'T1' CHECK (route IN ('T1','T2','T4','T6')),
      tps integer NOT NULL DEFAULT 10 CHECK (tps BETWEEN 1 AND 1000),
      enabled boolean NOT NULL DEFAULT true,
      -- Submits act with this person's rights in the account (else the account's first owner).
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX smpp_users_account_idx ON smpp_users(account_id, created_at DESC);

    CREATE TABLE smpp_messages (
      message_id uuid PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
      smpp_user_id uuid NOT NULL REFERENCES smpp_users(id) ON DELETE CASCADE,
      registered_delivery boolean NOT NULL DEFAULT true,
      receipt_sent_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    -- The SMPP server looks for receipts still owed to a user.
    CREATE INDEX smpp_messages_owed_idx ON smpp_messages(smpp_user_id, created_at) WHERE receipt_sent_at IS NULL AND registered_delivery;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE IF EXISTS smpp_messages; DROP TABLE IF EXISTS smpp_users; DROP TABLE IF EXISTS message_parts; DROP INDEX IF EXISTS messages_outbound_recipient_idx;
    DROP TABLE IF EXISTS sms_route_connections; DROP TABLE IF EXISTS provider_connections;
  `);
};
