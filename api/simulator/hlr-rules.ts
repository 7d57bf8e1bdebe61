/**
 * The simulator's lookup answers (api/simulator/hlr.ts), deterministic per number so tests and
 * the demo can predict them. No imports: unit-tested alone (hlr-rules.test.ts).
 *
 * Brazil (+55): a valid area code (DDD, Anatel's list) and then
 *   - 9 digits starting with 9: mobile;
 *   - 8 digits starting with 39: VoIP (the simulator's VoIP range);
 *   - 8 digits starting with 2, 3, 4 or 5: landline;
 *   - anything else (an unknown DDD, 8 digits starting with 6-9, wrong length): invalid.
 * The carrier is chosen by a hash of the number (FNV-1a) among the type's carriers — mobile: Vivo,
 * Claro, TIM, Oi, Algar; landline: Vivo, Claro, Oi, Algar; VoIP: Datora, Vivo, Claro; one number in
 * five (mobile) or ten (landline) is ported, from another carrier the hash picks.
 * Elsewhere: a number of a country code listed below is valid, type unknown, no carrier; other
 * codes are invalid.
 * OUTAGE_MSISDN in a batch: the whole request answers 503 (a provider outage, to test refunds).
 */
export const OUTAGE_MSISDN = "5511999990503";

export const DDDS = new Set([
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71,
  73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
]);

export const NETWORKS: Record<string, string> = { Vivo: "72406", Claro: "72405", TIM: "72402", Oi: "72431", Algar: "72432", Datora: "72454" };
const MOBILE = ["Vivo", "Claro", "TIM", "Oi", "Algar"];
const LANDLINE = ["Vivo", "Claro", "Oi", "Algar"];
const VOIP = ["Datora", "Vivo", "Claro"];
const COUNTRIES: Array<[string, string]> = [
  ["351", "PT"],
  ["54", "AR"],
  ["56", "CL"],
  ["57", "CO"],
  ["34", "ES"],
  ["44", "GB"],
  ["49", "DE"],
  ["86", "CN"],
  ["1", "US"],
];

export type SimulatedResult = {
  msisdn: string;
  status: "OK" | "INVALID_NUMBER";
  number_type?: "MOBILE" | "FIXED_LINE" | "VOIP" | "UNKNOWN";
  country_iso: string | null;
  network?: { name: string; mccmnc: string } | null;
  original_network?: { name: string; mccmnc: string } | null;
  ported?: boolean;
};

/** FNV-1a, 32 bits. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const network = (name: string) => ({ name, mccmnc: NETWORKS[name] ?? "" });

/** The answer for one msisdn (digits, no "+"). */
export function simulatedLookup(msisdn: string): SimulatedResult {
  const invalid = (country: string | null): SimulatedResult => ({ msisdn, status: "INVALID_NUMBER", country_iso: country });
  if (!/^[1-9]\d{7,14}$/.test(msisdn)) return invalid(null);
  if (!msisdn.startsWith("55")) {
    const country = COUNTRIES.find(([code]) => msisdn.startsWith(code));
    if (!country) return invalid(null);
    return { msisdn, status: "OK", number_type: "UNKNOWN", country_iso: country[1], network: null, original_network: null, ported: false };
  }
  const ddd = Number(msisdn.slice(2, 4));
  const local = msisdn.slice(4);
  if (!DDDS.has(ddd)) return invalid("BR");
  let type: "MOBILE" | "FIXED_LINE" | "VOIP";
  if (/^9\d{8}$/.test(local)) type = "MOBILE";
  else if (/^39\d{6}$/.test(local)) type = "VOIP";
  else if (/^[2-5]\d{7}$/.test(local)) type = "FIXED_LINE";
  else return invalid("BR");
  const carriers = type === "MOBILE" ? MOBILE : type === "VOIP" ? VOIP : LANDLINE;
  const h = fnv1a(msisdn);
  const current = carriers[h % carriers.length];
  const portedShare = type === "MOBILE" ? 5 : type === "FIXED_LINE" ? 10 : 0;
  const ported = portedShare > 0 && (h >>> 8) % portedShare === 0;
  const others = carriers.filter((c) => c !== current);
  const original = ported ? others[(h >>> 16) % others.length] : current;
  return { msisdn, status: "OK", number_type: type, country_iso: "BR", network: network(current), original_network: network(original), ported };
}
