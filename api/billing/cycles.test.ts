import { describe, expect, it } from "vitest";
import { cycleEnd, saoPauloMidnight } from "./cycles";

describe("cycleEnd (ADR 044)", () => {
  it("ends 7 days, 14 days or one calendar month later, at the São Paulo midnight (03:00 UTC)", () => {
    const start = new Date("2031-02-22T03:00:00Z");
    expect(cycleEnd(start, "weekly").toISOString()).toBe("2031-03-01T03:00:00.000Z");
    expect(cycleEnd(start, "biweekly").toISOString()).toBe("2031-03-08T03:00:00.000Z");
    expect(cycleEnd(new Date("2031-01-01T03:00:00Z"), "monthly").toISOString()).toBe("2031-02-01T03:00:00.000Z");
    expect(cycleEnd(new Date("2031-04-01T03:00:00Z"), "monthly").toISOString()).toBe("2031-05-01T03:00:00.000Z");
    expect(cycleEnd(new Date("2031-12-01T03:00:00Z"), "monthly").toISOString()).toBe("2032-01-01T03:00:00.000Z");
    // A start on the 31st ends on the last day of a shorter month.
    expect(cycleEnd(new Date("2031-01-31T03:00:00Z"), "monthly").toISOString()).toBe("2031-02-28T03:00:00.000Z");
  });

  it("follows the São Paulo offset of the day it ends on (Brazil's last daylight saving time, 2018-11-04 to 2019-02-17, was UTC-2)", () => {
    // 2018-10-28 00:00 in São Paulo was 03:00 UTC. On 2018-11-04 the clocks went forward at midnight: 00:00 did not
    // exist, the day began at 01:00 (-02), 03:00 UTC — not 02:00 UTC (23:00 of the 3rd), which would shift every later cycle a day.
    const end = cycleEnd(new Date("2018-10-28T03:00:00Z"), "weekly");
    expect(end.toISOString()).toBe("2018-11-04T03:00:00.000Z");
    expect(cycleEnd(end, "weekly").toISOString()).toBe("2018-11-11T02:00:00.000Z");
    // And back: 2019-02-10 00:00 (-02) is 02:00 UTC; a week later the offset is -03 again.
    expect(cycleEnd(new Date("2019-02-10T02:00:00Z"), "weekly").toISOString()).toBe("2019-02-17T03:00:00.000Z");
  });

  it("finds the São Paulo midnight of an instant's day", () => {
    expect(saoPauloMidnight(new Date("2031-03-01T02:59:59Z")).toISOString()).toBe("2031-02-28T03:00:00.000Z");
    expect(saoPauloMidnight(new Date("2031-03-01T03:00:00Z")).toISOString()).toBe("2031-03-01T03:00:00.000Z");
    expect(saoPauloMidnight(new Date("2018-11-04T12:00:00Z")).toISOString()).toBe("2018-11-04T03:00:00.000Z");
  });
});
