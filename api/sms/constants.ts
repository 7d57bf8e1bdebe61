/** SMS: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

export const SMS_ROUTES = ["T1", "T2", "T4", "T6"] as const;

export const MAX_BODY = 1600;
