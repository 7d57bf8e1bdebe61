/** The integrations' constants the screens share with the API (no server module imported here: the browser bundle takes it). */
export const ORDER_EVENTS = ["order/created", "order/paid", "order/fulfilled"] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];
/** The channels a rule may send on: the keys of ./channels.ts RULE_CHANNELS (checked there). */
export const RULE_CHANNEL_NAMES = ["sms", "email", "whatsapp"] as const;
export type RuleChannelName = (typeof RULE_CHANNEL_NAMES)[number];
/**
 * What a rule of each channel is written with (ADR 072): its own text (SMS, e-mail: the text with
 * {{variables}}), or one of the account's approved WhatsApp templates whose parameters are filled
 * with the same {{variables}}.
 */
export const RULE_CONTENT: Record<RuleChannelName, "text" | "template"> = { sms: "text", email: "text", whatsapp: "template" };
export const RULE_TEXT_MAX = 1000;
export const RULE_SUBJECT_MAX = 200;
/** One template parameter's mapping (a text with {{variables}}). */
export const RULE_PARAM_MAX = 200;
/** How many body parameters a template may have that a rule fills. */
export const RULE_PARAMS_MAX = 20;
export const RULE_VARIABLES = ["first_name", "order_number", "total", "tracking_code", "store"] as const;
/** A template as the rule's picker posts it: "name|language" (a template is its name and language on a number). */
export const templateKey = (t: { name: string; language: string }) => `${t.name}|${t.language}`;
