/** The integrations' constants the screens share with the API (no server module imported here: the browser bundle takes it). */
export const ORDER_EVENTS = ["order/created", "order/paid", "order/fulfilled"] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];
/** The channels a rule may send on: the keys of ./channels.ts RULE_CHANNELS (checked there). */
export const RULE_CHANNEL_NAMES = ["sms", "email"] as const;
export type RuleChannelName = (typeof RULE_CHANNEL_NAMES)[number];
export const RULE_TEXT_MAX = 1000;
export const RULE_SUBJECT_MAX = 200;
export const RULE_VARIABLES = ["first_name", "order_number", "total", "tracking_code", "store"] as const;
