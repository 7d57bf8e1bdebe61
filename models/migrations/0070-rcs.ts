import type { MigrationFn } from "../migrate";

/**
 * RCS (issue 21, ADR 055): the channel's own tables and its messages on the one pipeline.
 * - messages: RCS's content types (spec section 3: link, midia, card, card-carousel; text exists);
 *   messages.content keeps the spec's content JSON (api/rcs/content.ts), body its readable text;
 *   `fallback_of` names the RCS message an SMS leg stands in for (a handset not RCS-capable).
 * - rcs_agents: an account's branded agent (the request form's fields), its Google agent id once
 *   launched, its launch state per carrier.
 * - rcs_prices: an account's price per message by class (basic: a text under 160 characters;
 *   rich: longer text or any rich content), like whatsapp_prices.
 * - rcs_templates, rcs_template_groups (+members): saved contents, grouped.
 * - rcs_keywords: an inbound text equal to the keyword (case-insensitive) is answered by the agent.
 * - accounts.rcs_fallback_sms: a send to a handset that is not RCS-capable goes as SMS instead.
 * - live_rooms: RCS becomes a live chat channel.
 */
const TYPES = ["text", "location", "template", "image", "video", "document", "audio", "sticker", "interactive", "email"];
const RCS_TYPES = ["link", "midia", "card", "card-carousel"];
const LIVE = ["webchat", "telegram", "messenger", "instagram", "google_business", "whatsapp"];
const list = (values: string[]) => values.map((v) => `'${v}'`).join(",");

export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE messages DROP CONSTRAINT messages_type_check;
    ALTER TABLE messages ADD CONSTRAINT messages_type_check CHECK (type IN (${list([...TYPES, ...RCS_TYPES])}));
    ALTER TABLE messages ADD COLUMN fallback_of uuid;
    CREATE INDEX messages_fallback_of_idx ON messages(fallback_of) WHERE fallback_of IS NOT NULL;

    ALTER TABLE live_rooms DROP CONSTRAINT live_rooms_channel_check;
    ALTER TABLE live_rooms ADD CONSTRAINT live_rooms_channel_check CHECK (channel IN (${list([...LIVE, "rcs"])}));

    ALTER TABLE accounts ADD COLUMN rcs_fallback_sms boolean NOT NULL DEFAULT false;

    CREATE TABLE rcs_agents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 100),
      logo_url text NOT NULL,
      banner_url text NOT NULL,
      color char(7) NOT NULL CHECK (color ~ '^#[0-9A-Fa-f]{6}$'),
      phone text NOT NULL,
      website text NOT NULL,
      email text NOT NULL DEFAULT '',
      privacy_url text NOT NULL,
      terms_url text NOT NULL,
      -- requested -> in_review -> launched | rejected; suspended by the platform.
      status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested','in_review','launched','rejected','suspended')),
      -- Google's agent id (…@rbm.goog), set once the agent exists at Google.
      rbm_agent_id text UNIQUE,
      -- Launch state per carrier: [{carrier, state: pending|launched|rejected, updated_at}].
      launches jsonb NOT NULL DEFAULT '[]'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX rcs_agents_account_idx ON rcs_agents(account_id);

    CREATE TABLE rcs_prices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      route text NOT NULL CHECK (route IN ('basic','rich')),
      price_per_segment bigint NOT NULL CHECK (price_per_segment >= 0),
      currency char(3) NOT NULL DEFAULT 'BRL',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, route)
    );

    CREATE TABLE rcs_templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      content jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX rcs_templates_name_idx ON rcs_templates(account_id, lower(name));

    CREATE TABLE rcs_template_groups (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX rcs_template_groups_name_idx ON rcs_template_groups(account_id, lower(name));
    CREATE TABLE rcs_template_group_members (
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      group_id uuid NOT NULL REFERENCES rcs_template_groups(id) ON DELETE CASCADE,
      template_id uuid NOT NULL REFERENCES rcs_templates(id) ON DELETE CASCADE,
      PRIMARY KEY (group_id, template_id)
    );

    CREATE TABLE rcs_keywords (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      agent_id uuid NOT NULL REFERENCES rcs_agents(id) ON DELETE CASCADE,
      keyword text NOT NULL CHECK (length(keyword) BETWEEN 1 AND 50),
      answer text NOT NULL CHECK (length(answer) BETWEEN 1 AND 3072),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX rcs_keywords_keyword_idx ON rcs_keywords(agent_id, lower(keyword));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DROP TABLE rcs_keywords;
    DROP TABLE rcs_template_group_members;
    DROP TABLE rcs_template_groups;
    DROP TABLE rcs_templates;
    DROP TABLE rcs_prices;
    DROP TABLE rcs_agents;
    ALTER TABLE accounts DROP COLUMN rcs_fallback_sms;
    ALTER TABLE live_rooms DROP CONSTRAINT live_rooms_channel_check;
    ALTER TABLE live_rooms ADD CONSTRAINT live_rooms_channel_check CHECK (channel IN (${list(LIVE)}));
    DROP INDEX messages_fallback_of_idx;
    ALTER TABLE messages DROP COLUMN fallback_of;
    ALTER TABLE messages DROP CONSTRAINT messages_type_check;
    ALTER TABLE messages ADD CONSTRAINT messages_type_check CHECK (type IN (${list(TYPES)}));
  `);
};
