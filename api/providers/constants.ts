/** Providers: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

export const PROVIDER_KINDS = ["simulator", "http", "smpp"] as const;

/** Currencies a provider's cost per segment may be in (ADR 070). */
export const COST_CURRENCIES = ["BRL", "USD", "EUR"] as const;
/** The highest cost per segment, in minor units: 1.000,00. */
export const COST_MAX = 100_000;
