import type { MigrationFn } from "../migrate";

/**
 * An e-mail file send keeps its invalid rows like an SMS one (api/sms/invalid-rows.ts): a cell that
 * is no address is `invalid_email` (an empty one stays `empty`).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE campaign_invalid_rows DROP CONSTRAINT campaign_invalid_rows_reason_check;
    ALTER TABLE campaign_invalid_rows ADD CONSTRAINT campaign_invalid_rows_reason_check CHECK (reason IN ('empty', 'invalid_phone', 'invalid_email'));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DELETE FROM campaign_invalid_rows WHERE reason = 'invalid_email';
    ALTER TABLE campaign_invalid_rows DROP CONSTRAINT campaign_invalid_rows_reason_check;
    ALTER TABLE campaign_invalid_rows ADD CONSTRAINT campaign_invalid_rows_reason_check CHECK (reason IN ('empty', 'invalid_phone'));
  `);
};
