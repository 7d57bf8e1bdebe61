import type { MigrationFn } from "../migrate";

/**
 * The message pipeline (issue 4): one `messages` table for every channel (SMS, WhatsApp, RCS,
 * e-mail…) and its `message_events` history. Provider receipts are deduplicated by the unique
 * index on (message_id, status) for source 'provider' — a message is found by
 * (provider, provider_message_id), so this is the (provider, provider message id, status) key.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE messages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      channel text NOT NULL CHECK (channel ~ '^[a-z][a-z0-9_]{1,30}$'),
      direction text NOT NULL CHECK (direction IN ('outbound','inbound')),
      sender text NOT NULL DEFAULT '',
      recipient text NOT NULL,
      body text NOT NULL DEFAULT '',
      segments integer NOT NULL DEFAULT 1 CHECK (segments >= 0),
      coding text CHECK (coding IN ('GSM7','UCS2')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN (
        'pending','queued','sending','sent','delivered','read','unavailable','failed','received','scheduled','rejected','optout'
      )),
      provider text,
      route text,
      provider_message_id text,
      error_code text,
      error_message text,
      price bigint NOT NULL DEFAULT 0,
      currency char(3) NOT NULL DEFAULT 'BRL',
      scheduled_at timestamptz,
      queued_at timestamptz,
      sent_at timestamptz,
      delivered_at timestamptz,
      read_at timestamptz,
      failed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (provider_message_id IS NULL OR provider IS NOT NULL)
    );
    -- History: newest first, keyset on (created_at, id) per account.
    CREATE INDEX messages_account_history_idx ON messages(account_id, created_at DESC, id DESC);
    -- Receipts find their message by the provider's id.
    CREATE UNIQUE INDEX messages_provider_message_idx ON messages(provider, provider_message_id) WHERE provider_message_id IS NOT NULL;

    CREATE TABLE message_events (
      id bigserial PRIMARY KEY,
      message_id uuid NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      status text NOT NULL,
      source text NOT NULL CHECK (source IN ('provider','system')),
      provider_event_id text,
      payload jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    -- A provider reports each status of a message once: a repeated receipt is a duplicate.
    CREATE UNIQUE INDEX message_events_provider_dedupe_idx ON message_events(message_id, status, source) WHERE source = 'provider';
    CREATE INDEX message_events_message_idx ON message_events(message_id, id);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS message_events; DROP TABLE IF EXISTS messages;`);
};
