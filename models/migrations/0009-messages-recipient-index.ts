import type { MigrationFn } from "../migrate";

/**
 * SMS history filtered by recipient (GET /api/sms/messages?to=…, issue 4): the history index
 * (account_id, created_at DESC, id DESC) would read every message of the range to find one
 * number's (about 300 ms over 2.4 million rows of one account). This index answers the page and
 * the capped count directly, in the same (created_at, id) order, so the keyset cursor works too.
 * The recipient never changes after insert, so status updates stay HOT.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`CREATE INDEX IF NOT EXISTS messages_account_recipient_idx ON messages(account_id, recipient, created_at DESC, id DESC)`);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP INDEX IF EXISTS messages_account_recipient_idx`);
};
