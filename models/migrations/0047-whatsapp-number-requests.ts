import type { MigrationFn } from "../migrate";

/**
 * Requests for a WhatsApp number (issue 16, /whatsapp/request): the business data Meta's
 * onboarding asks for (legal name, CNPJ, website, e-mail, phone, address, display name, category),
 * the number to register and the integration wanted, written by the account for platform staff.
 * - status: requested -> in_review -> approved | rejected (with the reason) | canceled; the
 *   account cancels while requested or in_review. status_at: when the current status began (UTC).
 * - One pending request (requested or in_review) per account and number.
 * - whatsapp_numbers gets an index on the digits of its display number: a request for a number
 *   any account has connected is refused ('Number already registered').
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE whatsapp_number_requests (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      legal_name text NOT NULL CHECK (length(legal_name) BETWEEN 2 AND 200),
      cnpj text NOT NULL CHECK (cnpj ~ '^[0-9A-Z]{12}[0-9]{2}$'),
      website text CHECK (length(website) <= 500),
      email text NOT NULL CHECK (length(email) <= 254),
      business_phone text NOT NULL CHECK (business_phone ~ '^\\+[1-9][0-9]{6,14}$'),
      address text CHECK (length(address) <= 256),
      display_name text NOT NULL CHECK (length(display_name) BETWEEN 3 AND 200),
      vertical text NOT NULL CHECK (vertical IN ('AUTO','BEAUTY','APPAREL','EDU','ENTERTAIN','EVENT_PLAN','FINANCE','GROCERY','GOVT','HOTEL','HEALTH','NONPROFIT','PROF_SERVICES','RETAIL','TRAVEL','RESTAURANT','OTHER')),
      phone_number text NOT NULL CHECK (phone_number ~ '^\\+[1-9][0-9]{6,14}$'),
      integration text NOT NULL CHECK (integration IN ('cloud','onprem')),
      description text CHECK (length(description) <= 512),
      status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested','in_review','approved','rejected','canceled')),
      reason text CHECK (length(reason) <= 500),
      status_at timestamptz NOT NULL DEFAULT now(),
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      canceled_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (status <> 'rejected' OR reason IS NOT NULL)
    );
    CREATE INDEX whatsapp_number_requests_account_idx ON whatsapp_number_requests(account_id, created_at DESC, id DESC);
    CREATE UNIQUE INDEX whatsapp_number_requests_pending_idx ON whatsapp_number_requests(account_id, phone_number) WHERE status IN ('requested','in_review');
    CREATE INDEX whatsapp_numbers_display_digits_idx ON whatsapp_numbers ((regexp_replace(display_phone_number, '[^0-9]', '', 'g')));
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP INDEX IF EXISTS whatsapp_numbers_display_digits_idx; DROP TABLE whatsapp_number_requests;`);
};
