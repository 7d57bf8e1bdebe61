import type { MigrationFn } from "../migrate";

/**
 * Platform administration's audit, logs and SMS trackers (issue 23, ADR 062).
 * - app_logs: application errors (the API's 5xx and unexpected errors) and provider failures (an
 *   adapter's refusal or error while sending), one row each, written by the code that sees them
 *   (api/app-logs/record.ts). Bounded: `message` at most 500 characters (redacted of anything that
 *   looks like a credential), never a message body; the worker keeps 30 days and at most 100,000
 *   rows. `account_id` is the account concerned when known (SET NULL: a log outlives its account
 *   only as platform history).
 * - sms_trackers: a phone number (E.164) or sender id that platform staff follow across every
 *   account; one per kind and value. `account_id` is the platform account that made it.
 * - messages_sender_created_idx: a sender's messages across accounts, newest first (a tracker's
 *   page; the recipient's side has messages_outbound_recipient_idx).
 * - audit_logs_created_idx: the platform-wide audit, newest first, and its insights by day.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE app_logs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      source text NOT NULL CHECK (source IN ('api', 'provider')),
      code text NOT NULL CHECK (length(code) BETWEEN 1 AND 100),
      message text NOT NULL CHECK (length(message) <= 500),
      account_id uuid REFERENCES accounts(id) ON DELETE SET NULL,
      detail jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX app_logs_created_idx ON app_logs(created_at DESC, id DESC);
    CREATE INDEX app_logs_account_idx ON app_logs(account_id, created_at DESC, id DESC) WHERE account_id IS NOT NULL;

    CREATE TABLE sms_trackers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('phone', 'sender')),
      value text NOT NULL CHECK (length(value) BETWEEN 1 AND 16),
      label text CHECK (length(label) <= 100),
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (kind, value)
    );

    CREATE INDEX IF NOT EXISTS messages_sender_created_idx ON messages (sender, created_at DESC);
    CREATE INDEX IF NOT EXISTS audit_logs_created_idx ON audit_logs(created_at DESC, id DESC);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP INDEX IF EXISTS audit_logs_created_idx;
    DROP INDEX IF EXISTS messages_sender_created_idx;
    DROP TABLE IF EXISTS sms_trackers;
    DROP TABLE IF EXISTS app_logs;
  `);
};
