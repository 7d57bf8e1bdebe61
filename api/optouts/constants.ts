/** Opt-outs: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

/** Phone-number channels (e-mail opt-outs hold addresses: /api/email/optouts). */
export const OPTOUT_CHANNELS = ["sms", "whatsapp", "rcs"] as const;

export const MAX_KEYWORD_LENGTH = 30;

/** What an inbound keyword does: opt the mobile out (SAIR, PARAR…) or back in (VOLTAR, START). */
export const KEYWORD_ACTIONS = ["optout", "resume"] as const;
