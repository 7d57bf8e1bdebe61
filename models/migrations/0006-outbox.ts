import type { MigrationFn } from "../migrate";

/**
 * The transactional outbox (issue 4, pipeline step 2): rows written in the same transaction as
 * the change they announce (a message accepted…), published to Redis Streams by the worker's
 * relay. `topic` is the stream name without the Redis prefix (e.g. `messages:sms`); `payload`
 * the entry's fields. The partial index keeps the relay's scan proportional to what is unpublished.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE outbox (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      topic text NOT NULL CHECK (topic ~ '^[a-z][a-z0-9_:.-]{0,100}$'),
      payload jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz
    );
    CREATE INDEX outbox_unpublished_idx ON outbox(id) WHERE published_at IS NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS outbox;`);
};
