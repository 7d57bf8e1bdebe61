import type { MigrationFn } from "../migrate";

/**
 * CSV imports (issue 3): a failed import names what failed (e.g. the file of a layout error), so
 * the screen can say 'Layout error: the file clientes.csv could not be read as CSV'.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE contact_imports ADD COLUMN failure_params jsonb NOT NULL DEFAULT '{}'::jsonb;`);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE contact_imports DROP COLUMN IF EXISTS failure_params;`);
};
