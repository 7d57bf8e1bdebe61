/** Providers: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

export const PROVIDER_KINDS = ["simulator", "http", "smpp"] as const;
