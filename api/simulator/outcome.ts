/**
 * What the simulator's "handset" does with a message: a weighted mix of final statuses, chosen
 * deterministically from the submit's reference (our message id), so a test can predict it.
 * No imports at all (a 32-bit FNV-1a hash): importable from tests, any process and the browser
 * bundle (api/lib/env.ts validates SIMULATOR_MIX with parseMix).
 */

export const SIMULATED_OUTCOMES = ["delivered", "failed", "unavailable"] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];
export type OutcomeMix = Array<{ outcome: SimulatedOutcome; weight: number }>;

export const DEFAULT_SIMULATOR_MIX = "delivered:90,failed:5,unavailable:5";

/** "delivered:90,failed:5,unavailable:5" -> weights; throws a sentence on a bad value. */
export function parseMix(text: string): OutcomeMix {
  const mix: OutcomeMix = [];
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z]+)\s*:\s*(\d{1,6})$/.exec(part);
    if (!m || !(SIMULATED_OUTCOMES as readonly string[]).includes(m[1])) {
      throw new Error(`"${part}" is not <${SIMULATED_OUTCOMES.join("|")}>:<weight>`);
    }
    if (mix.some((e) => e.outcome === m[1])) throw new Error(`"${m[1]}" appears twice`);
    mix.push({ outcome: m[1] as SimulatedOutcome, weight: Number(m[2]) });
  }
  if (mix.reduce((s, e) => s + e.weight, 0) <= 0) throw new Error("the weights add up to zero");
  return mix;
}

/** The final status the simulator reports for `reference` under `mix` (same input, same answer). */
export function simulatedOutcome(reference: string, mix: OutcomeMix | string = DEFAULT_SIMULATOR_MIX): SimulatedOutcome {
  const weights = typeof mix === "string" ? parseMix(mix) : mix;
  const total = weights.reduce((s, e) => s + e.weight, 0);
  let n = fnv1a(reference) % total;
  for (const e of weights) {
    if (n < e.weight) return e.outcome;
    n -= e.weight;
  }
  return weights[weights.length - 1].outcome;
}

/** The error the simulator reports with a failure outcome (SMPP-like code and a readable reason). */
export const SIMULATED_ERRORS: Record<Exclude<SimulatedOutcome, "delivered">, { code: string; message: string }> = {
  failed: { code: "UNDELIV", message: "The handset rejected the message (simulated)" },
  unavailable: { code: "EXPIRED", message: "The handset was unreachable until the message expired (simulated)" },
};

/** FNV-1a over the UTF-16 code units, 32-bit unsigned. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
