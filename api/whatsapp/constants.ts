/** WhatsApp: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

export const TEMPLATE_CATEGORIES = ["utility", "marketing", "authentication"] as const;

export const MAX_BUTTONS = 3;

export const VARIABLE = /\{\{\s*(\d+)\s*\}\}/g;

/** The numbers of the variables in a text, in order of appearance. */
export const variablesOf = (text: string) => [...text.matchAll(VARIABLE)].map((m) => Number(m[1]));
