/** What /admin/logs keeps (ADR 062), without imports: the screens (browser bundle) read it too. */
export const APP_LOG_SOURCES = ["api", "provider"] as const;
export type AppLogSource = (typeof APP_LOG_SOURCES)[number];
