import type { MigrationFn } from "../migrate";

/**
 * `messages` and `message_events` become monthly range-partitioned tables (issue 15, ADR 029): a
 * customer writes 150M rows a month, and old months must leave the database by detaching a
 * partition, not by a DELETE.
 *
 * - messages: PARTITION BY RANGE (created_at), primary key (id, created_at).
 * - message_events: PARTITION BY RANGE (message_created_at), its message's created_at carried as a
 *   column, so an event lives in the same month as its message, the receipt dedupe
 *   (message_id, message_created_at, status, source) WHERE source = 'provider' is exactly the old
 *   (message_id, status, source) one, and the foreign key to messages is (message_id, message_created_at).
 * - The unique (provider, provider_message_id) cannot include created_at and stay exact, so it moves
 *   to the unpartitioned `message_provider_ids` (provider, provider_message_id) → (message id,
 *   created_at), written by a trigger on messages (every path that sets a provider id, the same
 *   unique_violation on a duplicate); receipts and inbound find their message through it.
 * - message_parts, smpp_messages and moderation_holds carry message_created_at too, filled by a
 *   BEFORE INSERT trigger when the code does not give it, with foreign keys (message_id,
 *   message_created_at) → messages (id, created_at) ON DELETE CASCADE as before.
 * - Partitions: `message_partitions_ensure(from, to)` creates the missing UTC months of both tables
 *   (named messages_pYYYY_MM / message_events_pYYYY_MM); here from the oldest month holding data
 *   (at least last month) to three months ahead; the worker keeps creating them ahead
 *   (api/messages/partitions.ts). No DEFAULT partition: a row outside every partition is an error.
 * - plans.history_retention_months (13): the longest over all plans decides when a month is
 *   exported and detached.
 *
 * One multi-statement query, so it runs in one transaction.
 */
const MESSAGE_INDEXES = `
    CREATE INDEX messages_account_history_idx ON messages (account_id, created_at DESC, id DESC);
    CREATE INDEX messages_account_recipient_idx ON messages (account_id, recipient, created_at DESC, id DESC);
    CREATE INDEX messages_account_sender_history_idx ON messages (account_id, channel, sender, created_at DESC, id DESC);
    CREATE INDEX messages_account_status_history_idx ON messages (account_id, channel, status, created_at DESC, id DESC);
    CREATE INDEX messages_campaign_status_idx ON messages (campaign_id, status) WHERE campaign_id IS NOT NULL;
    CREATE INDEX messages_dispatch_unfinished_idx ON messages (channel, updated_at) WHERE direction = 'outbound' AND status IN ('queued','sending');
    CREATE INDEX messages_outbound_recipient_idx ON messages (recipient, created_at DESC) WHERE direction = 'outbound';
    CREATE INDEX messages_scheduled_due_idx ON messages (scheduled_at) WHERE status = 'scheduled';
    CREATE INDEX messages_sent_awaiting_receipt_idx ON messages (sent_at) WHERE direction = 'outbound' AND status = 'sent';
`;

const TRIGGERS = `
    CREATE TRIGGER message_events_webhooks AFTER INSERT ON message_events
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhooks_announce_message_events();
    CREATE TRIGGER messages_inbound_webhooks AFTER INSERT ON messages
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhooks_announce_inbound();
    CREATE TRIGGER messages_moderation_keep_held BEFORE UPDATE OF status ON messages
      FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status IS DISTINCT FROM 'pending')
      EXECUTE FUNCTION moderation_keep_held();
`;

const CHILDREN = ["message_parts", "smpp_messages", "moderation_holds"] as const;

