import type { MigrationFn } from "../migrate";

/**
 * WhatsApp history exports (issue 16): the export machinery of ADR 009 (sms_exports row,
 * `jobs:sms-exports` stream, worker job, sweep, download) also writes the WhatsApp history;
 * kind 'whatsapp' says the job's SELECT reads the messages of channel 'whatsapp'.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE sms_exports DROP CONSTRAINT IF EXISTS sms_exports_kind_check;
    ALTER TABLE sms_exports ADD CONSTRAINT sms_exports_kind_check CHECK (kind IN ('sms','live_rooms','whatsapp'));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DELETE FROM sms_exports WHERE kind = 'whatsapp';
    ALTER TABLE sms_exports DROP CONSTRAINT IF EXISTS sms_exports_kind_check;
    ALTER TABLE sms_exports ADD CONSTRAINT sms_exports_kind_check CHECK (kind IN ('sms','live_rooms'));
  `);
};
