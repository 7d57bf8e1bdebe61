/**
 * What a message segment costs an account on a route, for every priced channel (one rule, here):
 * the account's own price row in its currency; an own row in another currency hides the route
 * (the balance cannot be debited in it); no own row, the channel's default; neither, the route is
 * not offered. Integer minor units (centavos); finer prices are not needed yet. Used by accept
 * (api/sms/accept.ts, through `segmentPrice`) and the offers (api/sms/catalog.ts `smsRouteOffers`).
 */
import { type Transaction } from "sequelize";
import { AppError } from "../lib/errors";
import { SMS_ROUTES, type SmsRoute } from "./schemas";
import { rows } from "../lib/sql";

/** The default price of one segment on route T1 for an account without its own price: R$ 0,08. */
export const DEFAULT_PRICE_PER_SEGMENT: Partial<Record<SmsRoute, number>> = { T1: 8 };

/** WhatsApp is priced per message by Meta's category; `service` is a free-form message inside the 24-hour window. */
export const WHATSAPP_PRICE_ROUTES = ["marketing", "utility", "authentication", "service"] as const;
export type WhatsappPriceRoute = (typeof WHATSAPP_PRICE_ROUTES)[number];
/**
 * The default price per WhatsApp message, in centavos, for an account without its own row: near
 * Meta's Brazil rates (marketing ≈ US$ 0.0625, utility and authentication ≈ US$ 0.0080; service
 * conversations free) with the platform's margin.
 */
export const DEFAULT_WHATSAPP_PRICES: Partial<Record<WhatsappPriceRoute, number>> = { marketing: 40, utility: 6, authentication: 6, service: 0 };

/** E-mail has one route (spec: "e-mail route T1"), priced per message: R$ 0,01 by default. */
export const EMAIL_PRICE_ROUTES = ["T1"] as const;
export type EmailPriceRoute = (typeof EMAIL_PRICE_ROUTES)[number];
export const DEFAULT_EMAIL_PRICES: Partial<Record<EmailPriceRoute, number>> = { T1: 1 };

/**
 * RCS is priced per message by class (spec section 5, api/rcs/content.ts priceClass): `basic` a
 * plain text under 160 characters, `rich` anything else. Defaults near Brazil's RBM rates with the
 * platform's margin: R$ 0,06 and R$ 0,18.
 */
export const RCS_PRICE_ROUTES = ["basic", "rich"] as const;
export type RcsPriceRoute = (typeof RCS_PRICE_ROUTES)[number];
export const DEFAULT_RCS_PRICES: Partial<Record<RcsPriceRoute, number>> = { basic: 6, rich: 18 };

/** A channel's prices: its table (account_id, route, price_per_segment, currency), its routes in offer order, its defaults. */
export type ChannelPricing<R extends string> = { table: string; routes: readonly R[]; defaults: Partial<Record<R, number>> };

/** The priced channels. A new channel adds its entry here and resolves its prices with `resolvePrices`. */
export const CHANNEL_PRICING = {
  sms: { table: "sms_prices", routes: SMS_ROUTES, defaults: DEFAULT_PRICE_PER_SEGMENT } satisfies ChannelPricing<SmsRoute>,
  whatsapp: { table: "whatsapp_prices", routes: WHATSAPP_PRICE_ROUTES, defaults: DEFAULT_WHATSAPP_PRICES } satisfies ChannelPricing<WhatsappPriceRoute>,
  email: { table: "email_prices", routes: EMAIL_PRICE_ROUTES, defaults: DEFAULT_EMAIL_PRICES } satisfies ChannelPricing<EmailPriceRoute>,
  rcs: { table: "rcs_prices", routes: RCS_PRICE_ROUTES, defaults: DEFAULT_RCS_PRICES } satisfies ChannelPricing<RcsPriceRoute>,
} as const;
export type PricedChannel = keyof typeof CHANNEL_PRICING;
type RouteOf<C extends PricedChannel> = (typeof CHANNEL_PRICING)[C]["routes"][number];

