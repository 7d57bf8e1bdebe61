/**
 * What the RCS composer (/rcs/send) offers, read for the acting account: its launched agents (the
 * senders, with the brand the preview shows), its saved templates (a template is a saved
 * composer state, ADR 055) and its price of each class (basic, rich) in its currency, so the
 * screen shows the price before sending (the send's own rule: api/rcs/send.ts, CHANNEL_PRICING.rcs).
 * Small queries of the composer's own; the agents' use-cases live in ./agents.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { row, rows } from "../lib/sql";
import { can } from "../policy/policy";
import { CHANNEL_PRICING, pickPrices, priceRowsSql, type PriceRow } from "../sms/pricing";

export type SendableAgent = { id: string; name: string; logo_url: string; color: string; rbm_agent_id: string };
export type SendableTemplate = { id: string; name: string; content: Record<string, unknown> };
/** The account's price of each class and whether its sends fall back to SMS by default (accounts.rcs_fallback_sms). */
export type RcsPriceList = { currency: string; basic: number | null; rich: number | null; fallback_sms: boolean };

const assertSend = (ctx: SignedInCtx) => {
  if (!can(ctx.actor, "/rcs/send")) throw new AppError("FORBIDDEN");
};

/** The account's launched agents (the only ones that send), by name. */
export async function sendableRcsAgents(ctx: SignedInCtx): Promise<SendableAgent[]> {
  assertSend(ctx);
  return rows<SendableAgent>(
    `SELECT id, name, logo_url, trim(color) AS color, rbm_agent_id FROM rcs_agents
      WHERE account_id = $1 AND status = 'launched' AND rbm_agent_id IS NOT NULL ORDER BY lower(name), id`,
    [ctx.actor.accountId],
  );
}

/** The account's RCS templates, by name (an account keeps a few hundred at most; capped at 500). */
export async function sendableRcsTemplates(ctx: SignedInCtx): Promise<SendableTemplate[]> {
  assertSend(ctx);
  return rows<SendableTemplate>(`SELECT id, name, content FROM rcs_templates WHERE account_id = $1 ORDER BY lower(name), id LIMIT 500`, [ctx.actor.accountId]);
}

/** The account's price of each class in its currency (null: the class is not offered in it), as a send prices it, and its fallback setting. */
export async function rcsPriceList(ctx: SignedInCtx): Promise<RcsPriceList> {
  assertSend(ctx);
  const found = await row<{ currency: string; fallback: boolean; prices: PriceRow[] }>(
    `SELECT trim(a.currency) AS currency, a.rcs_fallback_sms AS fallback, (SELECT coalesce(json_agg(p), '[]'::json) FROM (${priceRowsSql("rcs", "$1", "NULL")}) p) AS prices
       FROM accounts a WHERE a.id = $1`,
    [ctx.actor.accountId],
  );
  const currency = found?.currency ?? "BRL";
  const prices = pickPrices(CHANNEL_PRICING.rcs, currency, found?.prices ?? []);
  const of = (route: string) => prices.find((p) => p.route === route)?.pricePerSegment ?? null;
  return { currency, basic: of("basic"), rich: of("rich"), fallback_sms: Boolean(found?.fallback) };
}
