import type { MigrationFn } from "../migrate";

/**
 * WhatsApp stickers (issue 16, media upload): Graph's `sticker` message type was accepted by the
 * send's schema but not by messages.type, so a sticker send failed on the constraint. Added to the
 * types of 0043.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE messages DROP CONSTRAINT messages_type_check;
    ALTER TABLE messages ADD CONSTRAINT messages_type_check CHECK (type IN ('text','location','template','image','video','document','audio','sticker','interactive'));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE messages DROP CONSTRAINT messages_type_check;
    ALTER TABLE messages ADD CONSTRAINT messages_type_check CHECK (type IN ('text','location','template','image','video','document','audio','interactive'));
  `);
};
