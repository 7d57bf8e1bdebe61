/** SMPP: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

/** The most submits per second an SMPP user may be given (one bind sustains more: docs/benchmarks.md, "Single-message sends"). */
export const MAX_TPS = 5000;
