import type { MigrationFn } from "../migrate";

/**
 * WhatsApp as a live chat channel (issue 16): an agent's message in a WhatsApp room is a message
 * of the pipeline (priced, debited, dispatched through the number's adapter, moved by the
 * provider's statuses: api/whatsapp/live.ts). The live message names it, so its statuses reach
 * the room (delivered, read, failed). No foreign key: messages is partitioned by month.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE live_messages ADD COLUMN message_id uuid;
    CREATE INDEX live_messages_message_idx ON live_messages(message_id) WHERE message_id IS NOT NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE live_messages DROP COLUMN message_id;`);
};
