/**
 * Test data set up directly in the database, one file per entity area. Use a factory where a test
 * needs a row the product's own doors cannot make (or not quickly): a balance, a role, a message
 * from the past, a holiday today. Where a use-case exists for it (registering a person, creating a
 * webhook endpoint), go through the API as the tests already do. Every factory takes the database
 * as its last, optional argument: the run's by default, `stack.query` for a private stack.
 */
export * from "./accounts";
export * from "./people";
export * from "./live";
export * from "./messages";
export * from "./contacts";
export * from "./sms";
export * from "./notifications";
export * from "./webhooks";
export * from "./rcs";
export type { Role } from "../../../models/constants";
export { type Query, ago, given, sql, todayInSaoPaulo } from "./sql";
