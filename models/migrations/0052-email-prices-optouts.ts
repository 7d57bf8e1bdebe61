import type { MigrationFn } from "../migrate";

/**
 * E-mail prices (issue 17; spec: "E-mail send price per product", "e-mail route T1"): an account's
 * price per e-mail in its currency, like sms_prices per route (api/sms/pricing.ts CHANNEL_PRICING;
 * the default there when an account has no row). Opt-outs and the deny list take e-mail
 * addresses too: an opt-out of channel `email` is an address (lower case), any other channel's an
 * E.164 number; a deny list entry is either.
 */
const E164 = "'^\\+[1-9][0-9]{7,14}$'";
const ADDRESS = "'^[^@[:space:]]+@[^@[:space:]]+$'";
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE email_prices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      route text NOT NULL CHECK (route IN ('T1')),
      price_per_segment bigint NOT NULL CHECK (price_per_segment >= 0),
      currency char(3) NOT NULL DEFAULT 'BRL',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, route)
    );
    ALTER TABLE optouts DROP CONSTRAINT optouts_recipient_check;
    ALTER TABLE optouts ADD CONSTRAINT optouts_recipient_check CHECK (
      CASE WHEN channel = 'email' THEN length(recipient) <= 254 AND recipient ~ ${ADDRESS} AND recipient = lower(recipient) ELSE recipient ~ ${E164} END);
    ALTER TABLE deny_list DROP CONSTRAINT deny_list_recipient_check;
    ALTER TABLE deny_list ADD CONSTRAINT deny_list_recipient_check CHECK (
      recipient ~ ${E164} OR (length(recipient) <= 254 AND recipient ~ ${ADDRESS} AND recipient = lower(recipient)));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE email_prices;
    DELETE FROM optouts WHERE channel = 'email';
    DELETE FROM deny_list WHERE recipient !~ ${E164};
    ALTER TABLE optouts DROP CONSTRAINT optouts_recipient_check;
    ALTER TABLE optouts ADD CONSTRAINT optouts_recipient_check CHECK (recipient ~ ${E164});
    ALTER TABLE deny_list DROP CONSTRAINT deny_list_recipient_check;
    ALTER TABLE deny_list ADD CONSTRAINT deny_list_recipient_check CHECK (recipient ~ ${E164});
  `);
};
