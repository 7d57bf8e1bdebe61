import type { MigrationFn } from "../migrate";

/**
 * WhatsApp (issue 16), first part: the numbers an account connects and its message templates.
 * - whatsapp_numbers: a number of the newer integration (Meta's Cloud API: the phone number id and
 *   the WhatsApp Business Account id it belongs to) or of the older one (an On-Premises API
 *   client: its base URL). A number belongs to one account at a time. What Meta reports about it
 *   (display number, verified name, quality rating, messaging limit) is read at connect and kept.
 *   Every secret (access token, app secret, webhook verify token; the older client's password) in
 *   one sealed JSON (api/lib/crypto seal), like live_channel_connections.
 * - whatsapp_templates: a template as submitted to the provider (Meta's components, as JSON), and
 *   the status the provider's template webhooks move it through: pending -> approved | rejected
 *   (with the reason), approved <-> paused, -> disabled; an event older than status_at (a replay, a
 *   late delivery) changes nothing. Unique per number, name and language.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE whatsapp_numbers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      integration text NOT NULL CHECK (integration IN ('cloud','onprem')),
      phone_number_id text NOT NULL CHECK (phone_number_id ~ '^[0-9]{1,32}$'),
      waba_id text CHECK (waba_id ~ '^[0-9]{1,32}$'),
      base_url text CHECK (length(base_url) <= 500),
      display_phone_number text NOT NULL DEFAULT '' CHECK (length(display_phone_number) <= 40),
      verified_name text NOT NULL DEFAULT '' CHECK (length(verified_name) <= 200),
      quality_rating text NOT NULL DEFAULT 'UNKNOWN' CHECK (length(quality_rating) <= 20),
      messaging_limit text NOT NULL DEFAULT '' CHECK (length(messaging_limit) <= 40),
      secrets_sealed text NOT NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((integration = 'cloud' AND waba_id IS NOT NULL) OR (integration = 'onprem' AND base_url IS NOT NULL))
    );
    CREATE UNIQUE INDEX whatsapp_numbers_number_idx ON whatsapp_numbers(integration, phone_number_id);
    CREATE INDEX whatsapp_numbers_account_idx ON whatsapp_numbers(account_id, created_at);

    CREATE TABLE whatsapp_templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      number_id uuid NOT NULL REFERENCES whatsapp_numbers(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (name ~ '^[a-z0-9_]+$' AND length(name) <= 512),
      language text NOT NULL CHECK (language ~ '^[a-z]{2,3}(_[A-Z]{2})?$'),
      category text NOT NULL CHECK (category IN ('utility','marketing','authentication')),
      components jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','rejected','paused','disabled')),
      reason text CHECK (length(reason) <= 500),
      provider_template_id text CHECK (length(provider_template_id) <= 64),
      -- when the provider decided the current status (its webhook's time): an older event, replayed or late, changes nothing
      status_at timestamptz,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX whatsapp_templates_name_idx ON whatsapp_templates(number_id, name, language);
    CREATE INDEX whatsapp_templates_account_idx ON whatsapp_templates(account_id, created_at);
    CREATE INDEX whatsapp_templates_provider_idx ON whatsapp_templates(provider_template_id) WHERE provider_template_id IS NOT NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE whatsapp_templates; DROP TABLE whatsapp_numbers;`);
};
