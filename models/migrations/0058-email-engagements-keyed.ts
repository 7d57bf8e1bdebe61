import type { MigrationFn } from "../migrate";

/**
 * E-mail engagements leave with their message (ADR 029, ADR 039): each row carries its message's
 * `message_created_at`, like the other rows keyed by a message (message_parts, smpp_messages,
 * moderation_holds), so the partition job exports and deletes a month's opens and clicks with the
 * month's messages. Rows whose message is already gone are deleted.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE email_engagements ADD COLUMN message_created_at timestamptz;
    UPDATE email_engagements e SET message_created_at = m.created_at FROM messages m WHERE m.id = e.message_id;
    DELETE FROM email_engagements WHERE message_created_at IS NULL;
    ALTER TABLE email_engagements ALTER COLUMN message_created_at SET NOT NULL;
    CREATE INDEX email_engagements_message_created_idx ON email_engagements (message_created_at);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE email_engagements DROP COLUMN message_created_at;`);
};
