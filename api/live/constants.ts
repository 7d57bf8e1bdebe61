/** Live chat: the constants the browser needs without the schemas (and zod) beside them (ADR 052); the schemas module re-exports them. */

// ---- canned samples (spec section 3: agent_id, department_id, for_all, key, message)
export const SAMPLE_AUDIENCES = ["all", "me", "department"] as const;

export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

// ---- system settings (live.queued_enabled, live.acceptance_option) and agents
export const ACCEPTANCE_OPTIONS = ["automatic", "manual"] as const;

/** Characters of the greeting and of the offline message. */
export const WIDGET_TEXT_MAX = 500;

// ---- widget (spec section 3: titles online/offline, welcome text, position, highlight color, colors;
// issue 19: the greeting is `welcome`, the widget's first bubble; `offline_message` shows when no agent attends)
export const WIDGET_POSITIONS = ["left", "center", "right"] as const;

export const WIDGET_COLOR_PARTS = ["header", "launcher", "messageList", "sentMessage", "receivedMessage", "userInput", "userList"] as const;

// ---- mute and volume per user (spec sections 4 and 9)
export const MUTE_OPTIONS = ["disabled", "8h", "1w", "1m", "always"] as const;
