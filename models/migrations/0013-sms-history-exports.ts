import type { MigrationFn } from "../migrate";

/**
 * SMS history, reports and exports (issue 4, ADR 009):
 *  - messages.type ('text' or 'location', with latitude/longitude for a location) and
 *    messages.carrier (the handset's operator as the provider's receipt names it);
 *  - sms_exports: one history export of an account (the filter it was asked with, its state
 *    queued → processing → done | failed, the rows written and the CSV's path under UPLOAD_DIR);
 *  - indexes for the history filtered by status or by sender: (account_id, channel, status |
 *    sender, created_at DESC, id DESC) answer "failed in the last 31 days" or "sender PROMO" from
 *    the index in the history's order (keyset too), and the capped count as an index-only scan,
 *    instead of walking every message of the range (bench/history.mjs: status=failed p95 85 ms →
 *    see docs/benchmarks.md; a sender with no message took seconds over 5,000,000 rows). Status
 *    is already in an index (messages_campaign_status_idx), so status updates were not HOT
 *    before; the sender never changes after insert.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE messages
      ADD COLUMN type text NOT NULL DEFAULT 'text' CHECK (type IN ('text','location')),
      ADD COLUMN latitude numeric(9,6) CHECK (latitude BETWEEN -90 AND 90),
      ADD COLUMN longitude numeric(9,6) CHECK (longitude BETWEEN -180 AND 180),
      ADD COLUMN carrier text CHECK (carrier IS NULL OR length(carrier) <= 40);
    CREATE INDEX IF NOT EXISTS messages_account_status_history_idx ON messages(account_id, channel, status, created_at DESC, id DESC);
    CREATE INDEX IF NOT EXISTS messages_account_sender_history_idx ON messages(account_id, channel, sender, created_at DESC, id DESC);

    CREATE TABLE sms_exports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      filter jsonb NOT NULL DEFAULT '{}'::jsonb,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','processing','done','failed')),
      rows integer NOT NULL DEFAULT 0 CHECK (rows >= 0),
      file_path text,
      file_size bigint,
      error text,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz
    );
    CREATE INDEX sms_exports_account_idx ON sms_exports(account_id, created_at DESC, id DESC);
    CREATE INDEX sms_exports_pending_idx ON sms_exports(status, updated_at) WHERE status IN ('queued','processing');
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE IF EXISTS sms_exports;
    DROP INDEX IF EXISTS messages_account_sender_history_idx;
    DROP INDEX IF EXISTS messages_account_status_history_idx;
    ALTER TABLE messages DROP COLUMN IF EXISTS carrier, DROP COLUMN IF EXISTS longitude, DROP COLUMN IF EXISTS latitude, DROP COLUMN IF EXISTS type;
  `);
};
