/** The /mail/history filters as the URL carries them (São Paulo days, id, status, sender, recipient): shared by its loader and its screen. */
export type EmailHistoryFilters = { start: string; end: string; id: string; status: string; from: string; to: string };
export const EMAIL_HISTORY_FILTERS = ["start", "end", "id", "status", "from", "to"] as const;
