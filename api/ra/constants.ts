/** Reclame Aqui's figures the screens share with the use-cases (no server imports: the browser bundle takes this file). */
export const RA_STATUSES = ["unanswered", "answered", "replied", "evaluated"] as const;
export type RaStatusName = (typeof RA_STATUSES)[number];
/** The longest answer RA takes. */
export const ANSWER_MAX = 4000;
