import { describe, expect, it } from "vitest";
import { marketingSlot, parseMinute } from "./window";

const w = { enabled: true, start: 8 * 60, end: 20 * 60, days: [1, 2, 3, 4, 5] };

describe("marketingSlot", () => {
  it("lets a campaign inside the window go now", () => {
    // Monday 2026-11-30 10:00 in São Paulo (UTC-3).
    expect(marketingSlot(w, new Date("2026-11-30T13:00:00Z"))).toBeNull();
  });
  it("moves one before the opening to that day's opening", () => {
    expect(marketingSlot(w, new Date("2026-11-30T09:59:00Z"))?.toISOString()).toBe("2026-11-30T11:00:00.000Z");
  });
  it("moves one at or after the closing to the next listed day", () => {
    expect(marketingSlot(w, new Date("2026-11-30T23:00:00Z"))?.toISOString()).toBe("2026-12-01T11:00:00.000Z");
    // Friday 21:00 → Monday 08:00 (Saturday and Sunday are not listed).
    expect(marketingSlot(w, new Date("2026-12-05T00:00:00Z"))?.toISOString()).toBe("2026-12-07T11:00:00.000Z");
  });
  it("reads the weekday in São Paulo, not in UTC", () => {
    // 2026-12-05 01:00Z is still Friday 22:00 in São Paulo; Saturday 00:30Z-03:00 likewise.
    expect(marketingSlot({ ...w, days: [5] }, new Date("2026-12-05T01:00:00Z"))?.toISOString()).toBe("2026-12-11T11:00:00.000Z");
  });
  it("does nothing without an enabled window", () => {
    expect(marketingSlot({ ...w, enabled: false }, new Date("2026-11-30T02:00:00Z"))).toBeNull();
    expect(marketingSlot(null, new Date("2026-11-30T02:00:00Z"))).toBeNull();
  });
  it("a window ending at 24:00 takes 23:59", () => {
    expect(marketingSlot({ enabled: true, start: 0, end: 1440, days: [1] }, new Date("2026-12-01T02:59:00Z"))).toBeNull();
  });
});

describe("parseMinute", () => {
  it("reads HH:MM up to 24:00", () => {
    expect(parseMinute("08:30")).toBe(510);
    expect(parseMinute("24:00")).toBe(1440);
    expect(parseMinute("24:01")).toBeNull();
    expect(parseMinute("8h")).toBeNull();
  });
});
