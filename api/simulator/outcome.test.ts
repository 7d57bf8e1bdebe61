import { describe, expect, it } from "vitest";
import { DEFAULT_SIMULATOR_MIX, parseMix, simulatedOutcome } from "./outcome";

describe("simulator outcome mix", () => {
  it("parses weights and refuses bad mixes with a sentence", () => {
    expect(parseMix(DEFAULT_SIMULATOR_MIX)).toEqual([
      { outcome: "delivered", weight: 90 },
      { outcome: "failed", weight: 5 },
      { outcome: "unavailable", weight: 5 },
    ]);
    expect(parseMix(" delivered : 1 ")).toEqual([{ outcome: "delivered", weight: 1 }]);
    expect(() => parseMix("read:5")).toThrow(/not <delivered\|failed\|unavailable>/);
    expect(() => parseMix("delivered:x")).toThrow();
    expect(() => parseMix("delivered:1,delivered:2")).toThrow(/twice/);
    expect(() => parseMix("delivered:0")).toThrow(/zero/);
    expect(() => parseMix("")).toThrow(/zero/);
  });

  it("is deterministic per reference and follows the weights", () => {
    const refs = Array.from({ length: 20_000 }, (_, i) => `ref-${i}`);
    expect(refs.map((r) => simulatedOutcome(r))).toEqual(refs.map((r) => simulatedOutcome(r, DEFAULT_SIMULATOR_MIX)));
    const counts: Record<string, number> = {};
    for (const r of refs) counts[simulatedOutcome(r)] = (counts[simulatedOutcome(r)] ?? 0) + 1;
    expect(counts.delivered / refs.length).toBeCloseTo(0.9, 1);
    expect(counts.failed / refs.length).toBeCloseTo(0.05, 1);
    expect(counts.unavailable / refs.length).toBeCloseTo(0.05, 1);
    // A mix with a single outcome always answers it.
    expect(new Set(refs.slice(0, 500).map((r) => simulatedOutcome(r, "unavailable:3")))).toEqual(new Set(["unavailable"]));
  });
});
