import type { MigrationFn } from "../migrate";

/**
 * Suggestion buttons (issue 5, ADR 018): an agent's message may offer the visitor up to 11 quick
 * replies of up to 25 characters each (spec sections 3 and 9). The widget shows them as buttons under
 * the last agent message; Telegram, Messenger/Instagram and Business Messages get them as their own
 * reply keyboard / quick replies / suggested replies. Empty for every other message.
 */
export const up: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`
    ALTER TABLE live_messages ADD COLUMN suggestions jsonb NOT NULL DEFAULT '[]'::jsonb
      CHECK (jsonb_typeof(suggestions) = 'array' AND jsonb_array_length(suggestions) <= 11);
  `);
};

export const down: MigrationFn = async ({ context: q }) => {
  await q.sequelize.query(`ALTER TABLE live_messages DROP COLUMN IF EXISTS suggestions;`);
};
