/** Products: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

export const CHANNELS = ["sms", "email", "whatsapp", "rcs", "omni"] as const;

export const CYCLES = ["prepaid", "weekly", "biweekly", "monthly"] as const;

export const CURRENCIES = ["BRL", "USD", "EUR"] as const;

export const KINDS = ["credits", "unlimited"] as const;