/** An own price row as read from the channel's table. */
export type PriceRow = { id: string; route: string; price_per_segment: string | number; currency: string };
/** A route the account is offered and its price per segment; `priceId` is its own row, null for the default. */
export type RoutePrice<R extends string> = { route: R; pricePerSegment: number; currency: string; priceId: string | null };

/**
 * The rule, without the database: for each route of `pricing` (in its order), the own row in
 * `currency`; an own row in another currency hides the route; else the default; else nothing.
 */
export function pickPrices<R extends string>(pricing: ChannelPricing<R>, currency: string, rows: readonly PriceRow[]): RoutePrice<R>[] {
  const own = new Map(rows.map((r) => [r.route, r]));
  const prices: RoutePrice<R>[] = [];
  for (const route of pricing.routes) {
    const row = own.get(route);
    if (row) {
      if (row.currency.trim() === currency) prices.push({ route, pricePerSegment: Number(row.price_per_segment), currency, priceId: row.id });
      continue;
    }
    const fallback = pricing.defaults[route];
    if (fallback !== undefined) prices.push({ route, pricePerSegment: fallback, currency, priceId: null });
  }
  return prices;
}

/**
 * The account's prices on `channel`, in the account's currency `currency` (trimmed), for the
 * routes it is offered (only `opts.routes` when given), by `pickPrices`' rule.
 */
export async function resolvePrices<C extends PricedChannel>(
  channel: C,
  accountId: string,
  currency: string,
  opts: { routes?: readonly RouteOf<C>[]; transaction?: Transaction } = {},
): Promise<RoutePrice<RouteOf<C>>[]> {
  const pricing = CHANNEL_PRICING[channel] as unknown as ChannelPricing<RouteOf<C>>;
  const only = opts.routes ? { ...pricing, routes: pricing.routes.filter((r) => opts.routes!.includes(r)) } : pricing;
  const found = await rows<PriceRow>(priceRowsSql(channel, "$1", "$2"), [accountId, opts.routes ? [...opts.routes] : null], { transaction: opts.transaction });
  return pickPrices(only, currency, found);
}

/** The own price rows `pickPrices` reads, as a SELECT on two bind parameters (the account, the routes as text[] or NULL for all). */
export function priceRowsSql(channel: PricedChannel, account: string, routes: string) {
  return `SELECT id, route, price_per_segment, currency FROM ${CHANNEL_PRICING[channel].table} WHERE account_id = ${account} AND (${routes}::text[] IS NULL OR route = ANY(${routes}::text[]))`;
}

/** The price of one segment on `route` from own rows already read (`priceRowsSql`), by the rule; null when the route is not offered. */
export function routePrice(route: SmsRoute, currency: string, found: readonly PriceRow[]): SegmentPrice | null {
  const [price] = pickPrices({ ...CHANNEL_PRICING.sms, routes: [route] }, currency, found);
  return price ? { pricePerSegment: price.pricePerSegment, currency } : null;
}

export type SegmentPrice = { pricePerSegment: number; currency: string };

/** The refusal of a route the account is not offered (422, field `route`). */
export const routeNotOffered = () => new AppError("VALIDATION", { fields: { route: ["validation.option"] } });

/**
 * The account's price of one SMS segment on `route`, in the account's currency. A route it is not
 * offered (`resolvePrices`: no price of the account nor a default, or its price in another
 * currency than the balance's) is a field error on `route`.
 */
export async function segmentPrice(accountId: string, accountCurrency: string, route: SmsRoute, transaction?: Transaction): Promise<SegmentPrice> {
  const [price] = await resolvePrices("sms", accountId, accountCurrency, { routes: [route], transaction });
  if (!price) throw routeNotOffered();
  return { pricePerSegment: price.pricePerSegment, currency: accountCurrency };
}
