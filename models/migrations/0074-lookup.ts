import type { MigrationFn } from "../migrate";

/**
 * Number lookup (issue 22, ADR 058): validity, type, country, carrier and portability of a number
 * as the lookup provider (an HLR / number-portability API, api/lookup/provider.ts) answers it.
 * - lookup_prices: an account's price per lookup, like sms_prices/rcs_prices (one route: `hlr`).
 * - lookup_lists: a CSV list (or a contact group's numbers) looked up by the worker
 *   (api/lookup/job.ts), its progress, what it was charged and refunded; `clean_group_id` is the
 *   group it cleans when it finishes (the "clean a group before a campaign" action).
 * - lookup_results: every answer kept, one lookup (list_id NULL) or one line of a list; a line
 *   whose cell is no phone number at all is kept as `status = 'bad_line'`, not charged.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE lookup_prices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      route text NOT NULL DEFAULT 'hlr' CHECK (route IN ('hlr')),
      price_per_segment bigint NOT NULL CHECK (price_per_segment >= 0),
      currency char(3) NOT NULL DEFAULT 'BRL',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, route)
    );

    CREATE TABLE lookup_lists (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      source text NOT NULL CHECK (source IN ('file', 'group')),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
      -- source = file: the stored upload (api/imports/files.ts StoredFile) and its number column.
      file jsonb,
      number_column text,
      -- source = group: the group whose contacts' numbers are looked up.
      group_id uuid REFERENCES contact_groups(id) ON DELETE SET NULL,
      -- Cleaned when the list finishes (ADR 058: its invalid and landline numbers move to a new group).
      clean_group_id uuid REFERENCES contact_groups(id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
      total_rows integer NOT NULL DEFAULT 0,
      processed_rows integer NOT NULL DEFAULT 0,
      valid_count integer NOT NULL DEFAULT 0,
      invalid_count integer NOT NULL DEFAULT 0,
      bad_lines integer NOT NULL DEFAULT 0,
      -- Debited when it was started (total_rows x unit_price), refunded for what was not looked up when it ended.
      unit_price bigint NOT NULL DEFAULT 0,
      currency char(3) NOT NULL DEFAULT 'BRL',
      charged bigint NOT NULL DEFAULT 0,
      refunded bigint NOT NULL DEFAULT 0,
      failure text,
      cleaned_group_id uuid REFERENCES contact_groups(id) ON DELETE SET NULL,
      cleaned_count integer,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX lookup_lists_account_idx ON lookup_lists(account_id, created_at DESC, id DESC);

    CREATE TABLE lookup_results (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      list_id uuid REFERENCES lookup_lists(id) ON DELETE CASCADE,
      line integer,
      -- E.164 when it parsed; the raw cell (cut to 64) of a bad line.
      number text NOT NULL,
      status text NOT NULL CHECK (status IN ('ok', 'invalid', 'bad_line')),
      valid boolean NOT NULL,
      type text CHECK (type IN ('mobile', 'landline', 'voip', 'unknown')),
      country char(2),
      carrier text,
      original_carrier text,
      ported boolean,
      price bigint NOT NULL DEFAULT 0,
      currency char(3) NOT NULL DEFAULT 'BRL',
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX lookup_results_list_idx ON lookup_results(list_id, line) WHERE list_id IS NOT NULL;
    CREATE INDEX lookup_results_single_idx ON lookup_results(account_id, created_at DESC) WHERE list_id IS NULL;
    CREATE INDEX lookup_results_usage_idx ON lookup_results(account_id, created_at);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE lookup_results;
    DROP TABLE lookup_lists;
    DROP TABLE lookup_prices;
  `);
};
