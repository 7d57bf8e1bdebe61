/**
 * E-mail figures and prices (issue 17; spec section 7 GET /email/messages/charts?days=n, GET/PUT
 * /email/prices/{id}): the SMS reports' per-day counts (api/sms/reports.ts perDay) over the
 * account's messages of channel 'email' — per São Paulo day of the last 7 or 30 days, messages per
 * status (e-mail's: delivered, opened, bounced…) and cost — and the e-mail price rows
 * (email_prices, migration 0052) through the catalogue's one reader and writer (api/sms/catalog.ts);
 * the usage (/mail/usage: e-mails and cost per day, default this month so far) and the reports
 * (/mail/reports: per day per status of a period, default the last 7 days, and the e-mail
 * campaigns created in it) — the SMS reports' use-cases with channel 'email'.
 */
import { isPlatformStaff } from "../policy/policy";
import type { SignedInCtx } from "../lib/context";
import { validate } from "../lib/validate";
import { getPriceRow, updatePriceRow } from "../sms/catalog";
import { saoPauloToday } from "../sms/history";
import { addDays, allow, campaignReportOf, daysSchema, perDay, statPeriod, usageOf } from "../sms/reports";

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

/** The e-mail screens' paths in the policy. */
export const EMAIL_REPORT_SCREENS = { usage: "/mail/usage", reports: "/mail/reports" } as const;

/** GET /api/email/usage, /mail/usage: per São Paulo day of a period (default this month so far), the account's e-mails and their cost, with totals. */
export const emailUsage = (ctx: SignedInCtx, input: unknown = {}) => usageOf(ctx, input, "email", EMAIL_REPORT_SCREENS.usage);

/** GET /api/email/reports/stat, /mail/reports: per São Paulo day of a period (default the last 7 days, at most 31), the account's e-mails per status and cost. */
export async function emailStat(ctx: SignedInCtx, input: unknown = {}) {
  allow(ctx, EMAIL_REPORT_SCREENS.reports);
  const { from, to } = statPeriod(input);
  return perDay(ctx.actor.accountId, from, to, "email");
}

/**
 * GET /api/email/reports/campaigns, /mail/reports: the account's e-mail campaigns created in a period (the
 * statistics' default: the last 7 days, at most 31), newest first, their e-mails counted per status, with their cost; a keyset page.
 */
export async function emailCampaignReport(ctx: SignedInCtx, input: unknown = {}) {
  allow(ctx, EMAIL_REPORT_SCREENS.reports);
  const raw = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const { from, to } = statPeriod(raw);
  return campaignReportOf(ctx, { ...raw, from, to }, "email", EMAIL_REPORT_SCREENS.reports);
}
