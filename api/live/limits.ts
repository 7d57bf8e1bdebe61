/**
 * Live chat limits shared by the API and the screens (spec sections 3 and 9). No imports: the web
 * bundle may include this file.
 */

/** Suggestion buttons under one agent message, and the characters of each. */
export const SUGGESTIONS_MAX = 11;
export const SUGGESTION_MAX_LENGTH = 25;
