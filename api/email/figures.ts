/**
 * E-mail figures and prices (issue 17; spec section 7 GET /email/messages/charts?days=n, GET/PUT
 * /email/prices/{id}): the SMS reports' per-day counts (api/sms/reports.ts perDay) over the
 * account's messages of channel 'email' — per São Paulo day of the last 7 or 30 days, messages per
 * status (e-mail's: delivered, opened, bounced…) and cost — and the e-mail price rows
 * (email_prices, migration 0052) through the catalogue's one reader and writer (api/sms/catalog.ts).
 */
import { isPlatformStaff } from "../policy/policy";
import type { SignedInCtx } from "../lib/context";
import { validate } from "../lib/validate";
import { getPriceRow, updatePriceRow } from "../sms/catalog";
import { saoPauloToday } from "../sms/history";
import { addDays, allow, daysSchema, perDay } from "../sms/reports";

/** Per São Paulo day of the last `days` (7 or 30, today included): the account's e-mails per status, their cost, and the totals. */
export async function emailCharts(ctx: SignedInCtx, query: unknown = {}) {
  allow(ctx, "/mail/dashboard");
  const { days } = validate(daysSchema, query ?? {});
  const to = saoPauloToday();
  return { days, ...(await perDay(ctx.actor.accountId, addDays(to, -(days - 1)), to, "email")) };
}

/** One e-mail price row: the account's own (for who may send e-mail); platform staff read any account's. */
export async function getEmailPrice(ctx: SignedInCtx, id: string) {
  if (!isPlatformStaff(ctx.actor)) allow(ctx, "/mail/send");
  return getPriceRow(ctx, "email", id);
}

/** Change an e-mail price (integer minor units per message): platform staff only (FORBIDDEN for anyone else). */
export async function updateEmailPrice(ctx: SignedInCtx, id: string, input: unknown) {
  return updatePriceRow(ctx, "email", id, input);
}
