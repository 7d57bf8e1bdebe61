/** Support tickets' fixed lists and limits (ADR 061): shared by the use-cases and the screens (no server code here: the browser bundles it). */
export const CATEGORIES = ["billing", "technical", "sms", "whatsapp", "email", "rcs", "live", "account", "other"] as const;
export const STATUSES = ["open", "in_progress", "answered", "closed"] as const;
export type TicketStatus = (typeof STATUSES)[number];
export const SUBJECT_MAX = 150;
export const MESSAGE_MAX = 5000;
export const COMMENT_MAX = 1000;
export const RATING_MIN = 0;
export const RATING_MAX = 5;
/** One attachment a message, at most this many bytes. */
export const FILE_MAX_BYTES = 10 * 1024 * 1024;
/** What the file pickers offer (the types api/support/files.ts accepts by their bytes). */
export const FILE_ACCEPT = ".jpg,.jpeg,.png,.gif,.webp,.pdf,.doc,.docx,.zip";
