/** Live channels: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

export const CONNECTABLE = ["telegram", "messenger", "instagram", "google_business"] as const;
