import type { MigrationFn } from "../migrate";

/**
 * E-mail history exports (issue 17): the export machinery of ADR 009 (sms_exports row,
 * `jobs:sms-exports` stream, worker job, sweep, download) also writes the e-mail history; kind
 * 'email' says the job's SELECT reads the messages of channel 'email' (api/sms/export-job.ts
 * emailExportSelect).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE sms_exports DROP CONSTRAINT IF EXISTS sms_exports_kind_check;
    ALTER TABLE sms_exports ADD CONSTRAINT sms_exports_kind_check CHECK (kind IN ('sms','live_rooms','whatsapp','email'));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DELETE FROM sms_exports WHERE kind = 'email';
    ALTER TABLE sms_exports DROP CONSTRAINT IF EXISTS sms_exports_kind_check;
    ALTER TABLE sms_exports ADD CONSTRAINT sms_exports_kind_check CHECK (kind IN ('sms','live_rooms','whatsapp'));
  `);
};
