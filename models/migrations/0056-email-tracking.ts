import type { MigrationFn } from "../migrate";

/**
 * E-mail open and click tracking (issue 17, ADR 039):
 * - `email_tracking_settings`: an account's choice (GET/PUT /api/email/subscription-tracking-settings);
 *   no row means both on. Off: nothing of a message is rewritten and no pixel is added.
 * - `email_engagements`: every open (the pixel fetched) and click (a signed redirect followed) of an
 *   e-mail, counted beyond the first, with the recipient's domain and the message's campaign copied
 *   from the message (insights group by them without reading `messages`). No foreign key to
 *   `messages` (partitioned by month, ADR 029): a row names its message by id.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE email_tracking_settings (
      account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
      open_tracking boolean NOT NULL DEFAULT true,
      click_tracking boolean NOT NULL DEFAULT true,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE email_engagements (
      id bigserial PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      message_id uuid NOT NULL,
      campaign_id uuid,
      kind text NOT NULL CHECK (kind IN ('open', 'click')),
      url text CHECK ((kind = 'click') = (url IS NOT NULL) AND length(url) <= 2048),
      recipient_domain text NOT NULL CHECK (length(recipient_domain) <= 253),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX email_engagements_account_time_idx ON email_engagements (account_id, created_at DESC, id DESC);
    CREATE INDEX email_engagements_time_idx ON email_engagements (created_at);
    CREATE INDEX email_engagements_message_idx ON email_engagements (message_id, kind);
    CREATE INDEX email_engagements_campaign_idx ON email_engagements (campaign_id, created_at) WHERE campaign_id IS NOT NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE email_engagements;
    DROP TABLE email_tracking_settings;
  `);
};