export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE plans ADD COLUMN history_retention_months integer NOT NULL DEFAULT 13
      CHECK (history_retention_months BETWEEN 1 AND 120);

    ALTER TABLE messages RENAME TO messages_unpartitioned;
    ALTER TABLE message_events RENAME TO message_events_unpartitioned;

    CREATE TABLE messages (LIKE messages_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
      PARTITION BY RANGE (created_at);
    CREATE TABLE message_events (LIKE message_events_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
      message_created_at timestamptz NOT NULL)
      PARTITION BY RANGE (message_created_at);

    -- The missing UTC months between from_ts and to_ts, for both tables; answers how many months it created.
    -- Serialised by a transaction-scoped advisory lock, so two callers never race on one name.
    CREATE FUNCTION message_partitions_ensure(from_ts timestamptz, to_ts timestamptz) RETURNS integer
    LANGUAGE plpgsql AS $fn$
    DECLARE
      m timestamp := date_trunc('month', from_ts AT TIME ZONE 'UTC');
      upto timestamp := date_trunc('month', to_ts AT TIME ZONE 'UTC');
      suffix text;
      created integer := 0;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('message_partitions_ensure'));
      WHILE m <= upto LOOP
        suffix := to_char(m, 'YYYY_MM');
        IF to_regclass('messages_p' || suffix) IS NULL THEN
          EXECUTE format('CREATE TABLE %I PARTITION OF messages FOR VALUES FROM (%L) TO (%L)',
            'messages_p' || suffix, m::text || '+00', (m + interval '1 month')::text || '+00');
          created := created + 1;
        END IF;
        IF to_regclass('message_events_p' || suffix) IS NULL THEN
          EXECUTE format('CREATE TABLE %I PARTITION OF message_events FOR VALUES FROM (%L) TO (%L)',
            'message_events_p' || suffix, m::text || '+00', (m + interval '1 month')::text || '+00');
        END IF;
        m := m + interval '1 month';
      END LOOP;
      RETURN created;
    END $fn$;

    SELECT message_partitions_ensure(
      LEAST((SELECT min(created_at) FROM messages_unpartitioned), now() - interval '1 month'),
      GREATEST((SELECT max(created_at) FROM messages_unpartitioned), now() + interval '3 months'));

    INSERT INTO messages SELECT * FROM messages_unpartitioned;
    INSERT INTO message_events SELECT e.*, m.created_at FROM message_events_unpartitioned e JOIN messages_unpartitioned m ON m.id = e.message_id;
    ALTER SEQUENCE message_events_id_seq OWNED BY message_events.id;

    DROP TABLE message_events_unpartitioned;
    DROP TABLE messages_unpartitioned CASCADE; -- and the foreign keys of message_parts, smpp_messages, moderation_holds

    ALTER TABLE messages ADD CONSTRAINT messages_pkey PRIMARY KEY (id, created_at);
    ${MESSAGE_INDEXES}
    ALTER TABLE messages ADD CONSTRAINT messages_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE;
    ALTER TABLE messages ADD CONSTRAINT messages_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES campaigns(id) ON DELETE SET NULL;

    ALTER TABLE message_events ADD CONSTRAINT message_events_pkey PRIMARY KEY (id, message_created_at);
    CREATE UNIQUE INDEX message_events_provider_dedupe_idx ON message_events (message_id, message_created_at, status, source) WHERE source = 'provider';
    CREATE INDEX message_events_message_idx ON message_events (message_id, id);
    ALTER TABLE message_events ADD CONSTRAINT message_events_message_id_fkey
      FOREIGN KEY (message_id, message_created_at) REFERENCES messages(id, created_at) ON DELETE CASCADE;
    ${TRIGGERS}

    -- (provider, provider_message_id) stays unique over every month: the lookup receipts and inbound use.
    CREATE TABLE message_provider_ids (
      provider text NOT NULL,
      provider_message_id text NOT NULL,
      message_id uuid NOT NULL,
      message_created_at timestamptz NOT NULL,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      PRIMARY KEY (provider, provider_message_id)
    );
    CREATE INDEX message_provider_ids_message_idx ON message_provider_ids (message_id);
    CREATE INDEX message_provider_ids_created_idx ON message_provider_ids (message_created_at);
    INSERT INTO message_provider_ids (provider, provider_message_id, message_id, message_created_at, account_id)
      SELECT provider, provider_message_id, id, created_at, account_id FROM messages WHERE provider_message_id IS NOT NULL;

    -- The old unique index's rule: a second message with a (provider, provider_message_id) already
    -- taken is a unique_violation. The same message writing its own pair again (inbound's CTE) is not.
    CREATE FUNCTION message_provider_ids_sync() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.provider_message_id IS NOT NULL THEN
        DELETE FROM message_provider_ids WHERE provider = OLD.provider AND provider_message_id = OLD.provider_message_id AND message_id = OLD.id;
      END IF;
      IF NEW.provider_message_id IS NOT NULL THEN
        INSERT INTO message_provider_ids (provider, provider_message_id, message_id, message_created_at, account_id)
        VALUES (NEW.provider, NEW.provider_message_id, NEW.id, NEW.created_at, NEW.account_id)
        ON CONFLICT (provider, provider_message_id) DO NOTHING;
        IF NOT FOUND AND NOT EXISTS (SELECT 1 FROM message_provider_ids
                                      WHERE provider = NEW.provider AND provider_message_id = NEW.provider_message_id AND message_id = NEW.id) THEN
          RAISE unique_violation USING
            MESSAGE = format('duplicate key value violates unique constraint "messages_provider_message_idx"'),
            DETAIL = format('Key (provider, provider_message_id)=(%s, %s) already exists.', NEW.provider, NEW.provider_message_id),
            CONSTRAINT = 'messages_provider_message_idx', TABLE = 'messages';
        END IF;
      END IF;
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER messages_provider_ids_insert AFTER INSERT ON messages
      FOR EACH ROW WHEN (NEW.provider_message_id IS NOT NULL) EXECUTE FUNCTION message_provider_ids_sync();
    CREATE TRIGGER messages_provider_ids_update AFTER UPDATE OF provider, provider_message_id ON messages
      FOR EACH ROW WHEN (OLD.provider_message_id IS DISTINCT FROM NEW.provider_message_id OR OLD.provider IS DISTINCT FROM NEW.provider)
      EXECUTE FUNCTION message_provider_ids_sync();

    -- Tables keyed by a message carry its created_at: a join on both columns prunes to one month, and
    -- the foreign key (with its cascade) needs the partition key. Code that has it gives it; else the
    -- trigger looks it up (one probe per month's primary key index).
    CREATE FUNCTION message_created_at_fill() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF NEW.message_created_at IS NULL THEN
        SELECT created_at INTO NEW.message_created_at FROM messages WHERE id = NEW.message_id;
      END IF;
      RETURN NEW;
    END $fn$;
    ${CHILDREN.map(
      (t) => `
    ALTER TABLE ${t} ADD COLUMN message_created_at timestamptz;
    UPDATE ${t} c SET message_created_at = m.created_at FROM messages m WHERE m.id = c.message_id;
    DELETE FROM ${t} WHERE message_created_at IS NULL;
    ALTER TABLE ${t} ALTER COLUMN message_created_at SET NOT NULL;
    ALTER TABLE ${t} ADD CONSTRAINT ${t}_message_id_fkey
      FOREIGN KEY (message_id, message_created_at) REFERENCES messages(id, created_at) ON DELETE CASCADE;
    CREATE TRIGGER ${t}_message_created_at BEFORE INSERT ON ${t}
      FOR EACH ROW WHEN (NEW.message_created_at IS NULL) EXECUTE FUNCTION message_created_at_fill();`,
    ).join("")}
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ${CHILDREN.map(
      (t) => `
    DROP TRIGGER ${t}_message_created_at ON ${t};
    ALTER TABLE ${t} DROP CONSTRAINT ${t}_message_id_fkey;
    ALTER TABLE ${t} DROP COLUMN message_created_at;`,
    ).join("")}
    DROP FUNCTION message_created_at_fill();
    DROP TABLE message_provider_ids;

    ALTER TABLE messages RENAME TO messages_partitioned;
    ALTER TABLE message_events RENAME TO message_events_partitioned;
    CREATE TABLE messages (LIKE messages_partitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
    CREATE TABLE message_events (LIKE message_events_partitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
    ALTER TABLE message_events DROP COLUMN message_created_at;
    INSERT INTO messages SELECT * FROM messages_partitioned;
    INSERT INTO message_events SELECT id, message_id, account_id, status, source, provider_event_id, payload, created_at, public_id FROM message_events_partitioned;
    ALTER SEQUENCE message_events_id_seq OWNED BY message_events.id;
    DROP TABLE message_events_partitioned;
    DROP TABLE messages_partitioned CASCADE;
    DROP FUNCTION message_partitions_ensure(timestamptz, timestamptz);
    DROP FUNCTION message_provider_ids_sync();

    ALTER TABLE messages ADD CONSTRAINT messages_pkey PRIMARY KEY (id);
    ${MESSAGE_INDEXES}
    CREATE UNIQUE INDEX messages_provider_message_idx ON messages (provider, provider_message_id) WHERE provider_message_id IS NOT NULL;
    ALTER TABLE messages ADD CONSTRAINT messages_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE;
    ALTER TABLE messages ADD CONSTRAINT messages_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES campaigns(id) ON DELETE SET NULL;
    ALTER TABLE message_events ADD CONSTRAINT message_events_pkey PRIMARY KEY (id);
    CREATE UNIQUE INDEX message_events_provider_dedupe_idx ON message_events (message_id, status, source) WHERE source = 'provider';
    CREATE INDEX message_events_message_idx ON message_events (message_id, id);
    ALTER TABLE message_events ADD CONSTRAINT message_events_message_id_fkey FOREIGN KEY (message_id) REFERENCES messages(id) ON DELETE CASCADE;
    ${TRIGGERS}
    ${CHILDREN.map((t) => `ALTER TABLE ${t} ADD CONSTRAINT ${t}_message_id_fkey FOREIGN KEY (message_id) REFERENCES messages(id) ON DELETE CASCADE;`).join("\n    ")}

    ALTER TABLE plans DROP COLUMN history_retention_months;
  `);
};
