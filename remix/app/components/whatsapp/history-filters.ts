/** The /whatsapp/history filters as the URL carries them (São Paulo days, status, recipient): shared by its loader and its screen. */
export type WhatsappHistoryFilters = { start: string; end: string; status: string; to: string };
export const WHATSAPP_HISTORY_FILTERS = ["start", "end", "status", "to"] as const;
