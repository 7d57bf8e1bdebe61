import type { MigrationFn } from "../migrate";

/**
 * WhatsApp as a rule channel of the integrations (issue 23, ADR 072): a rule on channel
 * `whatsapp` names one of the account's approved templates and how its parameters are filled.
 * - template: {name, language, variables: [one text per body {{n}}, with the order's
 *   {{placeholders}}], header_variable?, button_variable?}; required on a WhatsApp rule.
 * - number_id: the number it sends from; null = the account's default WhatsApp number
 *   (account_message_settings.whatsapp_number_id, ADR 071) at the time of each send.
 * - text: a WhatsApp rule's text is the template's, so its own may be blank (SMS and e-mail
 *   rules still need one).
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE integration_rules
      ADD COLUMN template jsonb,
      ADD COLUMN number_id uuid REFERENCES whatsapp_numbers(id) ON DELETE SET NULL,
      DROP CONSTRAINT integration_rules_text_check,
      ADD CONSTRAINT integration_rules_text_check CHECK (char_length(text) <= 1000 AND (channel = 'whatsapp' OR char_length(text) >= 1)),
      ADD CONSTRAINT integration_rules_template_check CHECK (channel <> 'whatsapp' OR jsonb_typeof(template) = 'object');
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    DELETE FROM integration_rules WHERE channel = 'whatsapp';
    ALTER TABLE integration_rules
      DROP CONSTRAINT integration_rules_template_check,
      DROP CONSTRAINT integration_rules_text_check,
      ADD CONSTRAINT integration_rules_text_check CHECK (char_length(text) BETWEEN 1 AND 1000),
      DROP COLUMN number_id,
      DROP COLUMN template;
  `);
};
