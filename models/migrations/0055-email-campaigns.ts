import type { MigrationFn } from "../migrate";

/**
 * E-mail campaigns and unsubscribe (issue 17, ADR 038):
 * - `campaigns.content`: the one copy of an e-mail campaign's content (subject, HTML, text, from
 *   name, reply-to, sending domain), read by the SMTP adapter per message; the campaign's messages
 *   hold only what differs (recipient, variables).
 * - opt-outs of source `unsubscribe`: the recipient used a campaign e-mail's List-Unsubscribe link
 *   (RFC 8058 one-click or the confirm page of the unsubscribe host).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE campaigns ADD COLUMN content jsonb;
    ALTER TABLE optouts DROP CONSTRAINT optouts_source_check;
    ALTER TABLE optouts ADD CONSTRAINT optouts_source_check CHECK (source IN ('manual','keyword','api','import','complaint','unsubscribe'));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DELETE FROM optouts WHERE source = 'unsubscribe';
    ALTER TABLE optouts DROP CONSTRAINT optouts_source_check;
    ALTER TABLE optouts ADD CONSTRAINT optouts_source_check CHECK (source IN ('manual','keyword','api','import','complaint'));
    ALTER TABLE campaigns DROP COLUMN IF EXISTS content;
  `);
};
