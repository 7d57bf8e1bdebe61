import type { MigrationFn } from "../migrate";

/**
 * SMPP users may be given up to 5,000 submits per second (issue 14: one bind sustains more than
 * 1,000; api/smpp/schemas.ts MAX_TPS is the rule, this the database's guard).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE smpp_users DROP CONSTRAINT smpp_users_tps_check;
    ALTER TABLE smpp_users ADD CONSTRAINT smpp_users_tps_check CHECK (tps BETWEEN 1 AND 5000);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    UPDATE smpp_users SET tps = 1000 WHERE tps > 1000;
    ALTER TABLE smpp_users DROP CONSTRAINT smpp_users_tps_check;
    ALTER TABLE smpp_users ADD CONSTRAINT smpp_users_tps_check CHECK (tps BETWEEN 1 AND 1000);
  `);
};
