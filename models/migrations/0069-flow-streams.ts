import type { MigrationFn } from "../migrate";

/**
 * The flow runtime (issue 20, ADR 054): a stream is one run of a flow's version in one live room.
 *  - `flow_streams`: where the run is (node, what it waits for, its durable timer `wake_at`), its
 *    variables and status. At most one live (running or waiting) stream per room.
 *  - `flow_steps`: the path it took, one row per step (seq unique per stream): the stream view and
 *    the reports' funnel.
 *  - `flow_inputs`: the work waiting for a stream (its start, a visitor's message, a timer); the
 *    runner consumes them in id order in the same transaction as the steps they cause, so
 *    PostgreSQL, not Redis, is the truth of what is left to do.
 *  - live_rooms gets the status BOT: a room the bot attends (never in the queue).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE live_rooms DROP CONSTRAINT IF EXISTS live_rooms_status_check;
    ALTER TABLE live_rooms ADD CONSTRAINT live_rooms_status_check CHECK (status IN ('QUEUE', 'OPEN', 'CLOSED', 'BOT'));

    CREATE TABLE flow_streams (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      flow_id uuid NOT NULL,
      version integer NOT NULL,
      room_id uuid NOT NULL REFERENCES live_rooms(id) ON DELETE CASCADE,
      contact_id uuid REFERENCES contacts(id) ON DELETE SET NULL,
      channel text NOT NULL,
      status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'waiting', 'finished', 'handed_off', 'cancelled', 'dropped', 'failed')),
      node_id text,
      waiting text CHECK (waiting IN ('answer', 'delay')),
      wake_at timestamptz,
      retries_left integer NOT NULL DEFAULT 0,
      vars jsonb NOT NULL DEFAULT '{}'::jsonb,
      steps integer NOT NULL DEFAULT 0,
      reason text,
      started_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, id),
      FOREIGN KEY (flow_id, version) REFERENCES flow_versions (flow_id, version) ON DELETE CASCADE,
      FOREIGN KEY (account_id, flow_id) REFERENCES flows (account_id, id) ON DELETE CASCADE,
      CHECK ((status = 'waiting') = (waiting IS NOT NULL)),
      CHECK ((status IN ('running', 'waiting')) = (ended_at IS NULL))
    );
    CREATE INDEX flow_streams_account_idx ON flow_streams (account_id, started_at DESC, id DESC);
    CREATE INDEX flow_streams_flow_idx ON flow_streams (account_id, flow_id, started_at DESC);
    -- The durable timers: the sweep wakes what is due.
    CREATE INDEX flow_streams_wake_idx ON flow_streams (wake_at) WHERE status = 'waiting';
    -- One live stream per room.
    CREATE UNIQUE INDEX flow_streams_one_live_idx ON flow_streams (room_id) WHERE status IN ('running', 'waiting');

    CREATE TABLE flow_steps (
      id bigserial PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      stream_id uuid NOT NULL,
      seq integer NOT NULL CHECK (seq >= 1),
      node_id text NOT NULL,
      node_type text NOT NULL,
      output text,
      detail jsonb NOT NULL DEFAULT '{}'::jsonb,
      vars jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (account_id, stream_id) REFERENCES flow_streams (account_id, id) ON DELETE CASCADE,
      UNIQUE (stream_id, seq)
    );

    CREATE TABLE flow_inputs (
      id bigserial PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      stream_id uuid NOT NULL,
      kind text NOT NULL CHECK (kind IN ('message', 'timer', 'start')),
      body text,
      live_message_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      consumed_at timestamptz,
      FOREIGN KEY (account_id, stream_id) REFERENCES flow_streams (account_id, id) ON DELETE CASCADE
    );
    CREATE INDEX flow_inputs_pending_idx ON flow_inputs (stream_id) WHERE consumed_at IS NULL;
    -- The sweep's scan for inputs nobody took (Redis lost the entry).
    CREATE INDEX flow_inputs_age_idx ON flow_inputs (created_at) WHERE consumed_at IS NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE IF EXISTS flow_inputs;
    DROP TABLE IF EXISTS flow_steps;
    DROP TABLE IF EXISTS flow_streams;
    UPDATE live_rooms SET status = 'QUEUE', queued_at = coalesce(queued_at, now()) WHERE status = 'BOT';
    ALTER TABLE live_rooms DROP CONSTRAINT IF EXISTS live_rooms_status_check;
    ALTER TABLE live_rooms ADD CONSTRAINT live_rooms_status_check CHECK (status IN ('QUEUE', 'OPEN', 'CLOSED'));
  `);
};
