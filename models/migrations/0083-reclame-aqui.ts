import type { MigrationFn } from "../migrate";

/**
 * Reclame Aqui complaints (issue 23, ADR 067).
 * - ra_connections: an account's connection to Reclame Aqui's company API (one per account): the
 *   company id, the client id and the client secret sealed (api/lib/crypto.ts), its status
 *   (connected, or failing with the last error's key) and the last sync; `synced_through` is the
 *   modification time the next sync asks from (RA's last_modification_date[gte]).
 * - ra_complaints: one complaint imported, keyed by (account, RA id): a second sync updates it.
 *   status: unanswered, answered, replied (the consumer answered back), evaluated. first_answer_at:
 *   the company's first public answer (the report's answer time). score 0-10, resolved and
 *   would_return ("voltaria a fazer negócio") once the consumer evaluated.
 * - ra_interactions: the conversation after the complaint, keyed by (complaint, RA interaction id):
 *   public answers and replies, private messages, by the company or the consumer.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE ra_connections (
      account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      company_id text NOT NULL CHECK (company_id ~ '^[0-9]{1,12}$'),
      client_id text NOT NULL CHECK (char_length(client_id) BETWEEN 1 AND 200),
      client_secret_sealed text NOT NULL,
      status text NOT NULL DEFAULT 'connected' CHECK (status IN ('connected','failing')),
      last_error text,
      last_sync_at timestamptz,
      synced_through timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX ra_connections_due_idx ON ra_connections(last_sync_at NULLS FIRST);

    CREATE TABLE ra_complaints (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      ra_id text NOT NULL CHECK (char_length(ra_id) BETWEEN 1 AND 64),
      title text NOT NULL,
      description text NOT NULL DEFAULT '',
      consumer_name text,
      consumer_email text,
      consumer_phone text,
      status text NOT NULL CHECK (status IN ('unanswered','answered','replied','evaluated')),
      ra_created_at timestamptz NOT NULL,
      ra_updated_at timestamptz NOT NULL,
      first_answer_at timestamptz,
      score smallint CHECK (score BETWEEN 0 AND 10),
      resolved boolean,
      would_return boolean,
      imported_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, ra_id)
    );
    CREATE INDEX ra_complaints_account_idx ON ra_complaints(account_id, ra_created_at DESC, id DESC);
    CREATE INDEX ra_complaints_status_idx ON ra_complaints(account_id, status, ra_created_at DESC, id DESC);

    CREATE TABLE ra_interactions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      complaint_id uuid NOT NULL REFERENCES ra_complaints(id) ON DELETE CASCADE,
      ra_id text NOT NULL,
      author text NOT NULL CHECK (author IN ('company','consumer')),
      visibility text NOT NULL CHECK (visibility IN ('public','private')),
      body text NOT NULL,
      author_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (complaint_id, ra_id)
    );
    CREATE INDEX ra_interactions_account_idx ON ra_interactions(account_id, complaint_id, created_at);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE ra_interactions; DROP TABLE ra_complaints; DROP TABLE ra_connections;`);
};
