/**
 * The demo account's number lookups (issue 22), so `npm start` shows /lookup and /lookup/usage with
 * results: five single lookups (a mobile, a ported mobile, a landline, a VoIP number, an invalid
 * area code) as the simulator's rules answer them (api/simulator/hlr-rules.ts), at the default
 * price, spread over the last days. Idempotent: written only when the account has none.
 */
import type { Transaction } from "sequelize";
import { simulatedLookup } from "../simulator/hlr-rules";
import { exec, row } from "../lib/sql";
import { LOOKUP_PRICING } from "./services";

const NUMBERS = ["+5511987654321", "+5521998765432", "+551133334444", "+551139001234", "+552087654321"];
const TYPES: Record<string, string> = { MOBILE: "mobile", FIXED_LINE: "landline", VOIP: "voip", UNKNOWN: "unknown" };

export async function seedDemoLookup(accountId: string, transaction: Transaction): Promise<number> {
  const any = await row(`SELECT 1 AS x FROM lookup_results WHERE account_id = $1 LIMIT 1`, [accountId], { transaction });
  if (any) return 0;
  const price = LOOKUP_PRICING.defaults.hlr ?? 0;
  for (const [i, n] of NUMBERS.entries()) {
    const r = simulatedLookup(n.slice(1));
    const ok = r.status === "OK";
    await exec(
      `INSERT INTO lookup_results (account_id, number, status, valid, type, country, carrier, original_carrier, ported, price, currency, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'BRL', now() - make_interval(days => $11))`,
      [
        accountId,
        n,
        ok ? "ok" : "invalid",
        ok,
        ok ? TYPES[r.number_type ?? "UNKNOWN"] : null,
        r.country_iso,
        r.network?.name ?? null,
        r.original_network?.name ?? null,
        ok ? r.ported === true : null,
        price,
        i % 3,
      ],
      { transaction },
    );
  }
  return NUMBERS.length;
}
