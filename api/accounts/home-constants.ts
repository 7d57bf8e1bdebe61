/** The home page's figures (spec section 2), shared by the use-case and the screen (no server imports: the browser bundle reads it). */

/** The periods: since today's São Paulo midnight, the last 7 and 30 days. */
export const HOME_PERIODS = ["today", "7d", "30d"] as const;
export type HomePeriod = (typeof HOME_PERIODS)[number];
/** The status groups a message is counted under. */
export const HOME_STATUS_GROUPS = ["delivered", "sent", "pending", "failed"] as const;
