import type { MigrationFn } from "../migrate";

/**
 * Campaigns and SMS templates (issue 4). A campaign is one send to many recipients (a list, a
 * CSV file or a group): its messages point at it (messages.campaign_id) and its per-status counts
 * are counted from them (index on (campaign_id, status)). Its own status is the campaign's life:
 * scheduled → preparing (recipients being expanded) → running → completed, with paused and
 * canceled set by the account. Templates hold a body with {{variables}}.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE sms_templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
      body text NOT NULL CHECK (length(body) BETWEEN 1 AND 1600),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX sms_templates_account_name_idx ON sms_templates(account_id, lower(name));

    CREATE TABLE campaigns (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      channel text NOT NULL CHECK (channel ~ '^[a-z][a-z0-9_]{1,30}$'),
      name text NOT NULL DEFAULT '' CHECK (length(name) <= 120),
      status text NOT NULL DEFAULT 'running' CHECK (status IN ('scheduled','preparing','running','paused','canceled','completed','failed')),
      sender text NOT NULL DEFAULT '',
      body text NOT NULL DEFAULT '',
      route text,
      template_id uuid REFERENCES sms_templates(id) ON DELETE SET NULL,
      source jsonb NOT NULL DEFAULT '{}'::jsonb,
      total integer NOT NULL DEFAULT 0 CHECK (total >= 0),
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      scheduled_at timestamptz,
      started_at timestamptz,
      completed_at timestamptz,
      canceled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX campaigns_account_list_idx ON campaigns(account_id, channel, created_at DESC, id DESC);

    ALTER TABLE messages ADD COLUMN campaign_id uuid REFERENCES campaigns(id) ON DELETE SET NULL;
    CREATE INDEX messages_campaign_status_idx ON messages(campaign_id, status) WHERE campaign_id IS NOT NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP INDEX IF EXISTS messages_campaign_status_idx;
    ALTER TABLE messages DROP COLUMN IF EXISTS campaign_id;
    DROP TABLE IF EXISTS campaigns;
    DROP TABLE IF EXISTS sms_templates;
  `);
};
