import type { MigrationFn } from "../migrate";

/**
 * Account-wide message options (issue 23, ADR 071): one row per account, absent until first saved
 * (then every option is at its default: no default sender, no signature, no opt-out text, no window).
 * - Default senders (/settings/resources): what a send that names no sender goes from — an SMS
 *   short code of the account (blank: the route's default), a WhatsApp number, an RCS agent, an
 *   e-mail address on one of the account's domains with its display name. Ownership and state
 *   are checked when saved and again at each send (a sender deleted later falls back or refuses).
 * - Texts (/settings/messages): a signature appended to the text of the channels listed in
 *   signature_channels, and an opt-out text appended to every SMS campaign message.
 * - The marketing window: campaigns (sends to many) of every channel go out only on the listed
 *   weekdays (0 = Sunday) between window_start and window_end, minutes of the day in
 *   America/Sao_Paulo; a campaign started or scheduled outside it is scheduled for its next opening.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE account_message_settings (
      account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      sms_sender text NOT NULL DEFAULT '' CHECK (sms_sender ~ '^[0-9]{0,20}$'),
      whatsapp_number_id uuid REFERENCES whatsapp_numbers(id) ON DELETE SET NULL,
      rcs_agent_id uuid REFERENCES rcs_agents(id) ON DELETE SET NULL,
      email_from text CHECK (char_length(email_from) <= 254),
      email_from_name text NOT NULL DEFAULT '' CHECK (char_length(email_from_name) <= 100),
      signature text NOT NULL DEFAULT '' CHECK (char_length(signature) <= 60),
      signature_channels text[] NOT NULL DEFAULT '{}' CHECK (signature_channels <@ ARRAY['sms','whatsapp']::text[]),
      optout_text text NOT NULL DEFAULT '' CHECK (char_length(optout_text) <= 60),
      window_enabled boolean NOT NULL DEFAULT false,
      window_start smallint NOT NULL DEFAULT 480 CHECK (window_start BETWEEN 0 AND 1439),
      window_end smallint NOT NULL DEFAULT 1200 CHECK (window_end BETWEEN 1 AND 1440 AND window_end > window_start),
      window_days smallint[] NOT NULL DEFAULT '{1,2,3,4,5,6}' CHECK (window_days <@ ARRAY[0,1,2,3,4,5,6]::smallint[]),
      updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (NOT window_enabled OR cardinality(window_days) > 0)
    );
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS account_message_settings`);
};
