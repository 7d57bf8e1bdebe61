/** E-mail: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

/** The ways /mail/send sends: addresses typed (one message each), a contact group or a CSV file (a campaign). */
export const SEND_MODES = ["list", "group", "file"] as const;
