/**
 * What an account may send SMS with: its senders (GET /api/sms/senders, the ones api/sms/senders.ts allows), its SMS product — the
 * routes it is offered and their price per segment (GET /api/sms/products) — and its price rows
 * (GET /api/sms/prices, GET/PUT /api/sms/prices/:id; changing a price is for platform staff only).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { recordAudit } from "../audit/record";
import { can, isPlatformStaff } from "../policy/policy";
import { CHANNEL_PRICING, type PricedChannel, resolvePrices } from "./pricing";
import type { SmsRoute } from "./schemas";
import { ownSenders } from "./senders";
import { rows } from "../lib/sql";

/** How far back GET /senders looks for senders used. */
export const SENDERS_LOOKBACK_DAYS = 90;

function assertSend(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/sms/send")) throw new AppError("FORBIDDEN");
}

export type SenderView = {
  sender: string;
  /** Always `short_code` since senders are checked (api/sms/senders.ts); the field stays for API clients. */
  type: "alphanumeric" | "short_code";
  /** The short code's name in the account. */
  nickname: string;
  /** Whether the sender is a short code assigned to the account (GET /api/sms/short_codes): always true. */
  assigned: boolean;
  last_used_at: string | null;
};

/**
 * The senders the account may send from (api/sms/senders.ts: its active short codes, by number,
 * even never used) with when each was last used in the last SENDERS_LOOKBACK_DAYS days. Other
 * senders found in the history (sent before senders were checked) are not offered: a send from
 * them is refused.
 */
export async function listSenders(ctx: SignedInCtx): Promise<{ data: SenderView[] }> {
  assertSend(ctx);
  const codes = await ownSenders(ctx.actor.accountId);
  const used = codes.length
    ? await rows<{ sender: string; last: Date }>(
        `SELECT sender, max(created_at) AS last FROM messages
          WHERE account_id = $1 AND channel = 'sms' AND direction = 'outbound' AND sender = ANY($3::text[]) AND created_at > now() - make_interval(days => $2)
          GROUP BY sender`,
        [ctx.actor.accountId, SENDERS_LOOKBACK_DAYS, codes.map((c) => c.number)],
      )
    : [];
  const lastUsed = new Map(used.map((r) => [r.sender, new Date(r.last).toISOString()]));
  return {
    data: codes.map((c): SenderView => ({ sender: c.number, type: "short_code", nickname: c.nickname, assigned: true, last_used_at: lastUsed.get(c.number) ?? null })),
  };
}

export type RouteOffer = { route: SmsRoute; price_per_segment: number; currency: string; price_id: string | null };

/** The routes the account is offered and their price per segment (api/sms/pricing.ts `resolvePrices`). */
export async function smsRouteOffers(accountId: string): Promise<RouteOffer[]> {
  const [account] = await rows<{ currency: string }>(`SELECT currency FROM accounts WHERE id = $1`, [accountId]);
  const currency = (account?.currency ?? "BRL").trim();
  const prices = await resolvePrices("sms", accountId, currency);
  return prices.map((p) => ({ route: p.route, price_per_segment: p.pricePerSegment, currency: p.currency, price_id: p.priceId }));
}

export async function listSmsProducts(ctx: SignedInCtx) {
  assertSend(ctx);
  return { data: [{ product: "sms", name: "SMS", routes: await smsRouteOffers(ctx.actor.accountId) }] };
}

type PriceRow = { id: string; account_id: string; route: string; price_per_segment: string; currency: string; updated_at: Date };
const priceView = (r: PriceRow) => ({
  id: r.id,
  account_id: r.account_id,
  route: r.route,
  price_per_segment: Number(r.price_per_segment),
  currency: r.currency.trim(),
  updated_at: new Date(r.updated_at).toISOString(),
});

/** The account's own price rows. */
export async function listSmsPrices(ctx: SignedInCtx) {
  assertSend(ctx);
  const found = await rows<PriceRow>(`SELECT * FROM sms_prices WHERE account_id = $1 ORDER BY route`, [ctx.actor.accountId]);
  return { data: found.map(priceView) };
}

/** One price row: the account's own; platform staff read any account's. */
export async function getSmsPrice(ctx: SignedInCtx, id: string) {
  if (!isPlatformStaff(ctx.actor)) assertSend(ctx);
  return getPriceRow(ctx, "sms", id);
}

/** One price row of a channel's table (CHANNEL_PRICING), the account's own or, for platform staff, any account's; the caller checked who may read. */
export async function getPriceRow(ctx: SignedInCtx, channel: PricedChannel, id: string) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const [row] = await rows<PriceRow>(`SELECT * FROM ${CHANNEL_PRICING[channel].table} WHERE id = $1 AND (account_id = $2 OR $3)`, [
    id,
    ctx.actor.accountId,
    isPlatformStaff(ctx.actor),
  ]);
  if (!row) throw new AppError("NOT_FOUND");
  return { data: priceView(row) };
}

const priceSchema = z.object({
  price_per_segment: z.union([z.number(), z.string()]).transform((v, ctx) => {
    const n = typeof v === "number" ? v : Number(String(v).trim());
    if (!Number.isInteger(n)) ctx.addIssue({ code: "custom", message: "validation.integer" });
    else if (n < 0) ctx.addIssue({ code: "custom", message: "validation.min::0" });
    else if (n > 100_000) ctx.addIssue({ code: "custom", message: "validation.max::100000" });
    return n;
  }),
});

/** Change a price per segment (integer centavos): platform staff only, any account's row. */
export async function updateSmsPrice(ctx: SignedInCtx, id: string, input: unknown) {
  return updatePriceRow(ctx, "sms", id, input);
}

/** Change a price of a channel's table (integer minor units; e-mail's is per message): platform staff only, any account's row, audited. */
export async function updatePriceRow(ctx: SignedInCtx, channel: PricedChannel, id: string, input: unknown) {
  if (!isPlatformStaff(ctx.actor)) throw new AppError("FORBIDDEN");
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const data = validate(priceSchema, input);
  const [row] = await rows<PriceRow>(`UPDATE ${CHANNEL_PRICING[channel].table} SET price_per_segment = $2, updated_at = now() WHERE id = $1 RETURNING *`, [
    id,
    data.price_per_segment,
  ]);
  if (!row) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, `${channel}.price_updated`, { meta: { priceId: id, accountId: row.account_id, route: row.route, price_per_segment: data.price_per_segment } });
  return { data: priceView(row) };
}
