/**
 * What an SMS segment costs an account on a route: its own `sms_prices` row, else the platform
 * default below. Integer minor units (centavos); finer prices are not needed yet.
 */
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { AppError } from "../lib/errors";
import type { SmsRoute } from "./schemas";

/** The default price of one segment on route T1 for an account without its own price: R$ 0,08. */
export const DEFAULT_PRICE_PER_SEGMENT: Partial<Record<SmsRoute, number>> = { T1: 8 };

export type SegmentPrice = { pricePerSegment: number; currency: string };

/**
 * The account's price of one segment on `route`, in the account's currency. A route that has
 * neither a price of the account nor a default is not offered to it (a field error on `route`);
 * a price in another currency than the balance's cannot be debited and is refused the same way.
 */
export async function segmentPrice(accountId: string, accountCurrency: string, route: SmsRoute, transaction?: Transaction): Promise<SegmentPrice> {
  const [row] = await sequelize().query<{ price_per_segment: string; currency: string }>(
    `SELECT price_per_segment, currency FROM sms_prices WHERE account_id = $1 AND route = $2`,
    { bind: [accountId, route], type: QueryTypes.SELECT, transaction },
  );
  if (row) {
    if (row.currency.trim() !== accountCurrency) throw new AppError("VALIDATION", { fields: { route: ["validation.option"] } });
    return { pricePerSegment: Number(row.price_per_segment), currency: accountCurrency };
  }
  const fallback = DEFAULT_PRICE_PER_SEGMENT[route];
  if (fallback === undefined) throw new AppError("VALIDATION", { fields: { route: ["validation.option"] } });
  return { pricePerSegment: fallback, currency: accountCurrency };
}
