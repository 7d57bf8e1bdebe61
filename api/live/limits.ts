/**
 * Live chat limits shared by the API and the screens (spec sections 3 and 9). No imports: the web
 * bundle may include this file.
 */

/** Suggestion buttons under one agent message, and the characters of each. */
export const SUGGESTIONS_MAX = 11;
export const SUGGESTION_MAX_LENGTH = 25;

/** "Typing…" (api/live/typing.ts): at most one signal per side and room this often; shown this long. */
export const TYPING_EVERY_MS = 2500;
export const TYPING_SHOW_MS = 6000;
