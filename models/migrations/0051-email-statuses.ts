import type { MigrationFn } from "../migrate";

/**
 * E-mail messages on the pipeline (issue 17, ADR 036): the statuses e-mail adds (spec section 4:
 * deferred, opened, clicked, bounced, dropped, blocked) and the `email` message type.
 */
const BEFORE = ["pending", "queued", "sending", "sent", "delivered", "read", "unavailable", "failed", "received", "scheduled", "rejected", "optout"];
const AFTER = [...BEFORE, "deferred", "opened", "clicked", "bounced", "dropped", "blocked"];
const TYPES = ["text", "location", "template", "image", "video", "document", "audio", "sticker", "interactive"];
const list = (values: string[]) => values.map((v) => `'${v}'`).join(",");

export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE messages DROP CONSTRAINT messages_status_check;
    ALTER TABLE messages ADD CONSTRAINT messages_status_check CHECK (status IN (${list(AFTER)}));
    ALTER TABLE messages DROP CONSTRAINT messages_type_check;
    ALTER TABLE messages ADD CONSTRAINT messages_type_check CHECK (type IN (${list([...TYPES, "email"])}));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE messages DROP CONSTRAINT messages_status_check;
    ALTER TABLE messages ADD CONSTRAINT messages_status_check CHECK (status IN (${list(BEFORE)}));
    ALTER TABLE messages DROP CONSTRAINT messages_type_check;
    ALTER TABLE messages ADD CONSTRAINT messages_type_check CHECK (type IN (${list(TYPES)}));
  `);
};
