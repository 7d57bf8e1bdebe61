import { describe, expect, it } from "vitest";
import { isoToLocal, localToIso } from "./schedule";

describe("São Paulo schedule field", () => {
  it("reads datetime-local as São Paulo time (UTC-3 since 2019)", () => {
    expect(localToIso("2026-11-22T14:30")).toBe("2026-11-22T14:30:00-03:00");
    expect(new Date(localToIso("2026-11-22T14:30")!).toISOString()).toBe("2026-11-22T17:30:00.000Z");
    expect(localToIso("2026-01-05T00:00:15")).toBe("2026-01-05T00:00:15-03:00");
  });
  it("uses the offset of the date in zones that change it", () => {
    expect(localToIso("2026-07-01T12:00", "Europe/Lisbon")).toBe("2026-07-01T12:00:00+01:00");
    expect(localToIso("2026-01-01T12:00", "Europe/Lisbon")).toBe("2026-01-01T12:00:00+00:00");
  });
  it("blank is none; other text is invalid", () => {
    expect(localToIso("")).toBeNull();
    expect(localToIso("  ")).toBeNull();
    expect(localToIso("22/11/2026 14:30")).toBeUndefined();
    expect(localToIso("2026-13-45T99:99")).toBeUndefined();
  });
  it("shows an instant as São Paulo datetime-local", () => {
    expect(isoToLocal(new Date("2026-11-22T17:30:00Z"))).toBe("2026-11-22T14:30");
  });
});
