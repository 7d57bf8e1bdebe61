import type { MigrationFn } from "../migrate";

/**
 * Workflow boards (issue 22, ADR 056; spec sections 3, 4 and 5): an account's boards of ordered
 * columns holding deals (cards), with tasks, comments, products of the catalogue, and the history
 * of their moves (reports' time in column).
 * - pipeline_columns: at most 30 per board (checked by the use-case under the board's row lock),
 *   names unique per board in any case, ordered by an integer `position`.
 * - pipeline_deals: ordered inside a column by a fractional `position` (a move writes one row:
 *   the midpoint of its neighbours; ADR 056); `version` grows on every change (optimistic
 *   concurrency: a stale move is a 409 with the current state). Money in integer minor units of
 *   the account's currency. Linked contact and live room are optional.
 * - pipeline_tasks: `notified_at` is set in the transaction that writes the due notification
 *   (exactly once).
 * - pipeline_deal_products: the catalogue's product, its name and unit price (price - discount)
 *   as they were when added, a quantity and a line discount; the deal total is their sum.
 * - pipeline_deal_moves: one row per stay of a deal in a column (entered, left).
 */
const PRIORITY = "('low','normal','high','urgent')";

export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE pipeline_boards (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX pipeline_boards_account_idx ON pipeline_boards(account_id, created_at);

    CREATE TABLE pipeline_columns (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      board_id uuid NOT NULL REFERENCES pipeline_boards(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 50),
      position integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX pipeline_columns_name_idx ON pipeline_columns(board_id, lower(name));
    CREATE INDEX pipeline_columns_board_idx ON pipeline_columns(account_id, board_id, position);

    CREATE TABLE pipeline_deals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      board_id uuid NOT NULL REFERENCES pipeline_boards(id) ON DELETE CASCADE,
      column_id uuid NOT NULL REFERENCES pipeline_columns(id) ON DELETE CASCADE,
      position double precision NOT NULL,
      version integer NOT NULL DEFAULT 1,
      lead_name text NOT NULL CHECK (length(btrim(lead_name)) BETWEEN 1 AND 25),
      description text NOT NULL CHECK (length(btrim(description)) BETWEEN 1 AND 200),
      owner_id uuid REFERENCES users(id) ON DELETE SET NULL,
      due_date date NOT NULL,
      channel text CHECK (channel IS NULL OR channel IN ('sms','whatsapp','email','rcs','webchat','telegram','messenger','instagram','google_business','phone','other')),
      value_cents bigint NOT NULL DEFAULT 0 CHECK (value_cents >= 0),
      priority text NOT NULL CHECK (priority IN ${PRIORITY}),
      outcome text CHECK (outcome IS NULL OR outcome IN ('sold','lost')),
      outcome_at timestamptz,
      contact_id uuid REFERENCES contacts(id) ON DELETE SET NULL,
      room_id uuid REFERENCES live_rooms(id) ON DELETE SET NULL,
      archived_at timestamptz,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX pipeline_deals_column_idx ON pipeline_deals(account_id, column_id, position) WHERE archived_at IS NULL;
    CREATE INDEX pipeline_deals_board_idx ON pipeline_deals(account_id, board_id);
    CREATE INDEX pipeline_deals_contact_idx ON pipeline_deals(account_id, contact_id) WHERE contact_id IS NOT NULL;
    CREATE INDEX pipeline_deals_room_idx ON pipeline_deals(account_id, room_id) WHERE room_id IS NOT NULL;

    CREATE TABLE pipeline_tasks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      deal_id uuid NOT NULL REFERENCES pipeline_deals(id) ON DELETE CASCADE,
      title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 100),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 200),
      priority text NOT NULL CHECK (priority IN ${PRIORITY}),
      due_at timestamptz NOT NULL,
      owner_id uuid REFERENCES users(id) ON DELETE SET NULL,
      done_at timestamptz,
      notified_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX pipeline_tasks_deal_idx ON pipeline_tasks(account_id, deal_id, due_at);
    CREATE INDEX pipeline_tasks_due_idx ON pipeline_tasks(due_at) WHERE done_at IS NULL AND notified_at IS NULL;

    CREATE TABLE pipeline_comments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      deal_id uuid NOT NULL REFERENCES pipeline_deals(id) ON DELETE CASCADE,
      author_id uuid REFERENCES users(id) ON DELETE SET NULL,
      body text NOT NULL CHECK (length(btrim(body)) BETWEEN 1 AND 1000),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX pipeline_comments_deal_idx ON pipeline_comments(account_id, deal_id, created_at);

    CREATE TABLE pipeline_deal_products (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      deal_id uuid NOT NULL REFERENCES pipeline_deals(id) ON DELETE CASCADE,
      product_id uuid REFERENCES catalog_products(id) ON DELETE SET NULL,
      name text NOT NULL,
      unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
      quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 100000),
      discount_cents bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0 AND discount_cents <= unit_price_cents * quantity),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX pipeline_deal_products_deal_idx ON pipeline_deal_products(account_id, deal_id, created_at);

    CREATE TABLE pipeline_deal_moves (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      board_id uuid NOT NULL REFERENCES pipeline_boards(id) ON DELETE CASCADE,
      deal_id uuid NOT NULL REFERENCES pipeline_deals(id) ON DELETE CASCADE,
      -- NULL: the deal was created (or duplicated) into to_column_id.
      from_column_id uuid REFERENCES pipeline_columns(id) ON DELETE SET NULL,
      to_column_id uuid REFERENCES pipeline_columns(id) ON DELETE SET NULL,
      moved_by uuid REFERENCES users(id) ON DELETE SET NULL,
      entered_at timestamptz NOT NULL DEFAULT now(),
      -- When the deal left to_column_id (NULL: it is still there).
      left_at timestamptz
    );
    CREATE INDEX pipeline_deal_moves_deal_idx ON pipeline_deal_moves(account_id, deal_id) WHERE left_at IS NULL;
    CREATE INDEX pipeline_deal_moves_board_idx ON pipeline_deal_moves(account_id, board_id, to_column_id);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query("DROP TABLE pipeline_deal_moves, pipeline_deal_products, pipeline_comments, pipeline_tasks, pipeline_deals, pipeline_columns, pipeline_boards;");
};
