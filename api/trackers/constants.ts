/** SMS trackers' kinds (ADR 062), without imports: the screens (browser bundle) read them too. */
export const TRACKER_KINDS = ["phone", "sender"] as const;
export type TrackerKind = (typeof TRACKER_KINDS)[number];
