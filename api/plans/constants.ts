/** The platform plans' lists and limits (ADR 064): no zod here, so the screens bundle them without the schemas. */
export { PLAN_PERMISSIONS } from "../../models/constants";
export { CURRENCIES as PLAN_CURRENCIES, CYCLES as PLAN_CYCLES } from "../products/constants";

/** The services a plan covers (account_plans holds one plan per service). */
export const PLAN_SERVICES = ["sms", "email", "whatsapp", "rcs", "omni"] as const;
export const PLAN_NAME_MAX = 100;
/** The highest price, in minor units: 100.000,00 (as a product's). */
export const PLAN_PRICE_MAX = 10_000_000;
/** The longest trial, in days. */
export const PLAN_DURATION_MAX = 365;
