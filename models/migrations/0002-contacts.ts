import type { MigrationFn } from "../migrate";

/** Contacts, groups, tags, custom fields and CSV imports (issue 3). */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    CREATE TABLE custom_fields (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key text NOT NULL CHECK (key ~ '^[a-z][a-z0-9_]{0,39}$'),
      label text NOT NULL,
      type text NOT NULL CHECK (type IN ('text','number','date','list')),
      options text[] NOT NULL DEFAULT '{}',
      required boolean NOT NULL DEFAULT false,
      sensitive boolean NOT NULL DEFAULT false,
      visible_in_attendance boolean NOT NULL DEFAULT true,
      position integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, key)
    );

    CREATE TABLE contacts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      first_name text,
      last_name text,
      birth_date date,
      mobile_number text CHECK (mobile_number ~ '^\\+[1-9][0-9]{7,14}$'),
      phone text,
      email citext,
      gender text CHECK (gender IN ('male','female','undisclosed')),
      company text,
      website text,
      address text,
      number text,
      complement text,
      district text,
      zip text,
      city text,
      state text,
      country text,
      description text,
      custom jsonb NOT NULL DEFAULT '{}'::jsonb,
      tags text[] NOT NULL DEFAULT '{}',
      min_wait_time integer,
      avg_wait_time integer,
      max_wait_time integer,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- One contact per mobile number per account: duplicates merge into it.
    CREATE UNIQUE INDEX contacts_account_mobile_idx ON contacts(account_id, mobile_number) WHERE mobile_number IS NOT NULL;
    CREATE INDEX contacts_account_order_idx ON contacts(account_id, created_at DESC, id DESC);
    CREATE INDEX contacts_tags_idx ON contacts USING gin(tags);
    CREATE INDEX contacts_custom_idx ON contacts USING gin(custom jsonb_path_ops);
    CREATE INDEX contacts_search_idx ON contacts USING gin(
      (coalesce(first_name,'') || ' ' || coalesce(last_name,'') || ' ' || coalesce(email::text,'') || ' ' || coalesce(mobile_number,'') || ' ' || coalesce(company,'')) gin_trgm_ops
    );

    CREATE TABLE contact_groups (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX contact_groups_account_name_idx ON contact_groups(account_id, lower(name));

    CREATE TABLE contact_group_members (
      group_id uuid NOT NULL REFERENCES contact_groups(id) ON DELETE CASCADE,
      contact_id uuid NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (group_id, contact_id)
    );
    CREATE INDEX contact_group_members_contact_idx ON contact_group_members(contact_id);

    CREATE TABLE contact_imports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      status text NOT NULL DEFAULT 'uploaded' CHECK (status IN ('uploaded','queued','running','completed','failed')),
      files jsonb NOT NULL DEFAULT '[]'::jsonb,
      mapping jsonb NOT NULL DEFAULT '{}'::jsonb,
      group_id uuid REFERENCES contact_groups(id) ON DELETE SET NULL,
      total_rows bigint NOT NULL DEFAULT 0,
      processed_rows bigint NOT NULL DEFAULT 0,
      inserted_rows bigint NOT NULL DEFAULT 0,
      merged_rows bigint NOT NULL DEFAULT 0,
      error_count bigint NOT NULL DEFAULT 0,
      failure text,
      started_at timestamptz,
      finished_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX contact_imports_account_idx ON contact_imports(account_id, created_at DESC);

    -- Rows of an import land here through COPY, then merge into contacts in batches.
    CREATE UNLOGGED TABLE contact_import_rows (
      import_id uuid NOT NULL,
      line bigint NOT NULL,
      first_name text, last_name text, birth_date date, mobile_number text, phone text, email text, gender text,
      company text, website text, address text, number text, complement text, district text, zip text, city text,
      state text, country text, description text, custom jsonb, tags text[]
    );
    CREATE INDEX contact_import_rows_idx ON contact_import_rows(import_id, line);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS contact_import_rows, contact_imports, contact_group_members, contact_groups, contacts, custom_fields CASCADE;`);
};
