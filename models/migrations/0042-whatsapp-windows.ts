import type { MigrationFn } from "../migrate";

/**
 * The WhatsApp customer-service window (issue 16; spec section 4: "WhatsApp session needs a
 * template after 24 hours"): per number and contact (Meta's wa_id, E.164 here), when the contact
 * last wrote to the number. The window is open until 24 hours after that; outside it only a
 * template may be sent. Written by the inbound message webhook (the latest time wins).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE whatsapp_windows (
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      number_id uuid NOT NULL REFERENCES whatsapp_numbers(id) ON DELETE CASCADE,
      contact text NOT NULL CHECK (contact ~ '^\\+[1-9][0-9]{7,14}$'),
      last_inbound_at timestamptz NOT NULL,
      PRIMARY KEY (number_id, contact)
    );
    CREATE INDEX whatsapp_windows_account_idx ON whatsapp_windows(account_id, last_inbound_at DESC);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE whatsapp_windows;`);
};
