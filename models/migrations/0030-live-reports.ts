import type { MigrationFn } from "../migrate";

/**
 * Live chat reports (issue 5, ADR 019).
 *
 * - sms_exports.kind: the export machinery of ADR 009 (row, `jobs:sms-exports` stream, worker
 *   job, sweep, download) now serves more than the SMS history; `kind` says which SELECT the job
 *   runs ('sms' = the SMS history, 'live_rooms' = the conversations of a period). Existing rows
 *   are SMS exports. Each screen lists only its own kind.
 * - Indexes for the reports of a period: messages per São Paulo day of an account
 *   (live_messages by account and time), and the transition log by account and time (what
 *   happened to the rooms of a period is read per room through live_room_events_room_idx).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE sms_exports ADD COLUMN kind text NOT NULL DEFAULT 'sms' CHECK (kind IN ('sms','live_rooms'));
    CREATE INDEX sms_exports_account_kind_idx ON sms_exports(account_id, kind, created_at DESC, id DESC);
    CREATE INDEX IF NOT EXISTS live_messages_account_created_idx ON live_messages(account_id, created_at);
    CREATE INDEX IF NOT EXISTS live_room_events_account_created_idx ON live_room_events(account_id, created_at);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP INDEX IF EXISTS live_room_events_account_created_idx;
    DROP INDEX IF EXISTS live_messages_account_created_idx;
    DROP INDEX IF EXISTS sms_exports_account_kind_idx;
    ALTER TABLE sms_exports DROP COLUMN IF EXISTS kind;
  `);
};
