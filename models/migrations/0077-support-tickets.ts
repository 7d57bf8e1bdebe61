import type { MigrationFn } from "../migrate";

/**
 * Support tickets (issue 23, ADR 061).
 * - support_tickets: one request for help of an account (spec section 3: category, subject,
 *   message; section 5: category and subject required, rating 0 to 5). `number` is the short
 *   number people quote ("#1042"). Status: open (waiting for the platform), in_progress (someone of
 *   the platform is on it), answered (waiting for the customer), closed. `rating` only once it is
 *   closed, once. `last_side`: who wrote last (the lists show whose turn it is).
 * - support_messages: the conversation, each by one side (customer or staff).
 * - support_files: a message's attachments; the bytes live once on disk under
 *   UPLOAD_DIR/support, named by their SHA-256.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE support_tickets (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      number bigint GENERATED ALWAYS AS IDENTITY (START WITH 1001) UNIQUE,
      category text NOT NULL CHECK (category IN ('billing','technical','sms','whatsapp','email','rcs','live','account','other')),
      subject text NOT NULL CHECK (char_length(subject) BETWEEN 1 AND 150),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open','in_progress','answered','closed')),
      opened_by uuid REFERENCES users(id) ON DELETE SET NULL,
      assigned_to uuid REFERENCES users(id) ON DELETE SET NULL,
      last_side text NOT NULL DEFAULT 'customer' CHECK (last_side IN ('customer','staff')),
      last_message_at timestamptz NOT NULL DEFAULT now(),
      closed_at timestamptz,
      rating smallint CHECK (rating BETWEEN 0 AND 5),
      rating_comment text CHECK (char_length(rating_comment) <= 1000),
      rated_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (rating IS NULL OR status = 'closed')
    );
    CREATE INDEX support_tickets_account_idx ON support_tickets(account_id, last_message_at DESC, id DESC);
    CREATE INDEX support_tickets_queue_idx ON support_tickets(status, last_message_at DESC, id DESC);

    CREATE TABLE support_messages (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      ticket_id uuid NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      author_id uuid REFERENCES users(id) ON DELETE SET NULL,
      side text NOT NULL CHECK (side IN ('customer','staff')),
      body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 5000),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX support_messages_ticket_idx ON support_messages(ticket_id, id);
    CREATE INDEX support_messages_account_idx ON support_messages(account_id, id DESC);

    CREATE TABLE support_files (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      ticket_id uuid NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
      message_id bigint NOT NULL REFERENCES support_messages(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
      media_type text NOT NULL,
      size integer NOT NULL CHECK (size > 0),
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX support_files_message_idx ON support_files(message_id);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS support_files; DROP TABLE IF EXISTS support_messages; DROP TABLE IF EXISTS support_tickets;`);
};
