import type { MigrationFn } from "../migrate";

/**
 * WhatsApp sends (issue 16):
 * - messages.content: what a channel richer than a text sends, as the provider takes it (for
 *   WhatsApp, Graph's message object: type and text, or template with name, language and
 *   components); NULL for SMS. The body column keeps the readable text (history, search).
 * - whatsapp_prices: an account's price per message by Meta's category (marketing, utility,
 *   authentication, and service: a free-form message inside the 24-hour window), in the account's
 *   currency, like sms_prices per route (api/sms/pricing.ts CHANNEL_PRICING; the defaults there
 *   apply to an account without its own row).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE messages ADD COLUMN content jsonb;
    -- WhatsApp's message types (Graph's) besides SMS's text and location.
    ALTER TABLE messages DROP CONSTRAINT messages_type_check;
    ALTER TABLE messages ADD CONSTRAINT messages_type_check CHECK (type IN ('text','location','template','image','video','document','audio','interactive'));
    CREATE TABLE whatsapp_prices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      route text NOT NULL CHECK (route IN ('marketing','utility','authentication','service')),
      price_per_segment bigint NOT NULL CHECK (price_per_segment >= 0),
      currency char(3) NOT NULL DEFAULT 'BRL',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, route)
    );
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE whatsapp_prices;
    ALTER TABLE messages DROP COLUMN content;
    ALTER TABLE messages DROP CONSTRAINT messages_type_check;
    ALTER TABLE messages ADD CONSTRAINT messages_type_check CHECK (type IN ('text','location'));
  `);
};
