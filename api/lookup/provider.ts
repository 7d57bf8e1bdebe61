/**
 * The lookup-provider contract (ADR 058) and its HTTP adapter. A provider answers, for a batch of
 * E.164 numbers, whether each is valid, its type, country, current carrier and whether it was
 * ported. Its own small contract (not the channel contract of api/channels/contract.ts: nothing is
 * sent, nothing comes back later): `lookup(numbers[])`, one answer per number, in order.
 *
 * The HTTP adapter speaks the usual shape of batch HLR / number-portability APIs:
 *
 *   POST {LOOKUP_API_URL}/v1/lookups   Authorization: Bearer LOOKUP_API_KEY
 *   {"msisdns": ["5511987654321", …]}                           (digits, no "+", at most LOOKUP_BATCH)
 *   -> 200 {"results": [{"msisdn", "status": "OK" | "INVALID_NUMBER",
 *            "number_type": "MOBILE" | "FIXED_LINE" | "VOIP" | "UNKNOWN", "country_iso": "BR",
 *            "network": {"name", "mccmnc"} | null, "original_network": {"name", "mccmnc"} | null,
 *            "ported": bool}]}
 *   401 a bad key, 400 a malformed batch, 429 / 5xx try again.
 *
 * Configured by env (LOOKUP_API_URL, LOOKUP_API_KEY); outside production without them, the
 * simulator's loopback peer (api/simulator/hlr.ts). Every call goes through the guarded client
 * (api/lib/outbound.ts); the URL is the operator's, so trust "platform".
 */
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { outboundFetch } from "../lib/outbound";

export type NumberType = "mobile" | "landline" | "voip" | "unknown";

/** One number's answer, in our words. */
export type LookupAnswer = {
  number: string;
  valid: boolean;
  type: NumberType | null;
  country: string | null;
  carrier: string | null;
  originalCarrier: string | null;
  ported: boolean | null;
};

/** The contract: one answer per number, in the order asked; throws PROVIDER_UNAVAILABLE when the provider could not answer. */
export interface LookupProvider {
  readonly name: string;
  /** The most numbers one call takes. */
  readonly batchLimit: number;
  lookup(numbers: readonly string[]): Promise<LookupAnswer[]>;
}

/** Under SIMULATOR_URL: the simulator's lookup peer. */
export const SIMULATED_LOOKUP_PATH = "/hlr";

const TYPES: Record<string, NumberType> = { MOBILE: "mobile", FIXED_LINE: "landline", VOIP: "voip", UNKNOWN: "unknown" };

type WireResult = {
  msisdn?: unknown;
  status?: unknown;
  number_type?: unknown;
  country_iso?: unknown;
  network?: { name?: unknown } | null;
  original_network?: { name?: unknown } | null;
  ported?: unknown;
};

const text = (v: unknown) => (typeof v === "string" && v ? v : null);

/** The answer of one wire result, or null when it is not one (a provider bug: the batch fails). */
export function fromWire(number: string, r: WireResult | undefined): LookupAnswer | null {
  if (!r || typeof r !== "object" || String(r.msisdn ?? "") !== number.slice(1)) return null;
  const valid = r.status === "OK";
  if (!valid && r.status !== "INVALID_NUMBER") return null;
  if (!valid) return { number, valid, type: null, country: text(r.country_iso), carrier: null, originalCarrier: null, ported: null };
  return {
    number,
    valid,
    type: TYPES[String(r.number_type)] ?? "unknown",
    country: text(r.country_iso)?.toUpperCase().slice(0, 2) ?? null,
    carrier: text(r.network?.name),
    originalCarrier: text(r.original_network?.name),
    ported: r.ported === true,
  };
}

export class HttpLookupProvider implements LookupProvider {
  readonly name = "http";
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    readonly batchLimit: number,
  ) {}

  async lookup(numbers: readonly string[]): Promise<LookupAnswer[]> {
    if (numbers.length === 0) return [];
    if (numbers.length > this.batchLimit) {
      const out: LookupAnswer[] = [];
      for (let i = 0; i < numbers.length; i += this.batchLimit) out.push(...(await this.lookup(numbers.slice(i, i + this.batchLimit))));
      return out;
    }
    const unavailable = (detail: string) => {
      console.warn(`lookup provider: ${detail}`);
      return new AppError("PROVIDER_UNAVAILABLE");
    };
    let res: Awaited<ReturnType<typeof outboundFetch>>;
    try {
      res = await outboundFetch(`${this.baseUrl}/v1/lookups`, {
        method: "POST",
        headers: { Authorization: `Bearer ${this.apiKey}`, "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ msisdns: numbers.map((n) => n.slice(1)) }),
        timeoutMs: 30_000,
        maxBytes: 512 + numbers.length * 512,
        trust: "platform",
        keepAlive: true,
      });
    } catch (e) {
      throw unavailable(e instanceof Error ? e.message : String(e));
    }
    if (res.status !== 200) throw unavailable(`HTTP ${res.status}`);
    let results: WireResult[];
    try {
      results = res.json().results;
    } catch {
      throw unavailable("answer is not JSON");
    }
    if (!Array.isArray(results) || results.length !== numbers.length) throw unavailable("answer does not have one result per number");
    return numbers.map((n, i) => {
      const a = fromWire(n, results[i]);
      if (!a) throw unavailable(`result ${i} is not an answer for ${n}`);
      return a;
    });
  }
}

let cached: LookupProvider | null | undefined;

/** The provider in force (env); null when lookups have none (production without LOOKUP_API_URL). */
export function lookupProvider(): LookupProvider | null {
  if (cached !== undefined) return cached;
  const e = env();
  const trim = (u: string) => u.replace(/\/+$/, "");
  if (e.LOOKUP_API_URL) cached = new HttpLookupProvider(trim(e.LOOKUP_API_URL), e.LOOKUP_API_KEY ?? "", e.LOOKUP_BATCH);
  else if (e.NODE_ENV !== "production") cached = new HttpLookupProvider(`${trim(e.SIMULATOR_URL)}${SIMULATED_LOOKUP_PATH}`, e.SIMULATOR_API_KEY, e.LOOKUP_BATCH);
  else cached = null;
  return cached;
}

/** The provider, or PROVIDER_UNAVAILABLE. */
export function requireLookupProvider(): LookupProvider {
  const p = lookupProvider();
  if (!p) throw new AppError("PROVIDER_UNAVAILABLE");
  return p;
}
