import type { MigrationFn } from "../migrate";

/**
 * E-mail templates and the template library (issue 17, ADR 037). A template of an account keeps
 * its MJML source and the HTML compiled from it at save (so a send never compiles), a subject, an
 * optional text part and an active flag (an inactive one is refused at send). The library
 * (/email/libs) holds starting points: the platform's (account_id NULL, readable by every account,
 * seeded) and an account's own saved entries. Names are unique per account ignoring case (and
 * among the platform's entries).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    CREATE TABLE email_templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
      subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 900),
      mjml text NOT NULL CHECK (octet_length(mjml) <= 524288),
      html text NOT NULL CHECK (octet_length(html) <= 524288),
      text text CHECK (octet_length(text) <= 262144),
      active boolean NOT NULL DEFAULT true,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX email_templates_name_unique ON email_templates(account_id, lower(name));

    CREATE TABLE email_template_libs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account_id uuid REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 300),
      subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 900),
      mjml text NOT NULL CHECK (octet_length(mjml) <= 524288),
      html text NOT NULL CHECK (octet_length(html) <= 524288),
      text text CHECK (octet_length(text) <= 262144),
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX email_template_libs_account_name_idx ON email_template_libs(account_id, lower(name)) WHERE account_id IS NOT NULL;
    CREATE UNIQUE INDEX email_template_libs_platform_name_idx ON email_template_libs(lower(name)) WHERE account_id IS NULL;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`DROP TABLE IF EXISTS email_template_libs; DROP TABLE IF EXISTS email_templates;`);
};
