import type { MigrationFn } from "../migrate";

/**
 * Our SMPP server (issue 12): replace_sm carries no data_coding — its short_message is in the
 * coding of the submit it replaces (SMPP 3.4 4.10) — so each SMPP message keeps the data_coding
 * it was submitted with (of part 1 for a concatenated message).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE smpp_messages ADD COLUMN data_coding smallint NOT NULL DEFAULT 0 CHECK (data_coding BETWEEN 0 AND 255);`);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE smpp_messages DROP COLUMN IF EXISTS data_coding;`);
};
