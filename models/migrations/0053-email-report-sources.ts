import type { MigrationFn } from "../migrate";

/**
 * Opt-outs the e-mail channel records by itself (issue 17, ADR 036): `complaint` — the recipient
 * marked a message as spam (an ARF report) — besides the person's own (manual, keyword, api, import).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE optouts DROP CONSTRAINT optouts_source_check;
    ALTER TABLE optouts ADD CONSTRAINT optouts_source_check CHECK (source IN ('manual','keyword','api','import','complaint'));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DELETE FROM optouts WHERE source = 'complaint';
    ALTER TABLE optouts DROP CONSTRAINT optouts_source_check;
    ALTER TABLE optouts ADD CONSTRAINT optouts_source_check CHECK (source IN ('manual','keyword','api','import'));
  `);
};
