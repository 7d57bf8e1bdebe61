import { describe, expect, it } from "vitest";
import { simulatedLookup } from "./hlr-rules";

describe("the simulator's lookup rules", () => {
  it("answers a Brazilian mobile, landline and VoIP number by its digits", () => {
    expect(simulatedLookup("5511987654321")).toMatchObject({ status: "OK", number_type: "MOBILE", country_iso: "BR" });
    expect(simulatedLookup("551133334444")).toMatchObject({ status: "OK", number_type: "FIXED_LINE", country_iso: "BR" });
    expect(simulatedLookup("551139001234")).toMatchObject({ status: "OK", number_type: "VOIP", country_iso: "BR" });
  });

  it("refuses an unknown area code, a landline starting 6-9 and a short mobile", () => {
    expect(simulatedLookup("552087654321").status).toBe("INVALID_NUMBER"); // DDD 20 does not exist
    expect(simulatedLookup("551163334444").status).toBe("INVALID_NUMBER");
    expect(simulatedLookup("55119876543").status).toBe("INVALID_NUMBER");
    expect(simulatedLookup("999").status).toBe("INVALID_NUMBER");
  });

  it("is deterministic, picks every mobile carrier and ports about one number in five", () => {
    expect(simulatedLookup("5511987654321")).toEqual(simulatedLookup("5511987654321"));
    const carriers = new Set<string>();
    let ported = 0;
    for (let i = 0; i < 2000; i++) {
      const r = simulatedLookup(`55119${String(10000000 + i * 37)}`);
      carriers.add(r.network!.name);
      if (r.ported) {
        ported++;
        expect(r.original_network!.name).not.toBe(r.network!.name);
      } else expect(r.original_network!.name).toBe(r.network!.name);
    }
    expect([...carriers].sort()).toEqual(["Algar", "Claro", "Oi", "TIM", "Vivo"]);
    expect(ported).toBeGreaterThan(300);
    expect(ported).toBeLessThan(500);
  });

  it("answers other listed countries as valid without a carrier", () => {
    expect(simulatedLookup("351912345678")).toMatchObject({ status: "OK", country_iso: "PT", number_type: "UNKNOWN", network: null });
    expect(simulatedLookup("99912345678").status).toBe("INVALID_NUMBER");
  });
});
