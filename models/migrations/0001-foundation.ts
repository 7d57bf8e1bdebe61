import type { MigrationFn } from "../migrate";

/** Foundation: tenants, people, permissions, plans, mail outbox, audit, notifications. */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE EXTENSION IF NOT EXISTS citext;

    CREATE TABLE currencies (
      code char(3) PRIMARY KEY,
      name text NOT NULL,
      name_plural text NOT NULL,
      symbol text NOT NULL,
      symbol_native text NOT NULL,
      decimal_digits smallint NOT NULL CHECK (decimal_digits BETWEEN 0 AND 3),
      rounding numeric(6,2) NOT NULL DEFAULT 0
    );

    CREATE TABLE whitelabels (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      color char(7) NOT NULL CHECK (color ~ '^#[0-9a-fA-F]{6}$'),
      host citext NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE accounts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      type text NOT NULL DEFAULT 'customer' CHECK (type IN ('customer','reseller','platform')),
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive','suspended')),
      currency char(3) NOT NULL DEFAULT 'BRL' REFERENCES currencies(code),
      balance bigint NOT NULL DEFAULT 0,
      credit_limit bigint NOT NULL DEFAULT 0 CHECK (credit_limit >= 0),
      auth_token text NOT NULL UNIQUE,
      timezone text NOT NULL DEFAULT 'America/Sao_Paulo',
      whitelabel_id uuid REFERENCES whitelabels(id) ON DELETE SET NULL,
      parent_account_id uuid REFERENCES accounts(id) ON DELETE SET NULL,
      street text, number text, complement text, district text, city text, province text, postal_code text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX accounts_parent_idx ON accounts(parent_account_id);
    ALTER TABLE whitelabels ADD COLUMN account_id uuid REFERENCES accounts(id) ON DELETE CASCADE;
    CREATE UNIQUE INDEX whitelabels_account_idx ON whitelabels(account_id);

    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email citext NOT NULL UNIQUE,
      first_name text NOT NULL,
      last_name text NOT NULL DEFAULT '',
      mobile text,
      gender text CHECK (gender IN ('male','female','undisclosed')),
      birth_date date,
      password_hash text,
      email_verified_at timestamptz,
      locale text NOT NULL DEFAULT 'pt-BR' CHECK (locale IN ('pt-BR','en','es','zh')),
      totp_secret text,
      totp_enabled_at timestamptz,
      google_id text UNIQUE,
      facebook_id text UNIQUE,
      current_account_id uuid REFERENCES accounts(id) ON DELETE SET NULL,
      last_login_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE departments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX departments_account_name_idx ON departments(account_id, lower(name));

    CREATE TABLE memberships (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role text NOT NULL,
      is_agent boolean NOT NULL DEFAULT false,
      department_id uuid REFERENCES departments(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, user_id)
    );
    CREATE INDEX memberships_user_idx ON memberships(user_id);

    CREATE TABLE plans (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      service text NOT NULL,
      price bigint NOT NULL DEFAULT 0 CHECK (price >= 0),
      currency char(3) NOT NULL DEFAULT 'BRL' REFERENCES currencies(code),
      billing_cycle text NOT NULL DEFAULT 'monthly' CHECK (billing_cycle IN ('prepaid','weekly','biweekly','monthly')),
      duration_days integer,
      is_trial boolean NOT NULL DEFAULT false,
      permissions jsonb NOT NULL DEFAULT '{}'::jsonb,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE account_plans (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      plan_id uuid NOT NULL REFERENCES plans(id),
      service text NOT NULL,
      starts_at timestamptz NOT NULL DEFAULT now(),
      ends_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX account_plans_service_idx ON account_plans(account_id, service);

    CREATE TABLE invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      email citext NOT NULL,
      role text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX invitations_account_idx ON invitations(account_id, created_at DESC);

    CREATE TABLE user_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('email_verify','password_reset')),
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE refresh_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE outbound_emails (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid REFERENCES accounts(id) ON DELETE SET NULL,
      to_address citext NOT NULL,
      subject text NOT NULL,
      html text NOT NULL,
      text_body text NOT NULL,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','sent','local','failed')),
      attempts integer NOT NULL DEFAULT 0,
      error text,
      sent_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX outbound_emails_created_idx ON outbound_emails(created_at DESC, id DESC);

    CREATE TABLE audit_logs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id uuid REFERENCES accounts(id) ON DELETE CASCADE,
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      action text NOT NULL,
      ip inet,
      user_agent text,
      meta jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX audit_logs_account_idx ON audit_logs(account_id, created_at DESC, id DESC);
    CREATE INDEX audit_logs_user_idx ON audit_logs(user_id, created_at DESC);

    CREATE TABLE notifications (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      user_id uuid REFERENCES users(id) ON DELETE CASCADE,
      kind text NOT NULL,
      params jsonb NOT NULL DEFAULT '{}'::jsonb,
      link text,
      read_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notifications_user_idx ON notifications(account_id, user_id, created_at DESC, id DESC);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE IF EXISTS notifications, audit_logs, outbound_emails, refresh_tokens, user_tokens,
      invitations, account_plans, plans, memberships, departments, users, accounts, whitelabels, currencies CASCADE;
  `);
};
