import type { MigrationFn } from "../migrate";

/**
 * Invalid rows of a CSV-file SMS send (issue 4): the staging table keeps them beside the valid
 * ones (`reason` set, `recipient` holding the cell as written, `n` the file's line number), and
 * the accept transaction moves them into `campaign_invalid_rows`, from which the campaign's
 * report of invalid rows (line, value, reason) is downloaded as CSV on the web and through the API.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE sms_send_rows ADD COLUMN reason text;
    CREATE TABLE campaign_invalid_rows (
      campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      line bigint NOT NULL,
      value text NOT NULL,
      reason text NOT NULL CHECK (reason IN ('empty', 'invalid_phone')),
      PRIMARY KEY (campaign_id, line)
    );
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS campaign_invalid_rows; ALTER TABLE sms_send_rows DROP COLUMN IF EXISTS reason;`);
};
