/** The period of GET /api/usage and /usage, by São Paulo calendar days (no database). */
import { describe, expect, it } from "vitest";
import { isAppError } from "../lib/errors";
import { saoPauloDay, saoPauloMidnight, usagePeriod } from "./usage";

/** The field errors a refused input answers. */
function refused(input: unknown, now: Date) {
  try {
    usagePeriod(input, now);
  } catch (e) {
    if (isAppError(e) && e.code === "VALIDATION") return e.fields;
    throw e;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe("usage period", () => {
  // 02:59:59 UTC on 1 March is still 28 February in São Paulo (UTC−3).
  const lateNight = new Date("2026-03-01T02:59:59Z");
  const morning = new Date("2026-03-01T03:00:00Z");

  it("takes today in São Paulo, not in UTC", () => {
    expect(saoPauloDay(lateNight)).toBe("2026-02-28");
    expect(saoPauloDay(morning)).toBe("2026-03-01");
  });

  it("bounds days at São Paulo midnights", () => {
    expect(saoPauloMidnight("2026-03-01").toISOString()).toBe("2026-03-01T03:00:00.000Z");
    expect(saoPauloMidnight("2026-11-29").toISOString()).toBe("2026-11-29T03:00:00.000Z");
  });

  it("7d (the default) and 30d end today, today included", () => {
    expect(usagePeriod({}, lateNight)).toEqual({ period: "7d", from: "2026-02-22", to: "2026-02-28" });
    expect(usagePeriod({ period: "7d" }, morning)).toEqual({ period: "7d", from: "2026-02-23", to: "2026-03-01" });
    expect(usagePeriod({ period: "30d" }, morning)).toEqual({ period: "30d", from: "2026-01-31", to: "2026-03-01" });
  });

  it("a custom range wins over period, up to 31 days, not after today", () => {
    expect(usagePeriod({ period: "30d", from: "2026-02-01", to: "2026-02-28" }, morning)).toEqual({ period: "custom", from: "2026-02-01", to: "2026-02-28" });
    expect(usagePeriod({ from: "2026-01-29", to: "2026-02-28" }, morning)).toEqual({ period: "custom", from: "2026-01-29", to: "2026-02-28" });
    expect(refused({ from: "2026-01-28", to: "2026-02-28" }, morning)).toEqual({ to: ["usage.errors.maxRange::31"] });
    expect(refused({ from: "2026-03-01", to: "2026-03-01" }, lateNight)).toEqual({ to: ["usage.errors.future"] });
    expect(refused({ from: "2026-02-10", to: "2026-02-09" }, morning)).toEqual({ from: ["usage.errors.fromAfterTo"] });
    expect(refused({ from: "2026-02-29", to: "2026-03-01" }, morning)).toEqual({ from: ["validation.date"] });
    expect(refused({ from: "2026-02-01" }, morning)).toEqual({ to: ["validation.required"] });
    expect(refused({ period: "custom" }, morning)).toEqual({ from: ["validation.required"], to: ["validation.required"] });
    expect(refused({ period: "1y" }, morning)).toEqual({ period: ["validation.option"] });
  });
});
