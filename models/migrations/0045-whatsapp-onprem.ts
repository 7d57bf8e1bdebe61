import type { MigrationFn } from "../migrate";

/**
 * The older WhatsApp integration (issue 16, ADR 035): numbers of a WhatsApp Business API client in
 * the On-Premises shape hosted by a BSP (integration 'onprem', base URL and credentials sealed in
 * secrets_sealed; base_url keeps only the origin, for the operator).
 * - template_namespace: the WhatsApp Business Account's template namespace, which an On-Premises
 *   template message must name; learned from the BSP's template answers (submit and list).
 * - templates_synced_at: when the BSP's template list was last read for this number. The BSP
 *   reports a template's review only in that list (no webhook reaches a client's callback URL), so
 *   it is polled; the column is the claim that lets one reader poll a number at a time.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE whatsapp_numbers
      ADD COLUMN template_namespace text CHECK (length(template_namespace) <= 100),
      ADD COLUMN templates_synced_at timestamptz;
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE whatsapp_numbers DROP COLUMN template_namespace, DROP COLUMN templates_synced_at;`);
};
